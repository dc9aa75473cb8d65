import Foundation
internal import CYAML

/// Reads YAML into ``YAMLNode`` trees with libyaml's event API.
///
/// The parser resolves anchors and aliases, applies merge keys (`<<`), and rejects
/// what a spec file must not contain: duplicate keys, more than one document, an
/// empty file, unknown tags and non-scalar keys. It also bounds what hostile input
/// can cost; see ``Limits``.
///
/// ```swift
/// let root = try YAMLParser.parse(contentsOf: "specs/counter.yaml")
/// let feature = root["feature"]?.scalar?.value
/// ```
public struct YAMLParser: Sendable {
  /// The bounds that keep a hostile file from costing unbounded time or memory.
  public struct Limits: Sendable, Hashable {
    /// The largest file read, in bytes (16 MiB).
    public var maxFileSize: Int = 16 << 20
    /// The deepest nesting of sequences and mappings, aliases included (256).
    public var maxDepth: Int = 256
    /// The most nodes that aliases may add to a document when expanded (1,000,000).
    public var maxAliasExpansion: Int = 1_000_000

    public init(maxFileSize: Int = 16 << 20, maxDepth: Int = 256, maxAliasExpansion: Int = 1_000_000) {
      self.maxFileSize = maxFileSize
      self.maxDepth = maxDepth
      self.maxAliasExpansion = maxAliasExpansion
    }

    public static let `default` = Limits()
  }

  public var limits: Limits

  public init(limits: Limits = .default) {
    self.limits = limits
  }

  /// Reads and parses a file.
  ///
  /// - Complexity: O(*n*) in the size of the file.
  public static func parse(contentsOf path: String, limits: Limits = .default) throws -> YAMLNode {
    try YAMLParser(limits: limits).parse(contentsOf: path)
  }

  /// Parses text, naming it `path` in errors.
  ///
  /// - Complexity: O(*n*) in the size of the text.
  public static func parse(_ text: String, path: String = "<string>", limits: Limits = .default) throws -> YAMLNode {
    try YAMLParser(limits: limits).parse(bytes: Array(text.utf8), path: path)
  }

  /// Reads and parses a file.
  public func parse(contentsOf path: String) throws -> YAMLNode {
    try parse(bytes: readFile(path), path: path)
  }

  /// Parses bytes, naming them `path` in errors.
  public func parse(bytes: [UInt8], path: String) throws -> YAMLNode {
    try parseDocument(bytes: bytes, path: path).root
  }

  /// Reads and parses a file into the flat form that ``YAMLDecoder`` reads fastest.
  public func parseDocument(contentsOf path: String) throws -> YAMLDocument {
    try parseDocument(bytes: readFile(path), path: path)
  }

  /// Parses bytes into the flat form that ``YAMLDecoder`` reads fastest, naming them `path` in errors.
  ///
  /// - Complexity: O(*n*) in the size of the bytes.
  public func parseDocument(bytes: [UInt8], path: String) throws -> YAMLDocument {
    guard bytes.count <= limits.maxFileSize else {
      throw YAMLError(
        "the file is \(formatSize(bytes.count)), over the \(formatSize(limits.maxFileSize)) limit",
        at: FileLocation(file: path, line: 0, column: 0))
    }
    let source = SourceFile(path: path, bytes: bytes)
    try validateText(source)
    if let tape = SubsetScanner.scan(source, limits: limits) {
      #if DEBUG
        checkSubsetScanner(tape, source)
      #endif
      return YAMLDocument(tape: tape)
    }
    return YAMLDocument(tape: try parseWithLibYAML(source))
  }

  /// The document as libyaml's events build it: what ``SubsetScanner`` must match.
  func parseWithLibYAML(_ source: SourceFile) throws -> Tape {
    var builder = TapeBuilder(source: source, limits: limits)
    return try builder.build()
  }

  /// Stops a debug build (every test, every fuzz target) where ``SubsetScanner`` read a file
  /// differently from libyaml.
  func checkSubsetScanner(_ tape: Tape, _ source: SourceFile) {
    if let disagreement = disagreement(tape, source) {
      preconditionFailure("SubsetScanner \(disagreement)")
    }
  }

