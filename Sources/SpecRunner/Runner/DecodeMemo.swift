import SpecYAML

/// The values decoded from spec files so far, by the node they came from: specs repeat the
/// same actions (`send: increment`) many times, in a file and across the files of a
/// feature, and decoding one from its node builds a document of the node first. An engine
/// keeps one for all the files it binds.
///
/// Only what decoded is kept; a node that fails is decoded again where it stands, so that
/// each error names its own line. Two nodes are the same when they hold the same text
/// written alike (``YAMLNode/shapeKey``), wherever they are: decoding does not depend on
/// where a node is.
@MainActor
final class DecodeMemo {
  private struct Key: Hashable {
    var type: ObjectIdentifier
    var shape: Shape
  }

  /// What decoding a node depends on. The usual action nodes, a scalar (`increment`) and a
  /// mapping of one scalar to a scalar (`{ setCount: "12" }`), get a key without building a
  /// text; anything else is keyed by its ``YAMLNode/shapeKey``.
  private enum Shape: Hashable {
    /// Tag and style, then the text.
    case scalar(UInt16, String)
    /// The mapping's tag, the key's tag and style, the value's tag and style; the key's text
    /// and the value's text.
    case pair(UInt64, String, String)
    case other(String)

    init(_ node: YAMLNode) {
      switch node.content {
      case .scalar(let scalar):
        self = .scalar(Self.bits(node.tag, scalar.style), scalar.value)
      case .mapping(let mapping) where mapping.count == 1:
        let entry = mapping.entries[0]
        if case .scalar(let key) = entry.key.content, case .scalar(let value) = entry.value.content {
          let bits = UInt64(node.tag.rawValue) << 32 | UInt64(Self.bits(entry.key.tag, key.style)) << 16
            | UInt64(Self.bits(entry.value.tag, value.style))
          self = .pair(bits, key.value, value.value)
        } else {
          self = .other(node.shapeKey)
        }
      default:
        self = .other(node.shapeKey)
      }
    }

    /// The shape of a document's root, the same as that of its node tree.
    init(_ tape: Tape) {
      let ref = tape.root
      let node = tape.nodes[ref]
      switch node.kind {
      case .scalar:
        self = .scalar(Self.bits(node.tag, node.style), tape.string(ref))
      case .mapping where node.count == 1:
        let key = Int(node.first)
        let value = Int(tape.nodes[key].next)
        let keyNode = tape.nodes[key]
        let valueNode = tape.nodes[value]
        if keyNode.kind == .scalar, valueNode.kind == .scalar {
          let bits = UInt64(node.tag.rawValue) << 32 | UInt64(Self.bits(keyNode.tag, keyNode.style)) << 16
            | UInt64(Self.bits(valueNode.tag, valueNode.style))
          self = .pair(bits, tape.string(key), tape.string(value))
        } else {
          self = .other(tape.node(at: ref).shapeKey)
        }
      default:
        self = .other(tape.node(at: ref).shapeKey)
      }
    }

    private static func bits(_ tag: YAMLNode.Tag, _ style: YAMLNode.ScalarStyle) -> UInt16 {
      UInt16(tag.rawValue) << 8 | UInt16(style.rawValue)
    }
  }

  /// A type and a ``PackedValueKey``: the key of the usual actions, looked up without a
  /// `String` and with a hash of a few multiplications.
  private struct PackedKey: Equatable {
    /// The type's `ObjectIdentifier`; 0 marks an empty slot.
    var type: UInt
    var value: PackedValueKey

    static let empty = PackedKey(type: 0, value: .zero)

    /// A multiply-and-fold mix of the words (values come from spec files, not from an
    /// adversary; a bad spread only lengthens the probes of a table that starts over at
    /// ``DecodeMemo/limit`` values).
    var hash: Int {
      func mix(_ h: UInt64, _ word: UInt64) -> UInt64 {
        let product = (h ^ word) &* 0xFF51_AFD7_ED55_8CCD
        return product ^ product >> 32
      }
      let start = UInt64(type) &* 0x9E37_79B9_7F4A_7C15 ^ value.bits
      return Int(truncatingIfNeeded: mix(mix(mix(mix(start, value.a), value.b), value.c), value.d))
    }
  }

  /// Open addressing with linear probing over `PackedKey`s, twice as many slots as the
  /// memo keeps values, each slot with its value's index in `packedValues`.
  private static let packedSlotCount = 2 * limit
  @exclusivity(unchecked) private var packedKeys = [PackedKey](repeating: .empty, count: packedSlotCount)
  @exclusivity(unchecked) private var packedIndexes = [Int32](repeating: 0, count: packedSlotCount)
  @exclusivity(unchecked) private var packedValues: [Any] = []

