#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
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
    guard bytes.count <= limits.maxFileSize else {
      throw YAMLError(
        "the file is \(formatSize(bytes.count)), over the \(formatSize(limits.maxFileSize)) limit",
        at: FileLocation(file: path, line: 0, column: 0))
    }
    let source = SourceFile(path: path, bytes: bytes)
    try validateText(source)
    var builder = TreeBuilder(source: source, limits: limits)
    return try builder.build()
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
    let bytes = source.bytes
    var line = 1
    var column = 1
    var index = 0
    let count = bytes.count
    while index < count {
      let byte = bytes[index]
      if byte < 0x80 {
        if byte == 0 {
          throw YAMLError(
            "the file contains a NUL byte; spec files are UTF-8 text", source: source,
            mark: Mark(line: line, column: column, offset: index))
        }
        if byte == 0x0A {
          line += 1
          column = 1
        } else {
          column += 1
        }
        index += 1
        continue
      }
      let length = utf8SequenceLength(bytes, at: index)
      guard length > 0 else {
        throw YAMLError(
          "the file is not valid UTF-8 (byte 0x\(String(byte, radix: 16, uppercase: true))); spec files are UTF-8 text",
          source: source, mark: Mark(line: line, column: column, offset: index))
      }
      index += length
      column += 1
    }
  }
}