  /// How ``SubsetScanner`` reads `bytes` differently from libyaml, or `nil` when it reads
  /// them the same or leaves them to libyaml: what the `yaml` fuzz target checks in any build.
  package func subsetScannerDisagreement(bytes: [UInt8], path: String) -> String? {
    let source = SourceFile(path: path, bytes: bytes)
    guard bytes.count <= limits.maxFileSize, (try? validateText(source)) != nil,
      let tape = SubsetScanner.scan(source, limits: limits)
    else { return nil }
    return disagreement(tape, source)
  }

  private func disagreement(_ tape: Tape, _ source: SourceFile) -> String? {
    do {
      let reference = try parseWithLibYAML(source)
      return tape.firstDifference(from: reference).map { "reads \(source.path) differently from libyaml: \($0)" }
    } catch {
      return "reads \(source.path), which libyaml rejects: \(error)"
    }
  }

  // MARK: - Reading

  func readFile(_ path: String) throws -> [UInt8] {
    let whole = FileLocation(file: path, line: 0, column: 0)
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else {
      throw YAMLError("cannot read the file: \(String(cString: strerror(errno)))", at: whole)
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      throw YAMLError("cannot read the file: \(String(cString: strerror(errno)))", at: whole)
    }
    if (info.st_mode & S_IFMT) == S_IFDIR {
      throw YAMLError("cannot read the file: it is a directory", at: whole)
    }
    let size = Int(info.st_size)
    guard size <= limits.maxFileSize else {
      throw YAMLError("the file is \(formatSize(size)), over the \(formatSize(limits.maxFileSize)) limit", at: whole)
    }
    // Read up to one byte past the limit, so a file that grows while read is still caught.
    var bytes = [UInt8](repeating: 0, count: min(size, limits.maxFileSize) + 1)
    var total = 0
    while total < bytes.count {
      let count = bytes.withUnsafeMutableBytes { buffer in
        read(descriptor, buffer.baseAddress! + total, buffer.count - total)
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw YAMLError("cannot read the file: \(String(cString: strerror(errno)))", at: whole)
      }
      if count == 0 { break }
      total += count
    }
    guard total <= limits.maxFileSize else {
      throw YAMLError("the file is over the \(formatSize(limits.maxFileSize)) limit", at: whole)
    }
    bytes.removeSubrange(total...)
    return bytes
  }

  /// Rejects NUL bytes and invalid UTF-8 with the line and column where they are.
  func validateText(_ source: SourceFile) throws {
    // The standard library validates (NUL is valid UTF-8, so memchr looks for it); only a
    // file that fails is read again, scalar by scalar, to say where.
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
      let valid =
        String(validating: source.bytes, as: UTF8.self) != nil
        && source.bytes.withUnsafeBytes { $0.isEmpty || memchr($0.baseAddress!, 0, $0.count) == nil }
      if valid { return }
    }
    try locateInvalidText(source)
  }

  /// Throws at the first NUL byte or invalid UTF-8 sequence, with its line and column.
  private func locateInvalidText(_ source: SourceFile) throws {
    var parser = Unicode.UTF8.ForwardParser()
    var bytes = source.bytes.makeIterator()
    var line = 1
    var column = 1
    var offset = 0
    while true {
      switch parser.parseScalar(from: &bytes) {
      case .emptyInput:
        return
      case .valid(let scalar):
        if scalar.count == 1, scalar.first == 0 {
          throw YAMLError(
            "the file contains a NUL byte; spec files are UTF-8 text", source: source,
            mark: Mark(line: line, column: column, offset: offset))
        }
        // A line break as libyaml counts them (a `\r\n` once, at its `\n`).
        let breakLength = SourceFile.lineBreakLength(in: source.bytes, at: offset)
        if breakLength > 0 && !(breakLength == 2 && scalar.first == 0x0D) {
          line += 1
          column = 1
        } else if !(breakLength == 2 && scalar.first == 0x0D) {
          column += 1
        }
        offset += scalar.count
      case .error:
        let byte = source.bytes[offset]
        throw YAMLError(
          "the file is not valid UTF-8 (byte 0x\(String(byte, radix: 16, uppercase: true))); spec files are UTF-8 text",
          source: source, mark: Mark(line: line, column: column, offset: offset))
      }
    }
  }
}