  // `@exclusivity(unchecked)`: every access to a class's `var` pays for a dynamic exclusivity
  // check, and a memo is asked at every step it binds. Its accesses never overlap: they are
  // made on the main actor, and none lasts across a call out (a decode runs between two).
  @exclusivity(unchecked) private var values: [Key: Any] = [:]
  /// The state paths parsed so far, by their text.
  @exclusivity(unchecked) private var paths: [String: StatePath] = [:]
  /// Past this many values (or paths), the memo starts over, so that memory stays flat
  /// however many files an engine binds.
  static let limit = 4096
  /// The decoder's buffers, reused from one decode to the next.
  private let scratch = DecodingScratch()

  func decode<T: Decodable>(_ type: T.Type, from node: YAMLNode, with decoder: YAMLDecoder) throws -> T {
    try decode(T.self, key: Key(type: ObjectIdentifier(T.self), shape: Shape(node)), document: YAMLDocument(node), with: decoder)
  }

  /// The value kept for `key`, or the value decoded from `document`, kept.
  private func decode<T: Decodable>(
    _ type: T.Type, key: Key, document: @autoclosure () -> YAMLDocument, with decoder: YAMLDecoder
  ) throws -> T {
    // The key names the type, so a value found is a `T`: a forced cast, which, unlike `as?`,
    // asks for no `T?` metadata.
    if let value = values[key] { return value as! T }
    let value = try decoder.decode(T.self, from: document(), reusing: scratch)
    if values.count + packedValues.count >= Self.limit { startOver() }
    values[key] = value
    return value
  }

  /// Forgets every value, so that memory stays flat.
  private func startOver() {
    values.removeAll(keepingCapacity: true)
    packedValues.removeAll(keepingCapacity: true)
    packedKeys.withUnsafeMutableBufferPointer { $0.update(repeating: .empty) }
  }

  /// The same for a value of a spec file, read from the file's tape.
  func decode<T: Decodable>(_ type: T.Type, from value: SpecValue, with decoder: YAMLDecoder) throws -> T {
    try decode(T.self, key: PackedValueKey(value.tape, root: value.root), document: { value.document }, with: decoder)
  }

  /// The same for the root of a document.
  func decode<T: Decodable>(_ type: T.Type, from document: YAMLDocument, with decoder: YAMLDecoder) throws -> T {
    try decode(T.self, key: PackedValueKey(document), document: { document }, with: decoder)
  }

  private func decode<T: Decodable>(
    _ type: T.Type, key: PackedValueKey?, document: () -> YAMLDocument, with decoder: YAMLDecoder
  ) throws -> T {
    if let value = key {
      let packed = PackedKey(type: UInt(bitPattern: ObjectIdentifier(T.self)), value: value)
      let mask = Self.packedSlotCount - 1
      var slot = packed.hash & mask
      while packedKeys[slot].type != 0 {
        if packedKeys[slot] == packed { return packedValues[Int(packedIndexes[slot])] as! T }
        slot = (slot + 1) & mask
      }
      let value = try decoder.decode(T.self, from: document(), reusing: scratch)
      if values.count + packedValues.count >= Self.limit {
        startOver()
        slot = packed.hash & mask
      }
      packedKeys[slot] = packed
      packedIndexes[slot] = Int32(packedValues.count)
      packedValues.append(value)
      return value
    }
    let document = document()
    return try decode(T.self, key: Key(type: ObjectIdentifier(T.self), shape: Shape(document.tape)), document: document, with: decoder)
  }

  /// The paths of a `state:` mapping on its file's tape, in order, each key's text parsed
  /// once; a key that does not parse is reported at its place by the general parse.
  func paths(of value: borrowing SpecValue) throws -> [StatePath] {
    // A spec asserts the same few fields step after step: the paths of the last few lists of
    // keys are kept whole, so that such a step makes no string and no array.
    let keys = value.keyList
    // A plain loop: a closure here (`first(where:)`) would check at every call that it runs
    // on the main actor.
    if let keys {
      for index in recentPaths.indices where recentPaths[index].keys == keys { return recentPaths[index].paths }
    }
    let paths = try parsePaths(of: value)
    if let keys {
      if recentPaths.count >= Self.recentLimit { recentPaths.removeFirst() }
      recentPaths.append((keys, paths))
    }
    return paths
  }

  /// The lists of keys whose paths ``paths(of:)`` returned last, and their paths.
  @exclusivity(unchecked) private var recentPaths: [(keys: PackedValueKey, paths: [StatePath])] = []
  private static let recentLimit = 8

  private func parsePaths(of value: borrowing SpecValue) throws -> [StatePath] {
    // Read in place: a copy of the tape would retain its four buffers.
    let root = value.root
    var result: [StatePath] = []
    result.reserveCapacity(Int(value.tape.nodes[root].count))
    var key = value.tape.nodes[root].first
    while key != Tape.none {
      let text = value.tape.string(Int(key))
      if let path = paths[text] {
        result.append(path)
      } else if let path = try? StatePath(parsing: text) {
        if paths.count >= Self.limit { paths.removeAll(keepingCapacity: true) }
        paths[text] = path
        result.append(path)
      } else {
        return try StateAssignment.parse(value.node).map(\.path)
      }
      key = value.tape.nodes[Int(value.tape.nodes[Int(key)].next)].next
    }
    return result
  }

