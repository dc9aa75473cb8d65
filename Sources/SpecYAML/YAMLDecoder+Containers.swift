import Foundation

// MARK: - Keyed

/// Where a keyed container's values come from.
enum KeyedSource {
  /// A mapping; in a payload (an enum case's value), a missing `_0` is the whole mapping.
  case mapping(isPayload: Bool)
  /// A scalar read as an enum case without a value: `increment` for `{ increment: {} }`.
  case caseName
  /// A payload that is not a mapping: `"42"` in `{ setCount: "42" }` is the value of `_0`.
  case payload
  /// The value of a case written without one, as `increment` (the container's node): it has no keys.
  case unitPayload
}

/// Holds one reference (the decoder) and plain numbers, so that the copies that
/// `KeyedDecodingContainer` makes for every key cost one retain.
///
/// Its methods read a key's name once and pass it on: this type is generic over `Key`, so
/// the compiler does not specialize its own generic helpers, while the decoder's methods
/// (a non-generic class) are specialized for each scalar type.
struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let decoder: DecoderImpl
  let node: Int
  let source: KeyedSource
  let depth: Int
  /// The path from the frame to the mapping, kept by the decoder (0 is the empty path).
  private let nestedID: UInt16
  let tracker: Int?

  init(decoder: DecoderImpl, node: Int, source: KeyedSource, depth: Int, nested: Int, tracker: Int?) {
    self.decoder = decoder
    self.node = node
    self.source = source
    self.depth = depth
    self.nestedID = UInt16(nested)
    self.tracker = tracker
  }

  var nested: Int { Int(nestedID) }

  var codingPath: [any CodingKey] { decoder.codingPath(depth: depth, nested: nested) }

  var allKeys: [Key] {
    switch source {
    case .mapping:
      // Walked by hand: `compactMap` here is unspecialised generic code, which asks the
      // runtime for the metadata of `Key?` and of its closure for every key. A mapping of one
      // entry (an enum case and its value) gets an array literal: `append` is unspecialised
      // too, and costs more than the key itself.
      let tape = decoder.tape
      guard tape.nodes[node].kind == .mapping else { return [] }
      var key = tape.nodes[node].first
      if tape.nodes[node].count == 1 {
        guard let codingKey = Key(stringValue: tape.string(Int(key))) else { return [] }
        return [codingKey]
      }
      var keys: [Key] = []
      while key != Tape.none {
        if let codingKey = Key(stringValue: tape.string(Int(key))) { keys.append(codingKey) }
        key = tape.nodes[Int(tape.nodes[Int(key)].next)].next
      }
      return keys
    case .caseName:
      return Key(stringValue: decoder.tape.string(node)).map { [$0] } ?? []
    case .payload:
      return Key(stringValue: "_0").map { [$0] } ?? []
    case .unitPayload:
      return []
    }
  }

  func contains(_ key: Key) -> Bool {
    switch source {
    case .mapping(let isPayload):
      return decoder.tape.lookup(key.stringValue, in: node) != nil || (isPayload && key.stringValue == "_0")
    case .caseName:
      return decoder.tape.scalar(node, equals: key.stringValue)
    case .payload:
      return key.stringValue == "_0"
    case .unitPayload:
      return false
    }
  }

  private var path: String { decoder.pathDescription(depth: depth, nested: nested) }

  /// The value for a key (by its `stringValue`), marking it read; `nil` when absent.
  func lookup(_ name: String) throws -> Int? {
    switch source {
    case .mapping(let isPayload):
      if let tracker {
        if let value = decoder.lookup(name, in: node, tracker: tracker) { return value }
      } else if let entry = decoder.tape.lookup(name, in: node) {
        return entry.value
      }
      if isPayload, name == "_0" {
        if let tracker { decoder.consumeAll(in: tracker) }
        return node
      }
      if let tracker { decoder.missingKeys.push((tracker, name)) }
      return nil
    case .caseName:
      let text = decoder.tape.string(node)
      if text == name {
        throw decoder.tape.error("`\(text)` needs a value here: write `{ \(text): … }`", at: node)
      }
      throw decoder.mismatch(expected: "a mapping", node: node, depth: depth, nested: nested, last: nil)
    case .payload:
      if name == "_0" { return node }
      throw decoder.mismatch(expected: "a mapping", node: node, depth: depth, nested: nested, last: nil)
    case .unitPayload:
      // Absent: an optional payload (`decodeIfPresent`) is nil; a required one fails in `require`.
      return nil
    }
  }

  func require(_ name: String) throws -> Int {
    guard let value = try lookup(name) else {
      if case .unitPayload = source {
        let caseName = decoder.tape.string(node)
        throw decoder.tape.error("`\(caseName)` needs a value here: write `{ \(caseName): … }`", at: node)
      }
      throw decoder.tape.error("missing key `\(name)` in \(path)", at: node)
    }
    return value
  }

  func decodeNil(forKey key: Key) throws -> Bool {
    decoder.tape.isNull(try require(key.stringValue))
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    let name = key.stringValue
    return try decoder.unboxBool(require(name), depth: depth, nested: nested, last: .key(name))
  }

  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    let name = key.stringValue
    return try decoder.unboxString(require(name), depth: depth, nested: nested, last: .key(name))
  }

  func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try float(key, as: Double.self) }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try float(key, as: Float.self) }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key, as: Int.self) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key, as: Int8.self) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key, as: Int16.self) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key, as: Int32.self) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key, as: Int64.self) }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key, as: UInt.self) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key, as: UInt8.self) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key, as: UInt16.self) }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key, as: UInt32.self) }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key, as: UInt64.self) }

  // Inlined into each `decode` above, so that the decoder's method is called for a concrete
  // type (and specialized); a generic method of this generic type would run unspecialized.
  @inline(__always)
  private func integer<T: FixedWidthInteger>(_ key: Key, as type: T.Type) throws -> T {
    let name = key.stringValue
    return try decoder.unboxInteger(require(name), as: T.self, depth: depth, nested: nested, last: .key(name))
  }

  @inline(__always)
  private func float<T: BinaryFloatingPoint & LosslessStringConvertible>(_ key: Key, as type: T.Type) throws -> T {
    let name = key.stringValue
    return try decoder.unboxFloat(require(name), as: T.self, depth: depth, nested: nested, last: .key(name))
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    let name = key.stringValue
    return try decoder.unbox(require(name), as: T.self, step: .key(name), nested: nested)
  }

  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    let name = key.stringValue
    guard let value = try lookup(name), !decoder.tape.isNull(value) else { return nil }
    return try decoder.unbox(value, as: T.self, step: .key(name), nested: nested)
  }

  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    let name = key.stringValue
    guard let value = try lookup(name), !decoder.tape.isNull(value) else { return nil }
    return try decoder.unboxString(value, depth: depth, nested: nested, last: .key(name))
  }

  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    let name = key.stringValue
    guard let value = try lookup(name), !decoder.tape.isNull(value) else { return nil }
    return try decoder.unboxBool(value, depth: depth, nested: nested, last: .key(name))
  }

  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
    let name = key.stringValue
    guard let value = try lookup(name), !decoder.tape.isNull(value) else { return nil }
    return try decoder.unboxInteger(value, as: Int.self, depth: depth, nested: nested, last: .key(name))
  }

  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
    let name = key.stringValue
    guard let value = try lookup(name), !decoder.tape.isNull(value) else { return nil }
    return try decoder.unboxFloat(value, as: Double.self, depth: depth, nested: nested, last: .key(name))
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let name = key.stringValue
    if case .caseName = source, decoder.tape.scalar(node, equals: name) {
      return KeyedDecodingContainer(
        KeyedContainer<NestedKey>(
          decoder: decoder, node: node, source: .unitPayload, depth: depth,
          nested: decoder.nestedPath(nested, appending: .key(name)), tracker: nil))
    }
    let value = try require(name)
    let path = decoder.nestedPath(nested, appending: .key(name))
    if decoder.tape.kind(value) == .mapping {
      let tracker = decoder.addTracker(mapping: value, depth: depth, nested: path)
      return KeyedDecodingContainer(
        KeyedContainer<NestedKey>(
          decoder: decoder, node: value, source: .mapping(isPayload: true), depth: depth, nested: path,
          tracker: tracker))
    }
    return KeyedDecodingContainer(
      KeyedContainer<NestedKey>(
        decoder: decoder, node: value, source: .payload, depth: depth, nested: path, tracker: nil))
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    let name = key.stringValue
    let value = try require(name)
    guard decoder.tape.kind(value) == .sequence else {
      throw decoder.mismatch(expected: "a sequence", node: value, depth: depth, nested: nested, last: .key(name))
    }
    return UnkeyedContainer(
      decoder: decoder, node: value, depth: depth, nested: decoder.nestedPath(nested, appending: .key(name)))
  }

  func superDecoder() throws -> any Decoder {
    try superDecoder(named: "super")
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    try superDecoder(named: key.stringValue)
  }

  private func superDecoder(named name: String) throws -> any Decoder {
    if let value = try lookup(AnyKey(name)) {
      return decoder.detached(value, step: .key(name), nested: nested, depth: depth)
    }
    // An absent key: a decoder of `null` at the container's place.
    let tape = decoder.tape
    let null = YAMLNode.null.located(start: tape.nodes[node].start, end: tape.nodes[node].end, source: tape.source(node))
    return decoder.detached(YAMLDocument(null).tape, step: .key(name), nested: nested, depth: depth)
  }

  /// A key of any name, to look up `super` in any container.
  private func lookup(_ key: AnyKey) throws -> Int? {
    guard let typed = Key(stringValue: key.name) else {
      if case .mapping = source { return decoder.tape.lookup(key.name, in: node)?.value }
      return nil
    }
    return try lookup(typed.stringValue)
  }

  private struct AnyKey {
    let name: String
    init(_ name: String) { self.name = name }
  }
}