/// `16 MiB`, `1.5 KiB`, `12 bytes`.
func formatSize(_ bytes: Int) -> String {
  func format(_ value: Double, _ unit: String) -> String {
    let rounded = (value * 10).rounded() / 10
    let text = rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    return "\(text) \(unit)"
  }
  if bytes >= 1 << 20 { return format(Double(bytes) / Double(1 << 20), "MiB") }
  if bytes >= 1 << 10 { return format(Double(bytes) / Double(1 << 10), "KiB") }
  return "\(bytes) bytes"
}

// MARK: - Building the document

/// Turns libyaml's events into a ``Tape`` with an explicit stack, so depth costs no recursion.
/// ``SubsetScanner`` builds with it too, through the same events.
struct TapeBuilder {
  let source: SourceFile
  let limits: YAMLParser.Limits
  var tape = Tape()

  /// A collection under construction. Plain data, so the stack costs no reference counting;
  /// the rarely used parts are in ``Extras``.
  struct Frame {
    /// The collection's node.
    var ref: Int
    var isMapping: Bool
    var hasAnchor: Bool
    /// The last child linked, or -1.
    var last = -1
    /// Elements of a sequence; entries of a mapping, merge keys excluded.
    var count = 0
    /// Nodes in the subtree, aliases expanded.
    var size = 1
    /// Levels of collections in the subtree, this one included.
    var height = 1
    /// In a mapping: the key whose value comes next, or -1.
    var key = -1
    /// In a mapping: the next value is a merge key's (`<<`).
    var valueIsMerge = false
    var hasMerges = false
    var hasSeen = false

    init(ref: Int, isMapping: Bool, hasAnchor: Bool) {
      self.ref = ref
      self.isMapping = isMapping
      self.hasAnchor = hasAnchor
    }
  }

  /// What a few collections need besides their ``Frame``.
  struct Extras {
    var anchor: String?
    /// Merge keys: the number of entries before each, and its value.
    var merges: [(position: Int, value: Int)] = []
    /// Keys seen, once a mapping has more than a few (for duplicates in constant time).
    var seen: [String: Tape.Slot] = [:]
  }

  struct Anchored {
    var ref: Int
    var size: Int
    var height: Int
  }

  /// The collections open around ``current``, outermost first: the innermost one, which
  /// every node is added to, is kept out of the array, so that adding a node reads and
  /// writes a stored frame, not an array's element (with its uniqueness and bounds checks).
  var frames: [Frame] = []
  /// The innermost open collection, when ``depth`` is over 0.
  var current = Frame(ref: -1, isMapping: false, hasAnchor: false)
  /// How many collections are open: ``current`` and the ``frames`` around it.
  private(set) var depth = 0
  /// The extras of the open collections, by depth (0 the outermost), only grown when a
  /// collection needs them.
  var extras: [Extras] = []
  var anchors: [String: Anchored] = [:]
  var expandedByAliases = 0
  var root: Int?
  var documents = 0

  /// Turns libyaml's mark indexes, which count characters, into byte offsets (which the
  /// rewriter of `record` edits by); `nil` for a file of ASCII text without a byte order
  /// mark, where the two are the same.
  let byteOffsets: CharacterOffsets?

  /// - Parameter marksInBytes: whether the marks of the events come with byte offsets
  ///   (``SubsetScanner``'s), not libyaml's character indexes.
  init(source: SourceFile, limits: YAMLParser.Limits, marksInBytes: Bool = false) {
    self.source = source
    self.limits = limits
    byteOffsets = marksInBytes ? nil : CharacterOffsets(source.bytes)
    tape.sources.append(source)
    tape.nodes.reserveCapacity(source.bytes.count / 8)
    if marksInBytes {
      // The file's bytes (shared, not copied), so that a scalar's text can be where it is written.
      tape.text = source.bytes
    } else {
      tape.text.reserveCapacity(source.bytes.count / 2)
    }
  }

  @inline(__always)
  func mark(_ mark: yaml_mark_t) -> Mark {
    let index = Int(mark.index)
    let offset = byteOffsets?.byteOffset(of: index) ?? index
    return self.mark(line: Int(mark.line), column: Int(mark.column), offset: offset)
  }

