/// Reads the YAML that spec files are written in, several times faster than libyaml, and
/// declines everything else, which libyaml then reads.
///
/// The subset: one document whose root is a block mapping at column 0; block mappings and
/// block sequences (indented or not); keys and values that are plain, single-quoted or
/// double-quoted (escapes included) scalars on one line; literal and folded block scalars
/// without an indentation indicator; flow mappings and flow sequences on one line; anchors
/// and aliases; comments. Lines end in `\n`.
///
/// It declines (so libyaml reads the file) at the first thing outside that: a tab, a `\r`,
/// a byte order mark, a scalar or a flow collection over several lines, a tag, `?` keys,
/// `---`, a directive, and every place where libyaml would report an error. It never
/// reports an error itself: an error found while building (a duplicate key, nesting too
/// deep) declines too, so every message a user sees comes from one parser.
///
/// What it builds is what libyaml's events build: the same nodes, texts and marks (libyaml's
/// lines and columns, and its positions for the ends of block collections). Debug builds
/// check this on every file they read, and the `yaml` fuzz target on every input.
struct SubsetScanner {
  /// Where the file leaves the subset.
  struct Declined: Error {}

  private let source: SourceFile
  private let bytes: UnsafeBufferPointer<UInt8>
  private let count: Int
  private let isASCII: Bool
  private var builder: TapeBuilder
  private var position = 0
  /// libyaml's 0-based line of `position`, and where that line starts.
  private var line = 0
  private var lineStart = 0
  /// The column of the innermost block collection (libyaml's `indent`): -1 at the top.
  private var indent = -1
  /// The texts of quoted scalars with escapes (`''`, `\\n`), once resolved.
  private var scratch: [UInt8] = []
  private let columns = CountedColumn()

  /// The document of a file in the subset, or `nil` when libyaml must read it.
  static func scan(_ source: SourceFile, limits: YAMLParser.Limits) -> Tape? {
    source.bytes.withUnsafeBufferPointer { buffer -> Tape? in
      guard let isASCII = checkCharacters(buffer) else { return nil }
      var scanner = SubsetScanner(
        source: source, bytes: buffer, isASCII: isASCII,
        builder: TapeBuilder(source: source, limits: limits, marksInBytes: true))
      do {
        try scanner.scanDocument()
        return try scanner.builder.finish()
      } catch {
        // Declined, or an error of the builder's: libyaml reads the file and reports it.
        return nil
      }
    }
  }

  private init(source: SourceFile, bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool, builder: TapeBuilder) {
    self.source = source
    self.bytes = bytes
    count = bytes.count
    self.isASCII = isASCII
    self.builder = builder
  }

  /// Whether every character is one libyaml reads without complaint and the subset allows:
  /// `true` for ASCII text, `false` for other text, `nil` to decline (a control character,
  /// `\r`, a tab, a byte order mark, a character that libyaml rejects or reads as a line
  /// break). The text is already valid UTF-8 without NUL bytes.
  static func checkCharacters(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
    var isASCII = true
    for byte in bytes {
      if (byte < 0x20 && byte != 0x0A) || byte == 0x7F { return nil }
      if byte >= 0x80 { isASCII = false }
    }
    guard !isASCII else { return true }
    return checkText(bytes) ? false : nil
  }