  /// A scenario's initial state: `state` with the assignments of `value` (an `initialState:`
  /// mapping on its file's tape, its paths parsed once by ``paths(of:)``) applied, as
  /// ``StateAssignment/apply(_:to:decoder:)`` does, decoded in the memo's buffers. The
  /// encoding of the state assignments start from is kept, with that state: scenarios start
  /// from their feature's default state, and a default state made again is, nearly always,
  /// the same bytes (a state of numbers, flags, empty collections), so it is not encoded
  /// again. A state with other bytes (a new array's storage, a new object) is encoded anew.
  /// Keeping the state keeps its storage, so that no other value can take its place at the
  /// same address; as elsewhere in the runner, a state is taken to be a value.
  func initialState<State: Codable & Equatable>(
    _ value: SpecValue, to state: State, decoder: YAMLDecoder
  ) throws -> State {
    let paths = try paths(of: value)
    guard !paths.isEmpty else { return state }
    let encoded: YAMLNode
    if let kept = keptEncoding, let keptState = kept.state as? State,
      StateCheck<State>.isSameValue(keptState, state)
    {
      encoded = kept.node
    } else {
      encoded = try YAMLEncoder().encode(state)
      keptEncoding = (state, encoded)
    }
    // Assignments that replace every field of the encoding, and only those, leave nothing
    // of it: the state is the mapping as written, decoded from the file's tape. (Decoding
    // does not depend on the order of a mapping's keys.) Should it fail, the plain way
    // below says why, at the assignment that caused it.
    if Self.replacesEveryField(paths, of: encoded),
      let whole = try? decoder.decode(State.self, from: value.document, reusing: scratch)
    {
      return whole
    }
    let assigned = try StateAssignment.apply(StateAssignment.onTape(value, paths: paths), to: encoded)
    return try decoder.decode(State.self, from: YAMLDocument(assigned), reusing: scratch)
  }

  /// Whether `paths` are each a field of the mapping `encoded` (not an enum case's), one
  /// path for each of its fields.
  private static func replacesEveryField(_ paths: [StatePath], of encoded: YAMLNode) -> Bool {
    guard !encoded.isEnumCase, case .mapping(let mapping) = encoded.content, mapping.count == paths.count else {
      return false
    }
    var seen = [Bool](repeating: false, count: mapping.count)
    for path in paths {
      guard path.components.count == 1, case .field(let name) = path.components[0],
        let position = mapping.position(of: name), !seen[position]
      else { return false }
      seen[position] = true
    }
    return true
  }

  /// The state whose encoding ``initialState(_:to:decoder:)`` keeps, and that encoding.
  @exclusivity(unchecked) private var keptEncoding: (state: Any, node: YAMLNode)?

  /// ``StateAssignment/parse(_:)``, with each path's text parsed once.
  func assignments(_ node: YAMLNode) throws -> [StateAssignment] {
    guard let mapping = node.mapping else { return try StateAssignment.parse(node) }
    var result: [StateAssignment] = []
    result.reserveCapacity(mapping.count)
    for entry in mapping.entries {
      let text = entry.name
      if let path = paths[text] {
        result.append(StateAssignment(path: path, key: entry.key, value: entry.value))
        continue
      }
      // A path that does not parse: the general parse reports it, at its place.
      guard let path = try? StatePath(parsing: text) else { return try StateAssignment.parse(node) }
      if paths.count >= Self.limit { paths.removeAll(keepingCapacity: true) }
      paths[text] = path
      result.append(StateAssignment(path: path, key: entry.key, value: entry.value))
    }
    return result
  }
}

extension YAMLNode {
  /// A text that two nodes share exactly when they have the same content, tags and
  /// scalar styles, wherever they are.
  var shapeKey: String {
    var out = ""
    appendShape(to: &out)
    return out
  }

  // Every part is tagged and every text length-prefixed, so no two shapes write alike.
  private func appendShape(to out: inout String) {
    switch content {
    case .scalar(let scalar):
      out += "s\(tag.rawValue).\(scalar.style.rawValue).\(scalar.value.utf8.count):"
      out += scalar.value
    case .sequence(let elements):
      out += "q\(tag.rawValue).\(elements.count)["
      for element in elements { element.appendShape(to: &out) }
      out += "]"
    case .mapping(let mapping):
      out += "m\(tag.rawValue).\(mapping.count){"
      for entry in mapping.entries {
        entry.key.appendShape(to: &out)
        entry.value.appendShape(to: &out)
      }
      out += "}"
    }
  }
}