  /// The mark of libyaml's 0-based `line` and `column` at byte `offset`.
  @inline(__always)
  func mark(line: Int, column: Int, offset: Int) -> Mark {
    if offset >= source.bytes.count, column == 0 { return endMark(line: line) }
    return Mark(line: line + 1, column: column + 1, offset: offset)
  }

  /// Where the file ends, for a mark at its end on a line of its own (1-based `line` + 1):
  /// libyaml ends its stream there even when the last line has no line break, and a
  /// location should then be the end of that last line. (Found by the `decode` fuzz target:
  /// the document `---` was null at 2:1 in a file of one line.)
  func endMark(line: Int) -> Mark {
    Self.endMark(line: line, in: source.bytes)
  }

  static func endMark(line: Int, in bytes: [UInt8]) -> Mark {
    let end = bytes.count
    guard line >= 1, Self.lineBreak(endingAt: end, in: bytes) == 0 else {
      return Mark(line: line + 1, column: 1, offset: end)
    }
    // The characters of the last line: back to the line break before it.
    var start = end
    while start > 0, Self.lineBreak(endingAt: start, in: bytes) == 0 { start -= 1 }
    let characters = bytes[start..<end].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    return Mark(line: line, column: characters + 1, offset: end)
  }

  /// The length of the line break that ends just before `end`, or 0 (the breaks of
  /// ``SourceFile/lineBreakLength(in:at:)``, read backwards).
  static func lineBreak(endingAt end: Int, in bytes: [UInt8]) -> Int {
    guard end > 0 else { return 0 }
    if bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { return 1 }
    if end >= 2, bytes[end - 2] == 0xC2, bytes[end - 1] == 0x85 { return 2 }
    if end >= 3, bytes[end - 3] == 0xE2, bytes[end - 2] == 0x80, bytes[end - 1] == 0xA8 || bytes[end - 1] == 0xA9 {
      return 3
    }
    return 0
  }

  func error(_ message: String, _ at: Mark) -> YAMLError {
    YAMLError(message, source: source, mark: at)
  }

  mutating func build() throws -> Tape {
    let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
    defer { parser.deallocate() }
    guard yaml_parser_initialize(parser) == 1 else {
      throw error("libyaml could not start (out of memory)", Mark(line: 1, column: 1))
    }
    defer { yaml_parser_delete(parser) }
    try source.bytes.withUnsafeBufferPointer { buffer in
      yaml_parser_set_input_string(parser, buffer.baseAddress, buffer.count)
      var event = yaml_event_t()
      while true {
        guard yaml_parser_parse(parser, &event) == 1 else {
          throw libyamlError(parser.pointee)
        }
        defer { yaml_event_delete(&event) }
        if event.type == YAML_STREAM_END_EVENT { break }
        try handle(event)
      }
    }
    return try finish()
  }

  mutating func handle(_ event: yaml_event_t) throws {
    switch event.type {
    case YAML_DOCUMENT_START_EVENT:
      documents += 1
      if documents > 1 {
        throw error(
          "the file has more than one YAML document; a spec file holds exactly one", mark(event.start_mark))
      }
    case YAML_SCALAR_EVENT:
      let data = event.data.scalar
      let start = mark(event.start_mark)
      let style: YAMLNode.ScalarStyle
      switch data.style {
      case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = .singleQuoted
      case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .doubleQuoted
      case YAML_LITERAL_SCALAR_STYLE: style = .literal
      case YAML_FOLDED_SCALAR_STYLE: style = .folded
      default: style = .plain
      }
      let tag = data.tag == nil ? .none : try resolveTag(data.tag, at: start)
      try scalar(
        UnsafeBufferPointer(start: data.value, count: data.length), start: start, end: mark(event.end_mark),
        style: style, tag: tag, anchor: data.anchor.map { String(cString: $0) })
    case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
      let isMapping = event.type == YAML_MAPPING_START_EVENT
      let start = mark(event.start_mark)
      let anchor = isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor
      let tagPointer = isMapping ? event.data.mapping_start.tag : event.data.sequence_start.tag
      if depth >= limits.maxDepth {
        throw error("the nesting is deeper than \(limits.maxDepth) levels", start)
      }
      let tag = tagPointer == nil ? .none : try resolveTag(tagPointer, at: start)
      try startCollection(isMapping: isMapping, start: start, tag: tag, anchor: anchor.map { String(cString: $0) })
    case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
      try endCollection(end: mark(event.end_mark))
    case YAML_ALIAS_EVENT:
      try alias(String(cString: event.data.alias.anchor), start: mark(event.start_mark), end: mark(event.end_mark))
    default:
      break
    }
  }

