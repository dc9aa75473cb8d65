import Foundation

/// A parsed YAML file, stored flat: what ``YAMLDecoder`` reads.
///
/// A document holds the same information as the ``YAMLNode`` tree of the file
/// (aliases resolved, merge keys applied, every node with its position) in a few
/// flat arrays, so parsing a file and decoding a value from it allocates little
/// more than the decoded value itself. Parse a file once and decode it as many
/// types as needed:
///
/// ```swift
/// let document = try YAMLParser().parseDocument(contentsOf: "specs/counter.yaml")
/// let header = try YAMLDecoder().decode(Header.self, from: document)
/// let spec = try YAMLDecoder().decode(CounterSpec.self, from: document)
/// ```
public struct YAMLDocument: Sendable {
  package let tape: Tape

  package init(tape: Tape) {
    self.tape = tape
  }

  /// The document as a tree of nodes.
  ///
  /// - Complexity: O(*n*) in the number of nodes, aliases expanded.
  public var root: YAMLNode { tape.node(at: tape.root) }

  /// The number of nodes, keys included; an alias counts once.
  public var nodeCount: Int { tape.nodes.count }

  /// The document of a node tree (for decoding values that did not come from a file).
  public init(_ node: YAMLNode) {
    tape = Tape(flattening: node)
  }
}