  /// The characters of a text that is not all ASCII, one by one.
  private static func checkText(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    let count = bytes.count
    while index < count {
      let byte = bytes[index]
      if byte < 0x80 {
        if (byte < 0x20 && byte != 0x0A) || byte == 0x7F { return false }
        index += 1
        continue
      }
      let value: UInt32
      if byte < 0xE0 {
        value = UInt32(byte & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
        index += 2
      } else if byte < 0xF0 {
        value = UInt32(byte & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
        index += 3
      } else {
        index += 4
        continue
      }
      // libyaml's printable characters, less its line breaks and the byte order mark.
      if value < 0xA0 || value == 0x2028 || value == 0x2029 || value == 0xFEFF || value >= 0xFFFE { return false }
    }
    return true
  }

  // MARK: Reading bytes

  /// The byte at `index`, or 0 past the end (the text has no NUL bytes).
  @inline(__always) private func byte(_ index: Int) -> UInt8 {
    index < count ? bytes[index] : 0
  }

  /// A space, a line break or the end: what libyaml calls "blank or zero".
  @inline(__always) private func isBlankOrEnd(_ index: Int) -> Bool {
    let byte = byte(index)
    return byte == 0x20 || byte == 0x0A || byte == 0
  }

  /// libyaml's 0-based column of `offset` on the current line: characters, not bytes.
  @inline(__always) private func column(_ offset: Int) -> Int {
    isASCII ? offset - lineStart : Self.countedColumn(offset, lineStart: lineStart, in: bytes, counted: columns)
  }

  /// The column of a line that has characters of several bytes, counted on from the last one
  /// asked for, so that a long line costs one pass (marks come in order, nearly always).
  ///
  /// Static, as the other helpers that are not inlined: a method called from a `mutating`
  /// one gets a copy of the whole scanner (some 300 bytes) to read, at every call.
  private static func countedColumn(
    _ offset: Int, lineStart: Int, in bytes: UnsafeBufferPointer<UInt8>, counted: CountedColumn
  ) -> Int {
    if counted.lineStart != lineStart || offset < counted.offset {
      counted.lineStart = lineStart
      counted.offset = lineStart
      counted.column = 0
    }
    var column = counted.column
    for index in counted.offset..<offset where bytes[index] & 0xC0 != 0x80 { column += 1 }
    counted.offset = offset
    counted.column = column
    return column
  }

  /// Where ``countedColumn(_:)`` stopped: a line, an offset on it and its column.
  private final class CountedColumn {
    var lineStart = -1
    var offset = 0
    var column = 0
  }

  /// The mark of `offset`, on the current line.
  @inline(__always) private func mark(_ offset: Int) -> Mark {
    mark(line: line, column: column(offset), offset: offset)
  }

  /// The mark of libyaml's 0-based `line` and `column` (``TapeBuilder/mark(line:column:offset:)``,
  /// here so that the builder is not copied for it).
  @inline(__always) private func mark(line: Int, column: Int, offset: Int) -> Mark {
    if offset >= count, column == 0 { return TapeBuilder.endMark(line: line, in: source.bytes) }
    return Mark(line: line + 1, column: column + 1, offset: offset)
  }

  // The helpers below that are not inlined are `mutating` although they change nothing: a
  // method that is not, called from a `mutating` one, is given a copy of the whole scanner
  // (some 300 bytes, with the builder) at every call; a `mutating` one is given its address.

  /// Where libyaml ends the block collections that are open at the end of the file.
  private mutating func endOfStream() -> Mark {
    column(count) == 0 ? mark(line: line, column: 0, offset: count) : mark(line: line + 1, column: 0, offset: count)
  }

  /// Where the next token is, or the end of the file: where libyaml ends block collections.
  private mutating func nextTokenMark() -> Mark {
    position < count ? mark(position) : endOfStream()
  }

  private mutating func skipSpaces() {
    while byte(position) == 0x20 { position += 1 }
  }

  /// Past spaces, comments and line breaks, to the next token (libyaml's
  /// `scan_to_next_token` in the block context).
  private mutating func skipToNextToken() {
    while true {
      skipSpaces()
      if byte(position) == UInt8(ascii: "#") {
        while position < count, bytes[position] != 0x0A { position += 1 }
      }
      guard position < count, bytes[position] == 0x0A else { return }
      position += 1
      line += 1
      lineStart = position
    }
  }

  /// `- ` (or `-` at the end of a line): a block sequence's entry.
  @inline(__always) private func isBlockEntry() -> Bool {
    byte(position) == UInt8(ascii: "-") && isBlankOrEnd(position + 1)
  }

  /// `---` or `...` at the start of a line.
  private mutating func isDocumentMarker() -> Bool {
    guard position == lineStart else { return false }
    let first = byte(position)
    guard first == UInt8(ascii: "-") || first == UInt8(ascii: ".") else { return false }
    return byte(position + 1) == first && byte(position + 2) == first && isBlankOrEnd(position + 3)
  }

  // MARK: Building

  private mutating func startCollection(isMapping: Bool, at start: Mark, anchor: Anchor?) throws {
    guard builder.depth < builder.limits.maxDepth else { throw Declined() }
    try builder.startCollection(isMapping: isMapping, start: start, tag: .none, anchor: anchor?.name)
  }

  /// A scalar read by ``readScalar(inFlow:)``.
  private struct Scalar {
    var start: Int
    var end: Int
    var style: YAMLNode.ScalarStyle
    /// The text: bytes of the file, or (`fromScratch`) of `scratch`.
    var textStart: Int
    var textEnd: Int
    var fromScratch = false
  }

  private mutating func add(_ scalar: Scalar, anchor: Anchor?) throws {
    let start = anchor?.start ?? mark(scalar.start)
    let end = mark(scalar.end)
    if scalar.fromScratch {
      try scratch.withUnsafeBufferPointer { buffer in
        try builder.scalar(
          UnsafeBufferPointer(rebasing: buffer[scalar.textStart..<scalar.textEnd]), start: start, end: end,
          style: scalar.style, tag: .none, anchor: anchor?.name)
      }
    } else {
      // The tape's text begins with the file's bytes.
      try builder.scalar(
        at: UInt32(scalar.textStart), count: scalar.textEnd - scalar.textStart, start: start, end: end,
        style: scalar.style, tag: .none, anchor: anchor?.name)
    }
  }

  private mutating func addEmptyScalar(at mark: Mark) throws {
    try builder.scalar(
      UnsafeBufferPointer(start: nil, count: 0), start: mark, end: mark, style: .plain, tag: .none, anchor: nil)
  }

  // MARK: The block context

  private mutating func scanDocument() throws {
    skipToNextToken()
    guard position < count, position == lineStart, !isDocumentMarker(), byte(position) != UInt8(ascii: "%") else {
      throw Declined()
    }
    let key = try readScalar(inFlow: false)
    try blockMapping(firstKey: key, anchor: nil)
    guard position >= count else { throw Declined() }
  }

  /// A block mapping whose first key is read; ends at the next token that is less indented,
  /// or at the end of the file.
  private mutating func blockMapping(firstKey: Scalar, anchor: Anchor?) throws {
    let column = column(firstKey.start)
    let outer = indent
    indent = column
    try startCollection(isMapping: true, at: anchor?.start ?? mark(firstKey.start), anchor: anchor)
    var key = firstKey
    while true {
      // The key, then `:` and a blank.
      skipSpaces()
      guard byte(position) == UInt8(ascii: ":"), isBlankOrEnd(position + 1), position - key.start <= 1000 else {
        throw Declined()
      }
      try add(key, anchor: nil)
      position += 1
      let afterIndicator = position
      skipSpaces()
      let anchor = try readAnchor(inFlow: false)
      if isEndOfLine() {
        try nodeOnLaterLine(emptyAt: mark(afterIndicator), indentlessSequenceAllowed: true, anchor: anchor)
      } else {
        try inlineNode(anchor: anchor)
      }
      guard position < count else { break }
      let next = self.column(position)
      if next < column { break }
      guard next == column, !isBlockEntry(), !isDocumentMarker() else { throw Declined() }
      key = try readScalar(inFlow: false)
    }
    try builder.endCollection(end: nextTokenMark())
    indent = outer
  }

  /// A line break, a comment or the end of the file.
  @inline(__always) private func isEndOfLine() -> Bool {
    let byte = byte(position)
    return byte == 0x0A || byte == 0 || byte == UInt8(ascii: "#")
  }

  /// What follows an indicator (`key:` or `-`) at the end of its line: a collection on the
  /// lines below, or an empty scalar at `emptyAt`.
  private mutating func nodeOnLaterLine(emptyAt empty: Mark, indentlessSequenceAllowed: Bool, anchor: Anchor?) throws {
    skipToNextToken()
    if position < count {
      let next = column(position)
      if next > indent {
        if isBlockEntry() { return try blockSequence(indentless: false, anchor: anchor) }
        let key = try readScalar(inFlow: false)
        return try blockMapping(firstKey: key, anchor: anchor)
      }
      if next == indent, indentlessSequenceAllowed, isBlockEntry() {
        return try blockSequence(indentless: true, anchor: anchor)
      }
    }
    // An anchor on nothing is libyaml's.
    guard anchor == nil else { throw Declined() }
    try addEmptyScalar(at: empty)
  }

  /// A node that starts on the line of its key or its `-`: a scalar, an alias, a flow
  /// collection or a block scalar; leaves `position` at the next token.
  private mutating func inlineNode(anchor: Anchor?) throws {
    switch byte(position) {
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      try flowCollection(anchor: anchor)
    case UInt8(ascii: "|"), UInt8(ascii: ">"):
      return try blockScalar(anchor: anchor)
    case UInt8(ascii: "*"):
      guard anchor == nil else { throw Declined() }
      try alias(inFlow: false)
      skipSpaces()
      guard byte(position) != UInt8(ascii: ":") else { throw Declined() }
    default:
      let scalar = try readScalar(inFlow: false)
      skipSpaces()
      // `a: b: c` and `- &a b: c` are libyaml's.
      guard byte(position) != UInt8(ascii: ":") else { throw Declined() }
      try add(scalar, anchor: anchor)
    }
    try endOfInlineNode()
  }

  /// After a node on one line: the next token must be on a later line, and no more indented
  /// than the collection it belongs to (which, after a plain scalar, would continue it).
  private mutating func endOfInlineNode() throws {
    let nodeLine = line
    skipToNextToken()
    guard position >= count || (line > nodeLine && column(position) <= indent) else { throw Declined() }
  }

  /// A block sequence whose first `-` is at `position`. An indentless one (the value of a
  /// key, at the key's column) ends at the first token that is not a `-` at its column.
  private mutating func blockSequence(indentless: Bool, anchor: Anchor?) throws {
    let column = column(position)
    let outer = indent
    if !indentless { indent = column }
    try startCollection(isMapping: false, at: anchor?.start ?? mark(position), anchor: anchor)
    while true {
      position += 1
      let afterIndicator = position
      skipSpaces()
      let anchor = try readAnchor(inFlow: false)
      let first = byte(position)
      if isEndOfLine() {
        try nodeOnLaterLine(emptyAt: mark(afterIndicator), indentlessSequenceAllowed: false, anchor: anchor)
      } else if isBlockEntry() {
        throw Declined()
      } else if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || first == UInt8(ascii: "|")
        || first == UInt8(ascii: ">") || first == UInt8(ascii: "*") || anchor != nil
      {
        try inlineNode(anchor: anchor)
      } else {
        // A scalar, or the first key of a mapping in the entry (`- key: value`).
        let scalar = try readScalar(inFlow: false)
        skipSpaces()
        if byte(position) == UInt8(ascii: ":") {
          try blockMapping(firstKey: scalar, anchor: nil)
        } else {
          try add(scalar, anchor: nil)
          try endOfInlineNode()
        }
      }
      guard position < count else { break }
      let next = self.column(position)
      if next < column { break }
      guard next == column else { throw Declined() }
      if isBlockEntry() { continue }
      guard indentless else { throw Declined() }
      break
    }
    try builder.endCollection(end: nextTokenMark())
    indent = outer
  }

  // MARK: Anchors and aliases

  /// An anchor written before a node, and the node's start (the `&`).
  private struct Anchor {
    var name: String
    var start: Mark
  }

  /// `&name` and the spaces after it, when the node at `position` has an anchor.
  private mutating func readAnchor(inFlow: Bool) throws -> Anchor? {
    guard byte(position) == UInt8(ascii: "&") else { return nil }
    let start = mark(position)
    let name = try readName(inFlow: inFlow)
    skipSpaces()
    return Anchor(name: name, start: start)
  }

  /// An alias, `*name`.
  private mutating func alias(inFlow: Bool) throws {
    let start = position
    let name = try readName(inFlow: inFlow)
    try builder.alias(name, start: mark(start), end: mark(position))
  }

  /// The name after `&` or `*`: letters, digits, `_` and `-`, then a blank (or, in a flow
  /// collection, its `,` or closing bracket).
  private mutating func readName(inFlow: Bool) throws -> String {
    position += 1
    let nameStart = position
    while true {
      let byte = byte(position)
      let isNameByte =
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
        || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
        || byte == UInt8(ascii: "-")
      guard isNameByte else { break }
      position += 1
    }
    let after = byte(position)
    guard position > nameStart,
      isBlankOrEnd(position)
        || (inFlow && (after == UInt8(ascii: ",") || after == UInt8(ascii: "]") || after == UInt8(ascii: "}")))
    else { throw Declined() }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<position]), as: UTF8.self)
  }

  /// A block scalar at its `|` or `>`, read as libyaml's `scan_block_scalar` reads it;
  /// leaves `position` at the next token.
  private mutating func blockScalar(anchor: Anchor?) throws {
    let start = anchor?.start ?? mark(position)
    let literal = bytes[position] == UInt8(ascii: "|")
    position += 1
    // -1 strips the last line break, 0 keeps one, +1 keeps them all.
    var chomping = 0
    if byte(position) == UInt8(ascii: "-") {
      chomping = -1
      position += 1
    } else if byte(position) == UInt8(ascii: "+") {
      chomping = 1
      position += 1
    }
    skipSpaces()
    if byte(position) == UInt8(ascii: "#") {
      while position < count, bytes[position] != 0x0A { position += 1 }
    }
    // An indentation indicator (`|2`) is libyaml's.
    guard position >= count || bytes[position] == 0x0A else { throw Declined() }
    if position < count { consumeLineBreak() }
    var end = mark(position)
    var blockIndent = 0
    var text: [UInt8] = []
    var leadingBreak = false
    var trailingBreaks = 0
    var leadingBlank = false
    readBreaks(indent: &blockIndent, breaks: &trailingBreaks, end: &end)
    while position - lineStart == blockIndent, position < count {
      let trailingBlank = bytes[position] == 0x20
      if !literal, leadingBreak, !leadingBlank, !trailingBlank {
        // Folded: a single line break between two lines of text is a space.
        if trailingBreaks == 0 { text.append(0x20) }
      } else if leadingBreak {
        text.append(0x0A)
      }
      leadingBreak = false
      for _ in 0..<trailingBreaks { text.append(0x0A) }
      trailingBreaks = 0
      leadingBlank = bytes[position] == 0x20
      let contentStart = position
      while position < count, bytes[position] != 0x0A { position += 1 }
      text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[contentStart..<position]))
      leadingBreak = position < count
      if leadingBreak { consumeLineBreak() }
      readBreaks(indent: &blockIndent, breaks: &trailingBreaks, end: &end)
    }
    if chomping >= 0, leadingBreak { text.append(0x0A) }
    if chomping > 0 {
      for _ in 0..<trailingBreaks { text.append(0x0A) }
    }
    try text.withUnsafeBufferPointer { buffer in
      try builder.scalar(
        buffer, start: start, end: end, style: literal ? .literal : .folded, tag: .none, anchor: anchor?.name)
    }
    skipToNextToken()
    guard position >= count || column(position) <= indent else { throw Declined() }
  }

  private mutating func consumeLineBreak() {
    position += 1
    line += 1
    lineStart = position
  }

  /// Indentation and empty lines in a block scalar (libyaml's `scan_block_scalar_breaks`):
  /// counts the empty lines, moves `end` past them, and settles the indentation the first
  /// time.
  private mutating func readBreaks(indent blockIndent: inout Int, breaks: inout Int, end: inout Mark) {
    var largest = 0
    end = mark(position)
    while true {
      while blockIndent == 0 || position - lineStart < blockIndent, byte(position) == 0x20 { position += 1 }
      largest = max(largest, position - lineStart)
      guard position < count, bytes[position] == 0x0A else { break }
      consumeLineBreak()
      breaks += 1
      end = mark(position)
    }
    if blockIndent == 0 {
      blockIndent = max(largest, indent + 1, 1)
    }
  }

  // MARK: Scalars

  /// Whether a plain scalar may start here (libyaml's rule, less `?` and `:`, which the
  /// subset leaves to it).
  @inline(__always) private func canStartPlain() -> Bool {
    switch byte(position) {
    case 0, 0x0A, 0x20, UInt8(ascii: "?"), UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: "["),
      UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "#"), UInt8(ascii: "&"),
      UInt8(ascii: "*"), UInt8(ascii: "!"), UInt8(ascii: "|"), UInt8(ascii: ">"), UInt8(ascii: "'"),
      UInt8(ascii: "\""), UInt8(ascii: "%"), UInt8(ascii: "@"), UInt8(ascii: "`"):
      return false
    case UInt8(ascii: "-"):
      return !isBlankOrEnd(position + 1)
    default:
      return true
    }
  }

  /// A scalar on one line, quoted or plain; leaves `position` just past it. A plain scalar
  /// ends before ` #`, `: ` and the end of the line, and in a flow collection before
  /// `,`, `[`, `]`, `{` and `}` as well.
  private mutating func readScalar(inFlow: Bool) throws -> Scalar {
    let start = position
    switch byte(start) {
    case UInt8(ascii: "\""):
      position += 1
      var textStart = position
      var fromScratch = false
      while true {
        let byte = byte(position)
        if byte == UInt8(ascii: "\"") { break }
        // A scalar over several lines is libyaml's.
        guard byte != 0x0A, byte != 0 else { throw Declined() }
        if byte == UInt8(ascii: "\\") {
          moveToScratch(&textStart, &fromScratch)
          try readEscape()
          continue
        }
        if fromScratch { scratch.append(byte) }
        position += 1
      }
      position += 1
      return quoted(from: start, style: .doubleQuoted, textStart: textStart, fromScratch: fromScratch)
    case UInt8(ascii: "'"):
      position += 1
      var textStart = position
      var fromScratch = false
      while true {
        let byte = byte(position)
        guard byte != 0x0A, byte != 0 else { throw Declined() }
        if byte == UInt8(ascii: "'") {
          guard self.byte(position + 1) == UInt8(ascii: "'") else { break }
          // `''` is one quote.
          moveToScratch(&textStart, &fromScratch)
          scratch.append(UInt8(ascii: "'"))
          position += 2
          continue
        }
        if fromScratch { scratch.append(byte) }
        position += 1
      }
      position += 1
      return quoted(from: start, style: .singleQuoted, textStart: textStart, fromScratch: fromScratch)
    default:
      guard canStartPlain() else { throw Declined() }
      let (end, next) = try Self.plainScalar(in: bytes, from: start, inFlow: inFlow)
      position = next
      return Scalar(start: start, end: end, style: .plain, textStart: start, textEnd: end)
    }
  }

  /// Copies a quoted scalar's text so far (from `textStart` to `position`) into `scratch`,
  /// where the rest of it is written with its escapes resolved, the first time one is met.
  private mutating func moveToScratch(_ textStart: inout Int, _ fromScratch: inout Bool) {
    guard !fromScratch else { return }
    fromScratch = true
    let copied = scratch.count
    scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[textStart..<position]))
    textStart = copied
  }

  /// A quoted scalar that ends just before `position`, its text in the file or in `scratch`.
  @inline(__always)
  private func quoted(from start: Int, style: YAMLNode.ScalarStyle, textStart: Int, fromScratch: Bool) -> Scalar {
    Scalar(
      start: start, end: position, style: style, textStart: textStart,
      textEnd: fromScratch ? scratch.count : position - 1, fromScratch: fromScratch)
  }

  /// An escape of a double-quoted scalar, at its `\\`, appended to `scratch` as libyaml
  /// resolves it (`scan_flow_scalar`). A line break after the `\\`, and an escape that
  /// libyaml rejects, are libyaml's.
  private mutating func readEscape() throws {
    let code = byte(position + 1)
    position += 2
    var digits = 0
    switch code {
    case UInt8(ascii: "0"): scratch.append(0)
    case UInt8(ascii: "a"): scratch.append(0x07)
    case UInt8(ascii: "b"): scratch.append(0x08)
    case UInt8(ascii: "t"): scratch.append(0x09)
    case UInt8(ascii: "n"): scratch.append(0x0A)
    case UInt8(ascii: "v"): scratch.append(0x0B)
    case UInt8(ascii: "f"): scratch.append(0x0C)
    case UInt8(ascii: "r"): scratch.append(0x0D)
    case UInt8(ascii: "e"): scratch.append(0x1B)
    case UInt8(ascii: " "), UInt8(ascii: "\""), UInt8(ascii: "/"), UInt8(ascii: "\\"): scratch.append(code)
    case UInt8(ascii: "N"): appendUTF8(0x85)
    case UInt8(ascii: "_"): appendUTF8(0xA0)
    case UInt8(ascii: "L"): appendUTF8(0x2028)
    case UInt8(ascii: "P"): appendUTF8(0x2029)
    case UInt8(ascii: "x"): digits = 2
    case UInt8(ascii: "u"): digits = 4
    case UInt8(ascii: "U"): digits = 8
    default: throw Declined()
    }
    guard digits > 0 else { return }
    var value: UInt32 = 0
    for _ in 0..<digits {
      let digit = byte(position)
      let nibble: UInt8
      switch digit {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = digit - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = digit - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = digit - UInt8(ascii: "A") + 10
      default: throw Declined()
      }
      value = value << 4 | UInt32(nibble)
      position += 1
    }
    guard value < 0xD800 || (value > 0xDFFF && value <= 0x10FFFF) else { throw Declined() }
    appendUTF8(value)
  }

  private mutating func appendUTF8(_ value: UInt32) {
    if value < 0x80 {
      scratch.append(UInt8(value))
    } else if value < 0x800 {
      scratch.append(UInt8(0xC0 | value >> 6))
      scratch.append(UInt8(0x80 | value & 0x3F))
    } else if value < 0x10000 {
      scratch.append(UInt8(0xE0 | value >> 12))
      scratch.append(UInt8(0x80 | (value >> 6) & 0x3F))
      scratch.append(UInt8(0x80 | value & 0x3F))
    } else {
      scratch.append(UInt8(0xF0 | value >> 18))
      scratch.append(UInt8(0x80 | (value >> 12) & 0x3F))
      scratch.append(UInt8(0x80 | (value >> 6) & 0x3F))
      scratch.append(UInt8(0x80 | value & 0x3F))
    }
  }

  /// The end of a plain scalar that starts at `start`, and where reading goes on: just past
  /// it, or in a flow collection at the indicator that ends it. Static, on its arguments, so
  /// that the loop runs in registers.
  private static func plainScalar(
    in bytes: UnsafeBufferPointer<UInt8>, from start: Int, inFlow: Bool
  ) throws -> (end: Int, next: Int) {
    let count = bytes.count
    @inline(__always) func byte(_ index: Int) -> UInt8 { index < count ? bytes[index] : 0 }
    @inline(__always) func isBlankOrEnd(_ index: Int) -> Bool {
      let byte = byte(index)
      return byte == 0x20 || byte == 0x0A || byte == 0
    }
    var position = start
    while true {
      // A run of characters that are not blank. Letters and most punctuation are past `:`.
      while true {
        let current = byte(position)
        if current > UInt8(ascii: ":") {
          // `[`, `]`, `{` and `}` are `{` or `}` with bit 5 set.
          if inFlow, current | 0x20 == UInt8(ascii: "{") || current | 0x20 == UInt8(ascii: "}") {
            return (position, position)
          }
          position += 1
          continue
        }
        if current == 0x20 || current == 0x0A || current == 0 { break }
        if current == UInt8(ascii: ":") {
          if isBlankOrEnd(position + 1) { break }
          // In a flow collection, `:` before an indicator is an error of libyaml's.
          if inFlow {
            switch byte(position + 1) {
            case UInt8(ascii: ","), UInt8(ascii: "?"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"),
              UInt8(ascii: "}"):
              throw Declined()
            default: break
            }
          }
        } else if inFlow, current == UInt8(ascii: ",") {
          return (position, position)
        }
        position += 1
      }
      let end = position
      // Blanks, then more of the scalar, or its end.
      while byte(position) == 0x20 { position += 1 }
      let following = byte(position)
      if following == 0x0A || following == 0 || following == UInt8(ascii: "#") {
        // A plain scalar in a flow collection that goes on to the next line is libyaml's.
        if inFlow { throw Declined() }
        return (end, end)
      }
      if following == UInt8(ascii: ":") && isBlankOrEnd(position + 1) { return (end, end) }
      if inFlow {
        switch following {
        case UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"):
          return (end, position)
        default: break
        }
      }
    }
  }

  // MARK: The flow context

  /// A flow mapping or sequence on one line, at its `{` or `[`; leaves `position` past its
  /// closing bracket.
  private mutating func flowCollection(anchor: Anchor?) throws {
    let isMapping = byte(position) == UInt8(ascii: "{")
    let closing = isMapping ? UInt8(ascii: "}") : UInt8(ascii: "]")
    try startCollection(isMapping: isMapping, at: anchor?.start ?? mark(position), anchor: anchor)
    position += 1
    skipSpaces()
    if byte(position) == closing {
      position += 1
      return try builder.endCollection(end: mark(position))
    }
    while true {
      if isMapping {
        let key = try flowScalar()
        skipSpaces()
        guard byte(position) == UInt8(ascii: ":"), byte(position + 1) == 0x20, position - key.start <= 1000 else {
          throw Declined()
        }
        try add(key, anchor: nil)
        position += 1
        skipSpaces()
      }
      let anchor = try readAnchor(inFlow: true)
      let first = byte(position)
      if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
        try flowCollection(anchor: anchor)
      } else if first == UInt8(ascii: "*") {
        guard anchor == nil else { throw Declined() }
        try alias(inFlow: true)
      } else {
        try add(try flowScalar(), anchor: anchor)
      }
      skipSpaces()
      let next = byte(position)
      if next == UInt8(ascii: ",") {
        position += 1
        skipSpaces()
        // A trailing comma, or an empty entry, is libyaml's.
        let after = byte(position)
        guard after != closing, after != UInt8(ascii: ",") else { throw Declined() }
        continue
      }
      guard next == closing else { throw Declined() }
      position += 1
      return try builder.endCollection(end: mark(position))
    }
  }

  /// A scalar in a flow collection: quoted, or plain and not empty.
  private mutating func flowScalar() throws -> Scalar {
    let first = byte(position)
    guard first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") || canStartPlain() else { throw Declined() }
    // `[a: b]`, a mapping of one pair in a sequence, is libyaml's: what follows a scalar is
    // the caller's to check.
    return try readScalar(inFlow: true)
  }
}

extension Tape {
  /// The first way this document differs from `other`, or `nil` when they are the same.
  package func firstDifference(from other: Tape) -> String? {
    guard nodes.count == other.nodes.count else { return "\(nodes.count) nodes, not \(other.nodes.count)" }
    guard root == other.root else { return "the root is node \(root), not \(other.root)" }
    for (index, (node, expected)) in zip(nodes, other.nodes).enumerated() {
      let same =
        node.start == expected.start && node.end == expected.end && node.count == expected.count
        && node.next == expected.next && node.source == expected.source && node.kind == expected.kind
        && node.style == expected.style && node.tag == expected.tag
        && (node.kind == .scalar ? string(index) == other.string(index) : node.first == expected.first)
      if !same { return "node \(index) is \(node), not \(expected)" }
    }
    guard indexes.keys.sorted() == other.indexes.keys.sorted() else { return "the indexes of large mappings differ" }
    for (first, index) in indexes {
      let expected = other.indexes[first]!
      guard index.count == expected.count,
        index.allSatisfy({ expected[$0.key]?.ordinal == $0.value.ordinal && expected[$0.key]?.key == $0.value.key })
      else { return "the index of the mapping at node \(first) differs" }
    }
    return nil
  }
}