  // MARK: Events
  //
  // What libyaml's events and ``SubsetScanner`` both build with.

  /// A scalar whose text (escapes resolved, lines folded) is `text`.
  mutating func scalar(
    _ text: UnsafeBufferPointer<UInt8>, start: Mark, end: Mark, style: YAMLNode.ScalarStyle, tag: YAMLNode.Tag,
    anchor: String?
  ) throws {
    try scalar(
      at: tape.appendText(text), count: text.count, start: start, end: end, style: style, tag: tag, anchor: anchor)
  }

  /// A scalar whose text is already in the tape's text, `count` bytes at `first`.
  mutating func scalar(
    at first: UInt32, count: Int, start: Mark, end: Mark, style: YAMLNode.ScalarStyle, tag: YAMLNode.Tag,
    anchor: String?
  ) throws {
    let ref = tape.append(
      Tape.Node(
        start: start, end: end, first: first, count: UInt32(count), source: 1, kind: .scalar, style: style, tag: tag))
    if let anchor {
      anchors[anchor] = Anchored(ref: ref, size: 1, height: 0)
    }
    try add(ref, size: 1, height: 0)
  }

  /// The start of a sequence or a mapping, whose entries come next. The caller checks the depth.
  mutating func startCollection(isMapping: Bool, start: Mark, tag: YAMLNode.Tag, anchor: String?) throws {
    let ref = tape.append(
      Tape.Node(
        start: start, end: start, first: Tape.none, count: 0, source: 1, kind: isMapping ? .mapping : .sequence,
        style: .plain, tag: tag))
    if depth > 0 { frames.append(current) }
    current = Frame(ref: ref, isMapping: isMapping, hasAnchor: anchor != nil)
    depth += 1
    if let anchor { extras[extras(depth - 1)].anchor = anchor }
  }

  /// The end of the innermost collection.
  mutating func endCollection(end: Mark) throws {
    let frame = current
    depth -= 1
    if depth > 0 { current = frames.removeLast() }
    tape.nodes[frame.ref].end = end
    tape.nodes[frame.ref].count = UInt32(frame.count)
    if frame.hasMerges || frame.hasSeen || frame.hasAnchor {
      let extra = extras[depth]
      extras[depth] = Extras()
      if frame.hasMerges {
        try applyMerges(frame, extra.merges)
      } else if frame.hasSeen {
        tape.indexes[tape.nodes[frame.ref].first] = extra.seen
      }
      if let anchor = extra.anchor {
        anchors[anchor] = Anchored(ref: frame.ref, size: frame.size, height: frame.height)
      }
    }
    try add(frame.ref, size: frame.size, height: frame.height)
  }

  /// An alias of the anchor `name`.
  mutating func alias(_ name: String, start: Mark, end: Mark) throws {
    guard let anchored = anchors[name] else {
      throw error("unknown alias `*\(name)`: no anchor `&\(name)` is defined before it", start)
    }
    expandedByAliases += anchored.size
    if expandedByAliases > limits.maxAliasExpansion {
      throw error(
        "aliases expand the document past \(limits.maxAliasExpansion) nodes; "
          + "an alias may not repeat a large anchor this often", start)
    }
    if depth + anchored.height > limits.maxDepth {
      throw error("the nesting is deeper than \(limits.maxDepth) levels once `*\(name)` is expanded", start)
    }
    // The alias stands where it is written, with the anchored node's content (its children are shared).
    var node = tape.nodes[anchored.ref]
    node.start = start
    node.end = end
    node.next = Tape.none
    try add(tape.append(node), size: anchored.size, height: anchored.height)
  }

  /// The document, once every event is handled.
  mutating func finish() throws -> Tape {
    guard let root else {
      throw error("the file is empty: it has no YAML document", Mark(line: 1, column: 1))
    }
    tape.root = root
    return tape
  }