/// The flat form of a document.
///
/// Every node is one `Tape.Node`; a collection links to its first child and every
/// child to its next sibling, so a mapping's entries are `key, value, key, value, …`
/// along the sibling links. Aliases are copies of their anchor's root node that
/// share its children; a mapping with merge keys gets a new chain of entries.
/// Scalar texts are byte ranges of one buffer.
package struct Tape: Sendable {
  /// The "no node" link.
  package static let none = UInt32.max

  package enum Kind: UInt8, Sendable {
    case scalar, sequence, mapping
  }

  package struct Node: Sendable {
    package var start: Mark
    var end: Mark
    /// A scalar's text offset in ``Tape/text``; a collection's first child (or `none`).
    package var first: UInt32
    /// A scalar's text length in bytes; a collection's number of elements or entries.
    package var count: UInt32
    /// The next sibling in the parent collection, or `none`.
    package var next: UInt32 = Tape.none
    /// The file, as an index into ``Tape/sources``.
    var source: UInt32
    package var kind: Kind
    package var style: YAMLNode.ScalarStyle
    package var tag: YAMLNode.Tag
  }

  /// An entry of a large mapping's index: its position in the mapping and its key node.
  struct Slot: Sendable {
    var ordinal: UInt32
    var key: UInt32
  }

  package var nodes: [Node] = []
  @usableFromInline var text: [UInt8] = []
  /// Index 0 stands for "no file" (encoded nodes).
  var sources: [SourceFile?] = [nil]
  /// Mappings with more than ``YAMLNode/Mapping/linearLimit`` entries, by their first key node.
  var indexes: [UInt32: [String: Slot]] = [:]
  package var root = 0

  package init() {}

  /// What tells this tape's buffers apart: equal for a tape and its copies (whatever their
  /// roots), and for no two tapes alive at once that do not share their buffers. Tapes are
  /// not changed once built, so the same buffers hold the same nodes.
  package struct BufferIdentity: Equatable, Sendable {
    var nodes: UInt
    var text: UInt
    var nodeCount: Int
    var textCount: Int
  }

  package var bufferIdentity: BufferIdentity {
    let nodes = self.nodes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    let text = self.text.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    return BufferIdentity(nodes: nodes, text: text, nodeCount: self.nodes.count, textCount: self.text.count)
  }

  // MARK: Reading nodes

  @inline(__always) package func kind(_ ref: Int) -> Kind { nodes[ref].kind }

  package func mark(_ ref: Int) -> Mark { nodes[ref].start }

  package func source(_ ref: Int) -> SourceFile? { sources[Int(nodes[ref].source)] }

  package func error(_ message: String, at ref: Int) -> YAMLError {
    YAMLError(message, source: source(ref), mark: nodes[ref].start)
  }

  /// The text of a scalar (empty for a collection).
  package func string(_ ref: Int) -> String {
    let node = nodes[ref]
    guard node.kind == .scalar, node.count > 0 else { return "" }
    return text.withUnsafeBufferPointer { buffer in
      String(decoding: UnsafeBufferPointer(rebasing: buffer[Int(node.first)..<Int(node.first + node.count)]), as: UTF8.self)
    }
  }

  /// Calls `body` with a scalar's UTF-8 bytes, in place (empty for a collection).
  /// Inlinable, so that a caller in another module gets it specialized for its closure.
  @inlinable
  package func withScalarBytes<R>(_ ref: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    let node = nodes[ref]
    guard node.kind == .scalar, node.count > 0 else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
    return try text.withUnsafeBufferPointer { buffer in
      try body(UnsafeBufferPointer(rebasing: buffer[Int(node.first)..<Int(node.first + node.count)]))
    }
  }

  /// Whether a scalar's text is exactly `string`, without making a `String` of it.
  package func scalar(_ ref: Int, equals string: String) -> Bool {
    let node = nodes[ref]
    guard node.kind == .scalar else { return false }
    var string = string
    return string.withUTF8 { key in
      guard key.count == Int(node.count) else { return false }
      guard key.count > 0 else { return true }
      return text.withUnsafeBufferPointer { buffer in
        let start = buffer.baseAddress! + Int(node.first)
        return start.pointee == key[0] && memcmp(start, key.baseAddress!, key.count) == 0
      }
    }
  }

  /// A scalar whose text is its only meaning: quoted, block, or tagged `!!str`.
  package func isStringOnly(_ ref: Int) -> Bool {
    let node = nodes[ref]
    return node.kind == .scalar && (node.style != .plain || node.tag == .string)
  }

  /// YAML's null: a plain `null`, `Null`, `NULL`, `~` or empty scalar, or `!!null`.
  package func isNull(_ ref: Int) -> Bool {
    let node = nodes[ref]
    guard node.kind == .scalar, node.style == .plain, node.tag != .string else { return false }
    // The bytes of `~`, `null`, `Null` and `NULL` (see `isNullScalar`), without making a `String`.
    let first = Int(node.first)
    switch node.count {
    case 0: return true
    case 1: return text[first] == UInt8(ascii: "~") || node.tag == .null
    case 4:
      return bytes(at: first, equal: "null") || bytes(at: first, equal: "Null") || bytes(at: first, equal: "NULL")
        || node.tag == .null
    default: return node.tag == .null
    }
  }

  /// Whether the text buffer holds `word` at `offset` (`word` is ASCII and fits in the buffer).
  private func bytes(at offset: Int, equal word: StaticString) -> Bool {
    let count = word.utf8CodeUnitCount
    guard offset + count <= text.count else { return false }
    return text.withUnsafeBufferPointer { buffer in
      memcmp(buffer.baseAddress! + offset, word.utf8Start, count) == 0
    }
  }

  /// A plain, untagged `true` or `false`, read without making a `String`; `nil` for anything
  /// else (other spellings go through ``ScalarResolver``).
  func plainBool(_ ref: Int) -> Bool? {
    let node = nodes[ref]
    guard node.kind == .scalar, node.style == .plain, node.tag == .none else { return nil }
    switch node.count {
    case 4 where bytes(at: Int(node.first), equal: "true"): return true
    case 5 where bytes(at: Int(node.first), equal: "false"): return false
    default: return nil
    }
  }

  /// A scalar of up to 18 decimal digits with an optional `-`, read without making a `String`;
  /// `nil` for anything else (other forms go through ``ScalarResolver``).
  func plainDecimal<T: FixedWidthInteger>(_ ref: Int, as type: T.Type) -> T? {
    let node = nodes[ref]
    let count = Int(node.count)
    guard count > 0, count <= 18 else { return nil }
    return text.withUnsafeBufferPointer { buffer -> T? in
      var index = Int(node.first)
      let end = index + count
      let negative = buffer[index] == UInt8(ascii: "-")
      if negative {
        index += 1
        guard index < end else { return nil }
      }
      var value: Int64 = 0
      while index < end {
        let digit = buffer[index] &- UInt8(ascii: "0")
        guard digit < 10 else { return nil }
        value = value &* 10 &+ Int64(digit)
        index += 1
      }
      return T(exactly: negative ? -value : value)
    }
  }

  /// `a mapping`, `a sequence`, `null`, `the string "ten"`, `the number 3.5`.
  package func foundDescription(_ ref: Int) -> String {
    switch kind(ref) {
    case .mapping: return "a mapping"
    case .sequence: return "a sequence"
    case .scalar: return describeScalar(string(ref), isNull: isNull(ref), isStringOnly: isStringOnly(ref))
    }
  }

  /// The elements of a sequence, or the keys and values of a mapping, in order.
  func children(_ ref: Int) -> [Int] {
    var result: [Int] = []
    guard nodes[ref].kind != .scalar else { return result }
    var child = nodes[ref].first
    while child != Tape.none {
      result.append(Int(child))
      child = nodes[Int(child)].next
    }
    return result
  }

  /// The key nodes of a mapping, in order.
  package func keys(_ ref: Int) -> [Int] {
    var result: [Int] = []
    guard nodes[ref].kind == .mapping else { return result }
    var key = nodes[ref].first
    while key != Tape.none {
      result.append(Int(key))
      key = nodes[Int(nodes[Int(key)].next)].next
    }
    return result
  }

  /// The entry of a mapping for a key: its position, key node and value node.
  ///
  /// - Complexity: O(1): small mappings compare their few keys, larger ones have an index.
  package func lookup(_ key: String, in mapping: Int) -> (ordinal: Int, key: Int, value: Int)? {
    lookup(key, in: mapping, after: nil)
  }

  /// The same lookup, trying first the entry after `hint` (the entry found last): types
  /// read their keys in the order they declare them, which is mostly the file's order.
  func lookup(_ key: String, in mapping: Int, after hint: (ordinal: Int, key: Int)?) -> (
    ordinal: Int, key: Int, value: Int
  )? {
    let node = nodes[mapping]
    if node.count > YAMLNode.Mapping.linearLimit, let index = indexes[node.first] {
      guard let slot = index[key] else { return nil }
      return (Int(slot.ordinal), Int(slot.key), Int(nodes[Int(slot.key)].next))
    }
    // The key's UTF-8 bytes in place (native strings have them), so that no copy is made.
    if let found = key.utf8.withContiguousStorageIfAvailable({ lookup(utf8: $0, in: node, after: hint) }) {
      return found
    }
    var string = key
    return string.withUTF8 { lookup(utf8: $0, in: node, after: hint) }
  }

  private func lookup(utf8 key: UnsafeBufferPointer<UInt8>, in node: Node, after hint: (ordinal: Int, key: Int)?)
    -> (ordinal: Int, key: Int, value: Int)?
  {
    text.withUnsafeBufferPointer { text -> (ordinal: Int, key: Int, value: Int)? in
      func matches(_ ref: UInt32) -> Bool {
        let candidate = nodes[Int(ref)]
        guard candidate.count == key.count, candidate.kind == .scalar else { return false }
        guard key.count > 0 else { return true }
        let start = text.baseAddress! + Int(candidate.first)
        return start.pointee == key[0] && memcmp(start, key.baseAddress!, key.count) == 0
      }
      var ordinal = 0
      var current = node.first
      if let hint {
        let next = nodes[Int(nodes[hint.key].next)].next
        if next != Tape.none {
          if matches(next) { return (hint.ordinal + 1, Int(next), Int(nodes[Int(next)].next)) }
        }
      }
      while current != Tape.none {
        let value = nodes[Int(current)].next
        if matches(current) { return (ordinal, Int(current), Int(value)) }
        ordinal += 1
        current = nodes[Int(value)].next
      }
      return nil
    }
  }

  // MARK: Building

  /// Appends a node and returns its reference.
  mutating func append(_ node: Node) -> Int {
    nodes.append(node)
    return nodes.count - 1
  }

  /// Appends a scalar's text and returns its offset.
  mutating func appendText(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
    let offset = UInt32(text.count)
    text.append(contentsOf: bytes)
    return offset
  }

  /// Builds the index of a large mapping from its entries.
  mutating func indexMapping(_ ref: Int) {
    let node = nodes[ref]
    guard node.count > YAMLNode.Mapping.linearLimit else { return }
    var index = [String: Slot](minimumCapacity: Int(node.count))
    var ordinal: UInt32 = 0
    var key = node.first
    while key != Tape.none {
      index[string(Int(key))] = Slot(ordinal: ordinal, key: key)
      ordinal += 1
      key = nodes[Int(nodes[Int(key)].next)].next
    }
    indexes[node.first] = index
  }

  // MARK: Trees

  /// The node tree of a node.
  package func node(at ref: Int) -> YAMLNode {
    nodes.withUnsafeBufferPointer { nodes in
      text.withUnsafeBufferPointer { text in
        Self.node(at: ref, nodes: nodes, text: text, sources: sources)
      }
    }
  }

  /// The node tree of a node, each child built in its place in its parent's array.
  private static func node(
    at ref: Int, nodes: UnsafeBufferPointer<Node>, text: UnsafeBufferPointer<UInt8>, sources: [SourceFile?]
  ) -> YAMLNode {
    let node = nodes[ref]
    let content: YAMLNode.Content
    switch node.kind {
    case .scalar:
      let value =
        node.count == 0
        ? "" : String(decoding: UnsafeBufferPointer(rebasing: text[Int(node.first)..<Int(node.first + node.count)]), as: UTF8.self)
      content = .scalar(.init(value, style: node.style))
    case .sequence:
      var count = 0
      var child = node.first
      while child != Tape.none {
        count += 1
        child = nodes[Int(child)].next
      }
      // No buffer for an empty sequence (see the mapping below).
      var elements: [YAMLNode] = []
      if count > 0 {
        elements.reserveCapacity(count)
        var child = node.first
        while child != Tape.none {
          elements.append(Self.node(at: Int(child), nodes: nodes, text: text, sources: sources))
          child = nodes[Int(child)].next
        }
      }
      content = .sequence(elements)
    case .mapping:
      var count = 0
      var key = node.first
      while key != Tape.none {
        count += 1
        key = nodes[Int(nodes[Int(key)].next)].next
      }
      // An empty mapping takes no buffer: `Array(unsafeUninitializedCapacity: 0)` stores its
      // count into the one empty-array storage that every thread shares, which
      // ThreadSanitizer saw race with another thread's read of it (the parse-ahead thread
      // of `SpecEngine.load`).
      var entries: [YAMLNode.Mapping.Entry] = []
      if count > 0 {
        entries.reserveCapacity(count)
        var key = node.first
        while key != Tape.none {
          let value = nodes[Int(key)].next
          entries.append(
            YAMLNode.Mapping.Entry(
              key: Self.node(at: Int(key), nodes: nodes, text: text, sources: sources),
              value: Self.node(at: Int(value), nodes: nodes, text: text, sources: sources)))
          key = nodes[Int(value)].next
        }
      }
      content = .mapping(YAMLNode.Mapping(uniqueEntries: entries))
    }
    return YAMLNode(content, start: node.start, end: node.end, source: sources[Int(node.source)], tag: node.tag)
  }

  /// The flat form of a node tree.
  package init(flattening root: YAMLNode) {
    // Sized first, so that the arrays are allocated once rather than grown node by node.
    var size = (nodes: 0, text: 0)
    Self.measure(root, into: &size)
    nodes.reserveCapacity(size.nodes)
    text.reserveCapacity(size.text)
    var sourceIndex = SourceIndex()
    self.root = flatten(root, sourceIndex: &sourceIndex)
  }

  /// Counts the nodes of a tree and the bytes of its scalars.
  private static func measure(_ tree: YAMLNode, into size: inout (nodes: Int, text: Int)) {
    size.nodes += 1
    switch tree.content {
    case .scalar(let scalar):
      size.text += scalar.value.utf8.count
    case .sequence(let elements):
      for element in elements { measure(element, into: &size) }
    case .mapping(let mapping):
      for entry in mapping.entries {
        measure(entry.key, into: &size)
        measure(entry.value, into: &size)
      }
    }
  }

  /// The index in ``Tape/sources`` of each file met while flattening. Most trees have nodes of
  /// one file (and encoded nodes of none): a file that follows itself is found without hashing,
  /// and a dictionary is made only once there is a second file.
  private struct SourceIndex {
    var lastID: ObjectIdentifier?
    var lastIndex: UInt32 = 0
    var all: [ObjectIdentifier: UInt32] = [:]

    mutating func index(of file: SourceFile, in sources: inout [SourceFile?]) -> UInt32 {
      let id = ObjectIdentifier(file)
      if id == lastID { return lastIndex }
      let index: UInt32
      if let lastID {
        if all.isEmpty { all[lastID] = lastIndex }
        if let known = all[id] {
          index = known
        } else {
          index = UInt32(sources.count)
          sources.append(file)
          all[id] = index
        }
      } else {
        index = UInt32(sources.count)
        sources.append(file)
      }
      lastID = id
      lastIndex = index
      return index
    }
  }

  private mutating func flatten(_ tree: YAMLNode, sourceIndex: inout SourceIndex) -> Int {
    var source: UInt32 = 0
    if let file = tree.source {
      source = sourceIndex.index(of: file, in: &sources)
    }
    var node = Node(
      start: tree.start, end: tree.end, first: Tape.none, count: 0, source: source, kind: .scalar, style: .plain,
      tag: tree.tag)
    switch tree.content {
    case .scalar(let scalar):
      node.style = scalar.style
      var value = scalar.value
      node.count = UInt32(value.utf8.count)
      node.first = value.withUTF8 { appendText($0) }
      return append(node)
    case .sequence(let elements):
      node.kind = .sequence
      node.count = UInt32(elements.count)
      let ref = append(node)
      var last = -1
      for element in elements {
        let child = flatten(element, sourceIndex: &sourceIndex)
        link(child, after: last, in: ref)
        last = child
      }
      return ref
    case .mapping(let mapping):
      node.kind = .mapping
      node.count = UInt32(mapping.count)
      let ref = append(node)
      var last = -1
      for entry in mapping.entries {
        let key = flatten(entry.key, sourceIndex: &sourceIndex)
        link(key, after: last, in: ref)
        let value = flatten(entry.value, sourceIndex: &sourceIndex)
        link(value, after: key, in: ref)
        last = value
      }
      indexMapping(ref)
      return ref
    }
  }

  /// Links `child` into `parent`'s chain after `last` (-1 for the first child).
  @inline(__always)
  mutating func link(_ child: Int, after last: Int, in parent: Int) {
    if last < 0 {
      nodes[parent].first = UInt32(child)
    } else {
      nodes[last].next = UInt32(child)
    }
  }
}