extension DecoderImpl {
  /// A decoder for `superDecoder()`: a fresh decoder that reports paths through this one.
  func detached(_ node: Int, step: PathStep, nested: Int, depth: Int) -> any Decoder {
    detached(tape, node: node, step: step, nested: nested, depth: depth)
  }

  /// A decoder of the root of another tape (a `null` made up for an absent key).
  func detached(_ other: Tape, step: PathStep, nested: Int, depth: Int) -> any Decoder {
    detached(other, node: other.root, step: step, nested: nested, depth: depth)
  }

  private func detached(_ tape: Tape, node: Int, step: PathStep, nested: Int, depth: Int) -> any Decoder {
    let child = DecoderImpl(options: options, rootType: rootType, tape: tape)
    // The frames below only name the path; their nodes are not read. Their paths are numbers
    // into `nestedPaths`, which the child gets a copy of.
    child.nestedPaths = nestedPaths
    child.frames = Array(frames[...depth])
    child.frames.append(
      Frame(node: node, nested: nested, step: step, firstTracker: 0, ownTracker: -1, firstMissing: 0))
    return child
  }
}

// MARK: - Unkeyed

/// Three words, so that `any UnkeyedDecodingContainer` holds it inline instead of
/// allocating a box for every sequence.
struct UnkeyedContainer: UnkeyedDecodingContainer {
  let decoder: DecoderImpl
  private let sequence: UInt32
  /// The node of the current element.
  private var cursor: UInt32
  private var index: UInt32 = 0
  private let frameDepth: UInt16
  /// The path from the frame to the sequence, kept by the decoder (0 is the empty path).
  private let nestedID: UInt16