  /// Links a finished node into the collection being built, or makes it the root.
  mutating func add(_ ref: Int, size: Int, height: Int) throws {
    guard depth > 0 else {
      root = ref
      return
    }
    tape.link(ref, after: current.last, in: current.ref)
    current.last = ref
    current.size += size
    if height + 1 > current.height {
      current.height = height + 1
    }
    guard current.isMapping else {
      current.count += 1
      return
    }
    if current.key >= 0 {
      // A value.
      if current.valueIsMerge {
        extras[extras(depth - 1)].merges.append((current.count, ref))
        current.hasMerges = true
        current.valueIsMerge = false
      } else {
        current.count += 1
      }
      current.key = -1
      return
    }
    // A key.
    current.key = ref
    let node = tape.nodes[ref]
    guard node.kind == .scalar else {
      throw error("a mapping key must be a scalar, not \(tape.foundDescription(ref))", node.start)
    }
    if isMergeKey(node) {
      current.valueIsMerge = true
      return
    }
    if try checkDuplicate(ref, node, in: current, at: depth - 1) {
      current.hasSeen = true
    }
  }

  /// Makes room for the extras of a frame; returns its depth.
  mutating func extras(_ depth: Int) -> Int {
    while extras.count <= depth { extras.append(Extras()) }
    return depth
  }

  /// Rejects a key that the mapping already has; returns whether the mapping's keys are now
  /// hashed (its frame's `hasSeen`).
  mutating func checkDuplicate(_ key: Int, _ keyNode: Tape.Node, in frame: Frame, at depth: Int) throws -> Bool {
    let ordinal = UInt32(frame.count)
    if frame.hasSeen {
      let name = tape.string(key)
      if let first = extras[depth].seen[name] {
        throw duplicate(name, key, first: Int(first.key))
      }
      extras[depth].seen[name] = Tape.Slot(ordinal: ordinal, key: UInt32(key))
      return false
    }
    // Compare with the keys so far, skipping merge keys; the lengths first, as most differ.
    var entry = tape.nodes[frame.ref].first
    while entry != Tape.none, Int(entry) != key {
      let candidate = tape.nodes[Int(entry)]
      if candidate.count == keyNode.count, keysEqual(candidate, keyNode), !isMergeKey(candidate) {
        throw duplicate(tape.string(key), key, first: Int(entry))
      }
      entry = tape.nodes[Int(candidate.next)].next
    }
    if frame.count + 1 > YAMLNode.Mapping.linearLimit, !frame.hasMerges {
      // From here on, a hash of the keys (it becomes the mapping's index).
      var seen = [String: Tape.Slot]()
      var ordinal: UInt32 = 0
      var entry = tape.nodes[frame.ref].first
      while entry != Tape.none {
        seen[tape.string(Int(entry))] = Tape.Slot(ordinal: ordinal, key: entry)
        ordinal += 1
        if Int(entry) == key { break }
        entry = tape.nodes[Int(tape.nodes[Int(entry)].next)].next
      }
      extras[extras(depth)].seen = seen
      return true
    }
    return false
  }

  /// A plain, untagged `<<`.
  func isMergeKey(_ ref: Int) -> Bool {
    isMergeKey(tape.nodes[ref])
  }

  func isMergeKey(_ node: Tape.Node) -> Bool {
    guard node.count == 2, node.kind == .scalar, node.style == .plain, node.tag == .none else { return false }
    return tape.text[Int(node.first)] == UInt8(ascii: "<") && tape.text[Int(node.first) + 1] == UInt8(ascii: "<")
  }

  func keysEqual(_ left: Tape.Node, _ right: Tape.Node) -> Bool {
    guard left.count == right.count else { return false }
    return tape.text.withUnsafeBufferPointer { buffer in
      left.count == 0 || memcmp(buffer.baseAddress! + Int(left.first), buffer.baseAddress! + Int(right.first), Int(left.count)) == 0
    }
  }