/// The length of a valid UTF-8 sequence that starts at `index`, or 0 when it is invalid.
private func utf8SequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
  let first = bytes[index]
  let count = bytes.count
  func continuation(_ offset: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
    index + offset < count && range.contains(bytes[index + offset])
  }
  switch first {
  case 0xC2...0xDF:
    return continuation(1) ? 2 : 0
  case 0xE0:
    return continuation(1, 0xA0...0xBF) && continuation(2) ? 3 : 0
  case 0xE1...0xEC, 0xEE...0xEF:
    return continuation(1) && continuation(2) ? 3 : 0
  case 0xED:
    return continuation(1, 0x80...0x9F) && continuation(2) ? 3 : 0
  case 0xF0:
    return continuation(1, 0x90...0xBF) && continuation(2) && continuation(3) ? 4 : 0
  case 0xF1...0xF3:
    return continuation(1) && continuation(2) && continuation(3) ? 4 : 0
  case 0xF4:
    return continuation(1, 0x80...0x8F) && continuation(2) && continuation(3) ? 4 : 0
  default:
    return 0
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

// MARK: - Building the tree

/// Turns libyaml's events into nodes with an explicit stack, so depth costs no recursion.
private struct TreeBuilder {
  let source: SourceFile
  let limits: YAMLParser.Limits

  /// A collection under construction.
  struct Frame {
    var isMapping: Bool
    var start: Mark
    var anchor: String?
    var tag: YAMLNode.Tag
    var children: [YAMLNode] = []
    /// Nodes in the subtree, aliases expanded.
    var size: Int = 1
    /// Levels of collections in the subtree, this one included.
    var height: Int = 1
  }

  struct Anchored {
    var node: YAMLNode
    var size: Int
    var height: Int
  }

  var frames: [Frame] = []
  var anchors: [String: Anchored] = [:]
  var expandedByAliases = 0
  var root: YAMLNode?
  var documents = 0

  init(source: SourceFile, limits: YAMLParser.Limits) {
    self.source = source
    self.limits = limits
  }

  func mark(_ mark: yaml_mark_t) -> Mark {
    Mark(line: Int(mark.line) + 1, column: Int(mark.column) + 1, offset: Int(mark.index))
  }

  func error(_ message: String, _ at: Mark) -> YAMLError {
    YAMLError(message, source: source, mark: at)
  }

  mutating func build() throws -> YAMLNode {
    let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
    defer { parser.deallocate() }
    guard yaml_parser_initialize(parser) == 1 else {
      throw error("libyaml could not start (out of memory)", Mark(line: 1, column: 1))
    }
    defer { yaml_parser_delete(parser) }
    return try source.bytes.withUnsafeBufferPointer { buffer -> YAMLNode in
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
      guard let root else {
        throw error("the file is empty: it has no YAML document", Mark(line: 1, column: 1))
      }
      return root
    }
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
      let value =
        data.length == 0
        ? "" : String(decoding: UnsafeBufferPointer(start: data.value, count: data.length), as: UTF8.self)
      let style: YAMLNode.ScalarStyle
      switch data.style {
      case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = .singleQuoted
      case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .doubleQuoted
      case YAML_LITERAL_SCALAR_STYLE: style = .literal
      case YAML_FOLDED_SCALAR_STYLE: style = .folded
      default: style = .plain
      }
      let tag = try resolveTag(data.tag, at: start)
      let node = YAMLNode(
        .scalar(.init(value, style: style)), start: start, end: mark(event.end_mark), source: source, tag: tag)
      try finish(node, size: 1, height: 0, anchor: data.anchor)
    case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
      let isMapping = event.type == YAML_MAPPING_START_EVENT
      let start = mark(event.start_mark)
      if frames.count >= limits.maxDepth {
        throw error("the nesting is deeper than \(limits.maxDepth) levels", start)
      }
      let anchor = isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor
      let tagPointer = isMapping ? event.data.mapping_start.tag : event.data.sequence_start.tag
      let tag = try resolveTag(tagPointer, at: start)
      frames.append(
        Frame(isMapping: isMapping, start: start, anchor: anchor.map { String(cString: $0) }, tag: tag))
    case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
      let frame = frames.removeLast()
      let end = mark(event.end_mark)
      let content: YAMLNode.Content
      if frame.isMapping {
        content = .mapping(try makeMapping(frame.children))
      } else {
        content = .sequence(frame.children)
      }
      let node = YAMLNode(content, start: frame.start, end: end, source: source, tag: frame.tag)
      try finish(node, size: frame.size, height: frame.height, anchorName: frame.anchor)
    case YAML_ALIAS_EVENT:
      let name = String(cString: event.data.alias.anchor)
      let start = mark(event.start_mark)
      guard let anchored = anchors[name] else {
        throw error("unknown alias `*\(name)`: no anchor `&\(name)` is defined before it", start)
      }
      expandedByAliases += anchored.size
      if expandedByAliases > limits.maxAliasExpansion {
        throw error(
          "aliases expand the document past \(limits.maxAliasExpansion) nodes; "
            + "an alias may not repeat a large anchor this often", start)
      }
      if frames.count + anchored.height > limits.maxDepth {
        throw error("the nesting is deeper than \(limits.maxDepth) levels once `*\(name)` is expanded", start)
      }
      // The alias stands where it is written, with the anchored node's content.
      var node = anchored.node
      node.start = start
      node.end = mark(event.end_mark)
      try add(node, size: anchored.size, height: anchored.height)
    default:
      break
    }
  }

  mutating func finish(
    _ node: YAMLNode, size: Int, height: Int, anchor: UnsafeMutablePointer<yaml_char_t>?
  ) throws {
    try finish(node, size: size, height: height, anchorName: anchor.map { String(cString: $0) })
  }

  mutating func finish(_ node: YAMLNode, size: Int, height: Int, anchorName: String?) throws {
    if let anchorName {
      anchors[anchorName] = Anchored(node: node, size: size, height: height)
    }
    try add(node, size: size, height: height)
  }

  mutating func add(_ node: YAMLNode, size: Int, height: Int) throws {
    guard !frames.isEmpty else {
      root = node
      return
    }
    frames[frames.count - 1].children.append(node)
    frames[frames.count - 1].size += size
    if height + 1 > frames[frames.count - 1].height {
      frames[frames.count - 1].height = height + 1
    }
  }

  func resolveTag(_ pointer: UnsafeMutablePointer<yaml_char_t>?, at start: Mark) throws -> YAMLNode.Tag {
    guard let pointer else { return .none }
    let tag = String(cString: pointer)
    switch tag {
    case "!", "tag:yaml.org,2002:str": return .string
    case "tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:bool",
      "tag:yaml.org,2002:null", "tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:binary",
      "tag:yaml.org,2002:seq", "tag:yaml.org,2002:map":
      return .core(String(tag.dropFirst("tag:yaml.org,2002:".count)))
    default:
      let shown = tag.hasPrefix("tag:yaml.org,2002:") ? "!!" + tag.dropFirst("tag:yaml.org,2002:".count) : tag
      throw error("unsupported tag `\(shown)`; specs use plain YAML values", start)
    }
  }

  // MARK: Mappings

  /// Pairs up keys and values, rejects duplicate keys, and applies merge keys.
  func makeMapping(_ children: [YAMLNode]) throws -> YAMLNode.Mapping {
    var explicit: [YAMLNode.Mapping.Entry] = []
    explicit.reserveCapacity(children.count / 2)
    var merges: [(position: Int, value: YAMLNode)] = []
    var seen: [String: Mark]? = children.count / 2 > YAMLNode.Mapping.linearLimit ? [:] : nil
    var index = 0
    while index + 1 < children.count {
      let key = children[index]
      let value = children[index + 1]
      index += 2
      guard let scalar = key.scalar else {
        throw error("a mapping key must be a scalar, not \(key.foundDescription)", key.start)
      }
      if scalar.value == "<<", scalar.style == .plain, key.tag == .none {
        merges.append((explicit.count, value))
        continue
      }
      if seen != nil {
        if let first = seen![scalar.value] {
          throw duplicate(scalar.value, key.start, first: first)
        }
        seen![scalar.value] = key.start
      } else if let first = explicit.first(where: { $0.name == scalar.value }) {
        throw duplicate(scalar.value, key.start, first: first.key.start)
      }
      explicit.append(.init(key: key, value: value))
    }
    guard !merges.isEmpty else { return YAMLNode.Mapping(uniqueEntries: explicit) }
    return try applyMerges(merges, to: explicit)
  }

  func duplicate(_ key: String, _ at: Mark, first: Mark) -> YAMLError {
    error("duplicate key `\(key)` in this mapping (first at \(first))", at)
  }

  /// YAML's merge: keys written in the mapping win, then earlier merged mappings over later ones.
  func applyMerges(
    _ merges: [(position: Int, value: YAMLNode)], to explicit: [YAMLNode.Mapping.Entry]
  ) throws -> YAMLNode.Mapping {
    var present = Set(explicit.map(\.name))
    var result: [YAMLNode.Mapping.Entry] = []
    result.reserveCapacity(explicit.count)
    var next = 0
    for merge in merges {
      while next < merge.position {
        result.append(explicit[next])
        next += 1
      }
      let sources: [YAMLNode]
      switch merge.value.content {
      case .mapping: sources = [merge.value]
      case .sequence(let elements): sources = elements
      case .scalar:
        throw error(
          "the merge key `<<` takes a mapping or a list of mappings, not \(merge.value.foundDescription)",
          merge.value.start)
      }
      for source in sources {
        guard let mapping = source.mapping else {
          throw error(
            "the merge key `<<` takes a mapping or a list of mappings, not a list holding \(source.foundDescription)",
            source.start)
        }
        for entry in mapping.entries where !present.contains(entry.name) {
          present.insert(entry.name)
          result.append(entry)
        }
      }
    }
    result.append(contentsOf: explicit[next...])
    return YAMLNode.Mapping(uniqueEntries: result)
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
      return error(message, mark(parser.problem_mark))
    }
  }

  func position(ofByte offset: Int) -> Mark {
    var line = 1
    var column = 1
    var index = 0
    let bytes = source.bytes
    while index < min(offset, bytes.count) {
      if bytes[index] == 0x0A {
        line += 1
        column = 1
      } else if bytes[index] & 0xC0 != 0x80 {
        column += 1
      }
      index += 1
    }
    return Mark(line: line, column: column, offset: offset)
  }
}