  init(decoder: DecoderImpl, node: Int, depth: Int, nested: Int) {
    self.decoder = decoder
    self.sequence = UInt32(node)
    self.frameDepth = UInt16(clamping: depth)
    self.nestedID = UInt16(nested)
    self.cursor = decoder.tape.nodes[node].first
  }

  var node: Int { Int(sequence) }
  var depth: Int { Int(frameDepth) }
  var nested: Int { Int(nestedID) }
  var elementCount: Int { Int(decoder.tape.nodes[Int(sequence)].count) }
  var currentIndex: Int { Int(index) }

  var codingPath: [any CodingKey] { decoder.codingPath(depth: depth, nested: nested) }
  var count: Int? { elementCount }
  var isAtEnd: Bool { Int(index) >= elementCount }

  private mutating func next(_ expected: @autoclosure () -> String) throws -> (Int, PathStep) {
    guard !isAtEnd else {
      throw decoder.tape.error(
        "expected \(expected()) at \(decoder.pathDescription(depth: depth, nested: nested, last: .index(currentIndex))), "
          + "but the sequence has only \(elementCount) element\(elementCount == 1 ? "" : "s")",
        at: node)
    }
    let element = Int(cursor)
    let current = Int(index)
    cursor = decoder.tape.nodes[element].next
    index += 1
    return (element, .index(current))
  }

  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd else { _ = try next("a value"); return false }
    if decoder.tape.isNull(Int(cursor)) {
      _ = try next("a value")
      return true
    }
    return false
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool {
    let (value, step) = try next("Bool")
    return try decoder.unboxBool(value, depth: depth, nested: nested, last: step)
  }