  func resolveTag(_ pointer: UnsafeMutablePointer<yaml_char_t>?, at start: Mark) throws -> YAMLNode.Tag {
    guard let pointer else { return .none }
    let tag = String(cString: pointer)
    let core = "tag:yaml.org,2002:"
    switch tag {
    case "!", core + "str": return .string
    case core + "int": return .int
    case core + "float": return .float
    case core + "bool": return .bool
    case core + "null": return .null
    case core + "timestamp": return .timestamp
    case core + "binary": return .binary
    case core + "seq": return .seq
    case core + "map": return .map
    default:
      let shown = tag.hasPrefix(core) ? "!!" + tag.dropFirst(core.count) : tag
      throw error("unsupported tag `\(shown)`; specs use plain YAML values", start)
    }
  }

  // MARK: Mappings

  func duplicate(_ key: String, _ at: Int, first: Int) -> YAMLError {
    error("duplicate key `\(key)` in this mapping (first at \(tape.nodes[first].start))", tape.nodes[at].start)
  }

  /// YAML's merge: keys written in the mapping win, then earlier merged mappings over later ones.
  /// The mapping gets a new chain of entries (copies of the entries' key and value nodes).
  mutating func applyMerges(_ frame: Frame, _ merges: [(position: Int, value: Int)]) throws {
    var explicit: [(key: Int, value: Int)] = []
    var current = tape.nodes[frame.ref].first
    while current != Tape.none {
      let value = tape.nodes[Int(current)].next
      if !isMergeKey(Int(current)) { explicit.append((Int(current), Int(value))) }
      current = tape.nodes[Int(value)].next
    }
    var present = Set(explicit.map { tape.string($0.key) })
    var result: [(key: Int, value: Int)] = []
    result.reserveCapacity(explicit.count)
    var next = 0
    for merge in merges {
      while next < merge.position {
        result.append(explicit[next])
        next += 1
      }
      let sources: [Int]
      switch tape.kind(merge.value) {
      case .mapping: sources = [merge.value]
      case .sequence: sources = tape.children(merge.value)
      case .scalar:
        throw error(
          "the merge key `<<` takes a mapping or a list of mappings, not \(tape.foundDescription(merge.value))",
          tape.nodes[merge.value].start)
      }
      for source in sources {
        guard tape.kind(source) == .mapping else {
          throw error(
            "the merge key `<<` takes a mapping or a list of mappings, not a list holding "
              + tape.foundDescription(source), tape.nodes[source].start)
        }
        for key in tape.keys(source) {
          let name = tape.string(key)
          guard !present.contains(name) else { continue }
          present.insert(name)
          result.append((key, Int(tape.nodes[key].next)))
        }
      }
    }
    result.append(contentsOf: explicit[next...])
    var last = -1
    for entry in result {
      var key = tape.nodes[entry.key]
      key.next = Tape.none
      let keyRef = tape.append(key)
      tape.link(keyRef, after: last, in: frame.ref)
      var value = tape.nodes[entry.value]
      value.next = Tape.none
      let valueRef = tape.append(value)
      tape.link(valueRef, after: keyRef, in: frame.ref)
      last = valueRef
    }
    if last < 0 { tape.nodes[frame.ref].first = Tape.none }
    tape.nodes[frame.ref].count = UInt32(result.count)
    tape.indexMapping(frame.ref)
  }

  // MARK: libyaml's errors

  func libyamlError(_ parser: yaml_parser_t) -> YAMLError {
    let problem = parser.problem.map { String(cString: $0) } ?? "the YAML is malformed"
    switch parser.error {
    case YAML_READER_ERROR:
      // Offsets, not lines, are all a reader error knows; find the line and column.
      let at = position(ofByte: Int(parser.problem_offset))
      return error("the file cannot be read as YAML: \(problem)", at)
    case YAML_MEMORY_ERROR:
      return error("libyaml ran out of memory", Mark(line: 1, column: 1))
    default:
      var message = problem
      if let context = parser.context.map({ String(cString: $0) }) {
        let contextMark = mark(parser.context_mark)
        message += " \(context) that starts at \(contextMark)"
      }
      // At the end of a file without a final line break, the end of its last line (`mark`);
      // with one, the end of its last line that has text (`endOfText`).
      var problemMark = mark(parser.problem_mark)
      if problemMark.offset >= source.bytes.count { problemMark = endOfText() }
      if parser.context.map({ String(cString: $0) }) == "while parsing a flow mapping",
        let key = Self.plainKeyWithBracket(source.line(problemMark.line), column: problemMark.column)
      {
        message +=
          "; a key with `[` or `]` cannot be written plain in a flow mapping (`{ … }`): quote it, "
          + "`\"\(key)\": …`, or write the mapping in block style, one key per line"
      }
      return error(message, problemMark)
    }
  }