  mutating func decode(_ type: String.Type) throws -> String {
    let (value, step) = try next("String")
    return try decoder.unboxString(value, depth: depth, nested: nested, last: step)
  }

  mutating func decode(_ type: Double.Type) throws -> Double { try float() }
  mutating func decode(_ type: Float.Type) throws -> Float { try float() }
  mutating func decode(_ type: Int.Type) throws -> Int { try integer() }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
  mutating func decode(_ type: UInt.Type) throws -> UInt { try integer() }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }

  private mutating func integer<T: FixedWidthInteger>() throws -> T {
    let (value, step) = try next(typeName(T.self))
    return try decoder.unboxInteger(value, as: T.self, depth: depth, nested: nested, last: step)
  }

  private mutating func float<T: BinaryFloatingPoint & LosslessStringConvertible>() throws -> T {
    let (value, step) = try next(typeName(T.self))
    return try decoder.unboxFloat(value, as: T.self, depth: depth, nested: nested, last: step)
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let (value, step) = try next(typeName(T.self))
    return try decoder.unbox(value, as: T.self, step: step, nested: nested)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let (value, step) = try next("a mapping")
    guard decoder.tape.kind(value) == .mapping else {
      throw decoder.mismatch(expected: "a mapping", node: value, depth: depth, nested: nested, last: step)
    }
    let path = decoder.nestedPath(nested, appending: step)
    let tracker = decoder.addTracker(mapping: value, depth: depth, nested: path)
    return KeyedDecodingContainer(
      KeyedContainer<NestedKey>(
        decoder: decoder, node: value, source: .mapping(isPayload: false), depth: depth, nested: path,
        tracker: tracker))
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let (value, step) = try next("a sequence")
    guard decoder.tape.kind(value) == .sequence else {
      throw decoder.mismatch(expected: "a sequence", node: value, depth: depth, nested: nested, last: step)
    }
    return UnkeyedContainer(decoder: decoder, node: value, depth: depth, nested: decoder.nestedPath(nested, appending: step))
  }

  mutating func superDecoder() throws -> any Decoder {
    let (value, step) = try next("a value")
    return decoder.detached(value, step: step, nested: nested, depth: depth)
  }
}

// MARK: - Single value

struct SingleValueContainer: SingleValueDecodingContainer {
  let decoder: DecoderImpl
  let node: Int
  let depth: Int

  var codingPath: [any CodingKey] { decoder.codingPath(depth: depth, nested: 0) }

  func decodeNil() -> Bool { decoder.tape.isNull(node) }
  func decode(_ type: Bool.Type) throws -> Bool { try decoder.unboxBool(node, depth: depth) }
  func decode(_ type: String.Type) throws -> String { try decoder.unboxString(node, depth: depth) }
  func decode(_ type: Double.Type) throws -> Double { try decoder.unboxFloat(node, as: Double.self, depth: depth) }
  func decode(_ type: Float.Type) throws -> Float { try decoder.unboxFloat(node, as: Float.self, depth: depth) }
  func decode(_ type: Int.Type) throws -> Int { try decoder.unboxInteger(node, as: Int.self, depth: depth) }
  func decode(_ type: Int8.Type) throws -> Int8 { try decoder.unboxInteger(node, as: Int8.self, depth: depth) }
  func decode(_ type: Int16.Type) throws -> Int16 { try decoder.unboxInteger(node, as: Int16.self, depth: depth) }
  func decode(_ type: Int32.Type) throws -> Int32 { try decoder.unboxInteger(node, as: Int32.self, depth: depth) }
  func decode(_ type: Int64.Type) throws -> Int64 { try decoder.unboxInteger(node, as: Int64.self, depth: depth) }
  func decode(_ type: UInt.Type) throws -> UInt { try decoder.unboxInteger(node, as: UInt.self, depth: depth) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.unboxInteger(node, as: UInt8.self, depth: depth) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.unboxInteger(node, as: UInt16.self, depth: depth) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.unboxInteger(node, as: UInt32.self, depth: depth) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.unboxInteger(node, as: UInt64.self, depth: depth) }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try decoder.unbox(node, as: T.self, step: nil)
  }
}