  /// The key that libyaml stopped in when it met a `[` just after a plain word inside a flow
  /// mapping (`{ items[id=0].isDone: true }`): `items[id=0].isDone`.
  static func plainKeyWithBracket(_ line: String?, column: Int) -> String? {
    guard let line else { return nil }
    let characters = Array(line.unicodeScalars)
    let at = column - 1
    guard at > 0, at < characters.count, characters[at] == "[" else { return nil }
    func isWord(_ c: Unicode.Scalar) -> Bool { c == "_" || c == "." || c.properties.isAlphabetic || ("0"..."9").contains(c) }
    guard isWord(characters[at - 1]) else { return nil }
    var start = at - 1
    while start > 0, isWord(characters[start - 1]) { start -= 1 }
    var end = at
    while end < characters.count, characters[end] != ":" || (end + 1 < characters.count && characters[end + 1] != " ") {
      if characters[end] == "," || characters[end] == "}" { return nil }
      end += 1
    }
    guard end < characters.count else { return nil }
    return String(String.UnicodeScalarView(characters[start..<end]))
  }

  /// Where the file's text ends: the column after the last character that is not a space,
  /// a tab or a line break, on its line (1:1 for a file of nothing else). An error that
  /// libyaml places at the end of the stream is shown there, on a line the user can see,
  /// not on the empty line after the last line break.
  func endOfText() -> Mark {
    let bytes = source.bytes
    var end = bytes.count
    while end > 0 {
      let lineBreak = Self.lineBreak(endingAt: end, in: bytes)
      if lineBreak > 0 {
        end -= lineBreak
      } else if bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 {
        end -= 1
      } else {
        break
      }
    }
    return position(ofByte: end)
  }

  func position(ofByte offset: Int) -> Mark {
    var line = 1
    var column = 1
    var index = 0
    let bytes = source.bytes
    while index < min(offset, bytes.count) {
      let breakLength = SourceFile.lineBreakLength(in: bytes, at: index)
      if breakLength > 0, index + breakLength <= offset {
        line += 1
        column = 1
        index += breakLength
        continue
      }
      if bytes[index] & 0xC0 != 0x80 { column += 1 }
      index += 1
    }
    return Mark(line: line, column: column, offset: offset)
  }
}

/// Byte offsets of character indexes in UTF-8 text, for libyaml's marks: their `index`
/// counts characters (after a byte order mark, which it skips), and the text's bytes are
/// what the rewriter of `record` edits. libyaml's marks come in order of the text, so a
/// cursor walks from one to the next: the whole file costs one pass.
final class CharacterOffsets {
  private let bytes: [UInt8]
  /// Where character 0 starts: 3 after a byte order mark.
  private let start: Int
  /// The last character index asked for, and its byte offset.
  private var index = 0
  private var offset: Int

  /// `nil` when every character is one byte and there is no byte order mark: offsets are
  /// indexes.
  init?(_ bytes: [UInt8]) {
    let hasByteOrderMark = bytes.starts(with: [0xEF, 0xBB, 0xBF])
    let isASCII = bytes.withUnsafeBufferPointer { buffer in
      var high: UInt8 = 0
      for byte in buffer { high |= byte }
      return high < 0x80
    }
    guard hasByteOrderMark || !isASCII else { return nil }
    self.bytes = bytes
    start = hasByteOrderMark ? 3 : 0
    offset = start
  }

  /// The byte offset where character `target` starts (the end of the text past its last).
  func byteOffset(of target: Int) -> Int {
    bytes.withUnsafeBufferPointer { bytes in
      while index < target, offset < bytes.count {
        // Past this character: its lead byte, then its continuation bytes.
        offset += 1
        while offset < bytes.count, bytes[offset] & 0xC0 == 0x80 { offset += 1 }
        index += 1
      }
      while index > target, offset > start {
        offset -= 1
        while offset > start, bytes[offset] & 0xC0 == 0x80 { offset -= 1 }
        index -= 1
      }
      return offset
    }
  }
}
