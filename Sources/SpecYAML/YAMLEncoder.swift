import Foundation

/// Encodes `Encodable` values into ``YAMLNode`` trees, in the forms a spec writes.
///
/// Enum cases come out in their short forms: `increment`, `{ setCount: "42" }`,
/// `{ move: { row: 1, column: 2 } }`. Strings that YAML would read as something
/// else (`"null"`, `"true"`, `"42"`, `"a: b"`) are marked double-quoted, so the
/// node decodes back to the same value and ``YAMLEmitter`` writes them safely.
///
/// ```swift
/// let node = try YAMLEncoder().encode(Counter.Action.setCount("42"))
/// YAMLEmitter.flow(node)  // { setCount: "42" }
/// ```
public struct YAMLEncoder: Sendable {
  public init() {}

  /// Encodes a value as a node tree.
  ///
  /// - Complexity: O(*n*) in the size of the value.
  public func encode<T: Encodable>(_ value: T) throws -> YAMLNode {
    try encodedNode(value, path: [])
  }

  /// Encodes a value as YAML text in block style.
  public func encodeToString<T: Encodable>(_ value: T) throws -> String {
    YAMLEmitter.block(try encode(value))
  }
}

// MARK: - Values

/// The node of a value: the standard library's scalars and Foundation's types (in spec form)
/// directly, anything else through its `encode(to:)`.
///
/// The value's containers can no longer be written once its `encode(to:)` has returned (as
/// with `JSONEncoder`), so its node is made then; only containers handed out by
/// `nestedContainer`, `nestedUnkeyedContainer` and `superEncoder` stay open until their
/// parent's node is made.
@inline(__always)
func encodedNode<T: Encodable>(_ value: T, path: @autoclosure () -> [any CodingKey]) throws -> YAMLNode {
  if let scalar = directScalar(value) { return YAMLNode(.scalar(scalar)) }
  let box = EncodedBox()
  try value.encode(to: EncoderImpl(box: box, path: path()))
  return box.node()
}

/// The scalar of a value that is one: a standard library scalar, or a date, UUID, URL, data
/// or decimal; `nil` for a value to encode through its `encode(to:)`.
func directScalar<T: Encodable>(_ value: T) -> YAMLNode.Scalar? {
  standardScalar(value) ?? specialScalar(value)
}

/// The scalar of a `String`, `Bool`, integer or floating-point value, as its `encode(to:)`
/// writes it through a single value container; `nil` for any other type.
@inline(__always)
func standardScalar<T>(_ value: T) -> YAMLNode.Scalar? {
  let type = T.self
  if type == Int.self { return .init(String(unsafeBitCast(value, to: Int.self))) }
  if type == String.self { return stringScalar(unsafeBitCast(value, to: String.self)) }
  if type == Bool.self { return .init(unsafeBitCast(value, to: Bool.self) ? "true" : "false") }
  if type == Double.self { return numberScalar(unsafeBitCast(value, to: Double.self)) }
  if type == Float.self { return numberScalar(unsafeBitCast(value, to: Float.self)) }
  if type == Int64.self { return .init(String(unsafeBitCast(value, to: Int64.self))) }
  if type == Int32.self { return .init(String(unsafeBitCast(value, to: Int32.self))) }
  if type == Int16.self { return .init(String(unsafeBitCast(value, to: Int16.self))) }
  if type == Int8.self { return .init(String(unsafeBitCast(value, to: Int8.self))) }
  if type == UInt.self { return .init(String(unsafeBitCast(value, to: UInt.self))) }
  if type == UInt64.self { return .init(String(unsafeBitCast(value, to: UInt64.self))) }
  if type == UInt32.self { return .init(String(unsafeBitCast(value, to: UInt32.self))) }
  if type == UInt16.self { return .init(String(unsafeBitCast(value, to: UInt16.self))) }
  if type == UInt8.self { return .init(String(unsafeBitCast(value, to: UInt8.self))) }
  return nil
}

/// Whether a type is one of the Foundation types that ``specialScalar(_:)`` writes.
@inline(__always)
func isSpecial(_ type: Any.Type) -> Bool {
  type == Date.self || type == UUID.self || type == URL.self || type == Data.self || type == Decimal.self
}

// MARK: - Boxes

/// A value being encoded whose containers may be written after they are handed out: the value
/// of an `encode(to:)` that is running, or a nested container's value.
///
/// Scalars, and values whose `encode(to:)` has returned, are nodes from the start; a box makes
/// its own node once, when its parent's node is made.
final class EncodedBox {
  enum Kind: UInt8 {
    case unset, scalar, sequence, mapping
  }

  // The stored properties are `@exclusivity(unchecked)`: every access to a class's `var` would
  // otherwise pay for a dynamic exclusivity check (a thread-local access set), and a box is
  // written for every key and element. A box's accesses never overlap: it is only reached
  // through the containers of one value being encoded, on one thread, and none of its methods
  // calls out while it modifies a property.
  @exclusivity(unchecked) private(set) var kind = Kind.unset
  @exclusivity(unchecked) private var scalar = YAMLNode.Scalar("")
  /// A sequence's elements; a placeholder where a `pending` box goes.
  @exclusivity(unchecked) private(set) var elements: [YAMLNode] = []
  /// A mapping's entries in order, keys unique; a placeholder value where a `pending` box goes.
  @exclusivity(unchecked) private var entries: [YAMLNode.Mapping.Entry] = []
  /// Positions of keys, once a mapping is too large to search: encoding stays linear.
  @exclusivity(unchecked) private var keyIndex: [String: Int]?
  /// Boxes handed out as elements or values, and their positions.
  @exclusivity(unchecked) private var pending: [(position: Int, box: EncodedBox)] = []
  /// Made by `nestedContainer(keyedBy:forKey:)`: the value of an enum case.
  @exclusivity(unchecked) var isPayload = false

  init() {}

  /// Makes the box a mapping, unless it is one.
  func makeMapping() {
    if kind != .mapping { reset(to: .mapping) }
  }

  /// Makes the box a sequence, unless it is one.
  func makeSequence() {
    if kind != .sequence { reset(to: .sequence) }
  }

  func setScalar(_ scalar: YAMLNode.Scalar) {
    reset(to: .scalar)
    self.scalar = scalar
  }

  private func reset(to kind: Kind) {
    self.kind = kind
    if !elements.isEmpty { elements = [] }
    if !entries.isEmpty { entries = [] }
    if !pending.isEmpty { pending = [] }
    keyIndex = nil
  }

  /// Sets the value of a key (in place if the key is there); `box`, if any, makes the value later.
  func set(_ name: String, _ value: YAMLNode, box: EncodedBox? = nil) {
    guard kind == .mapping else { return }
    let position: Int
    if let existing = self.position(of: name) {
      entries[existing].value = value
      if !pending.isEmpty { pending.removeAll { $0.position == existing } }
      position = existing
    } else {
      if entries.capacity == 0 { entries.reserveCapacity(4) }
      entries.append(YAMLNode.Mapping.Entry(key: .scalar(name, style: keyStyle(name)), value: value))
      position = entries.count - 1
      if keyIndex != nil {
        keyIndex![name] = position
      } else if entries.count > YAMLNode.Mapping.linearLimit {
        var index = [String: Int](minimumCapacity: entries.count)
        for (offset, entry) in entries.enumerated() { index[entry.name] = offset }
        keyIndex = index
      }
    }
    if let box { pending.append((position, box)) }
  }

  private func position(of name: String) -> Int? {
    if let keyIndex { return keyIndex[name] }
    for offset in entries.indices {
      if case .scalar(let key) = entries[offset].key.content, key.value == name { return offset }
    }
    return nil
  }

  /// Appends an element; `box`, if any, makes the element later.
  func append(_ element: YAMLNode, box: EncodedBox? = nil) {
    guard kind == .sequence else { return }
    if elements.capacity == 0 { elements.reserveCapacity(4) }
    elements.append(element)
    if let box { pending.append((elements.count - 1, box)) }
  }

  /// A placeholder for a value that a box makes later.
  static var placeholder: YAMLNode { YAMLNode(.mapping(.init())) }

  func node() -> YAMLNode {
    switch kind {
    case .unset:
      return YAMLNode(.mapping(.init()))
    case .scalar:
      return YAMLNode(.scalar(scalar))
    case .sequence:
      for (position, box) in pending { elements[position] = box.node() }
      return YAMLNode(.sequence(elements))
    case .mapping:
      for (position, box) in pending { entries[position].value = box.node() }
      // `{ setCount: { _0: "42" } }` → `{ setCount: "42" }`, unless the value has its own `_0`.
      if isPayload, entries.count == 1, entries[0].name == "_0" {
        let value = entries[0].value
        if value.mapping?.position(of: "_0") == nil { return value }
      }
      // A single key whose value is an enum case's payload: an enum.
      let isCase = entries.count == 1 && pending.count == 1 && pending[0].box.isPayload
      // `{ increment: {} }` → `increment`.
      if isCase, pending[0].box.kind == .mapping, pending[0].box.entries.isEmpty {
        var node = entries[0].key
        node.isEnumCase = true
        return node
      }
      var node = YAMLNode(.mapping(YAMLNode.Mapping(uniqueEntries: entries)))
      node.isEnumCase = isCase
      return node
    }
  }
}

/// A key's style: plain, unless YAML would misread it.
private func keyStyle(_ key: String) -> YAMLNode.ScalarStyle {
  // Nearly every key is a Swift identifier, which YAML's syntax never needs to quote.
  if isASCIIIdentifier(key) { return .plain }
  return YAMLEmitter.keyNeedsQuotes(key) ? .doubleQuoted : .plain
}

/// `"…"` for strings that plain YAML would misread, plain for the rest.
func stringScalar(_ text: String) -> YAMLNode.Scalar {
  YAMLNode.Scalar(text, style: stringNeedsQuotes(text) ? .doubleQuoted : .plain)
}

/// ``YAMLEmitter/needsQuotes(_:)``, answered without scanning for YAML's syntax when the text
/// is an ASCII identifier (`blob`, `user_42`): such text never needs quotes for its syntax,
/// and it reads as something other than a string only as a null or a boolean (`null`, `yes`,
/// `Off`): a number or a date starts with a digit, a sign or a dot.
func stringNeedsQuotes(_ text: String) -> Bool {
  guard isASCIIIdentifier(text) else { return YAMLEmitter.needsQuotes(text) }
  switch text {
  case "null", "Null", "NULL": return true
  default: return ScalarResolver.bool(text) != nil
  }
}

/// Whether a text is a letter or `_`, then letters, digits and `_`, all ASCII.
func isASCIIIdentifier(_ text: String) -> Bool {
  if let answer = text.utf8.withContiguousStorageIfAvailable(isASCIIIdentifier) { return answer }
  return Array(text.utf8).withUnsafeBufferPointer(isASCIIIdentifier)
}

private func isASCIIIdentifier(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
  guard let first = bytes.first, first == UInt8(ascii: "_") || isASCIILetter(first) else { return false }
  for byte in bytes.dropFirst() {
    guard byte == UInt8(ascii: "_") || isASCIILetter(byte) || (byte >= 0x30 && byte <= 0x39) else { return false }
  }
  return true
}

@inline(__always)
private func isASCIILetter(_ byte: UInt8) -> Bool {
  let lowered = byte | 0x20
  return lowered >= 0x61 && lowered <= 0x7A
}

// MARK: - The encoder

struct EncoderImpl: Encoder {
  let box: EncodedBox
  let path: [any CodingKey]

  init(box: EncodedBox, path: [any CodingKey]) {
    self.box = box
    self.path = path
  }

  var codingPath: [any CodingKey] { path }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    box.makeMapping()
    return KeyedEncodingContainer(KeyedEncoder<Key>(box: box, path: path))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    box.makeSequence()
    return UnkeyedEncoder(box: box, path: path)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleValueEncoder(box: box, path: path)
  }

  /// Encodes a value into this encoder's box, with Foundation's types in spec form.
  func encodeValue<T: Encodable>(_ value: T) throws {
    if let scalar = directScalar(value) {
      box.setScalar(scalar)
      return
    }
    try value.encode(to: self)
  }
}

/// Dates, UUIDs, URLs, data and decimals as a spec writes them.
func specialScalar<T>(_ value: T) -> YAMLNode.Scalar? {
  switch value {
  case let date as Date: return YAMLNode.Scalar(ISO8601.format(date))
  case let uuid as UUID: return YAMLNode.Scalar(uuid.uuidString)
  case let url as URL: return stringScalar(url.absoluteString)
  case let data as Data: return stringScalar(data.base64EncodedString())
  case let decimal as Decimal: return YAMLNode.Scalar(decimal.description)
  default: return nil
  }
}

func numberScalar<T: BinaryFloatingPoint>(_ value: T) -> YAMLNode.Scalar {
  if value.isNaN { return .init(".nan") }
  if value.isInfinite { return .init(value < 0 ? "-.inf" : ".inf") }
  return .init("\(value)")
}

/// A scalar node of an integer.
@inline(__always)
private func integerNode<T: BinaryInteger & LosslessStringConvertible>(_ value: T) -> YAMLNode {
  YAMLNode(.scalar(.init(value.description)))
}

struct KeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let box: EncodedBox
  let path: [any CodingKey]

  var codingPath: [any CodingKey] { path }

  private func set(_ key: Key, _ scalar: YAMLNode.Scalar) {
    box.set(key.stringValue, YAMLNode(.scalar(scalar)))
  }

  func encodeNil(forKey key: Key) throws { set(key, .init("null")) }
  func encode(_ value: Bool, forKey key: Key) throws { set(key, .init(value ? "true" : "false")) }
  func encode(_ value: String, forKey key: Key) throws { set(key, stringScalar(value)) }
  func encode(_ value: Double, forKey key: Key) throws { set(key, numberScalar(value)) }
  func encode(_ value: Float, forKey key: Key) throws { set(key, numberScalar(value)) }
  func encode(_ value: Int, forKey key: Key) throws { box.set(key.stringValue, integerNode(value)) }
  func encode(_ value: Int8, forKey key: Key) throws { box.set(key.stringValue, integerNode(value)) }
  func encode(_ value: Int16, forKey key: Key) throws { box.set(key.stringValue, integerNode(value)) }
  func encode(_ value: Int32, forKey key: Key) throws { box.set(key.stringValue, integerNode(value)) }
  func encode(_ value: Int64, forKey key: Key) throws { box.set(key.stringValue, integerNode(value)) }
  func encode(_ value: UInt, forKey key: Key) throws { box.set(key.stringValue, integerNode(value)) }
  func encode(_ value: UInt8, forKey key: Key) throws { box.set(key.stringValue, integerNode(value)) }
  func encode(_ value: UInt16, forKey key: Key) throws { box.set(key.stringValue, integerNode(value)) }
  func encode(_ value: UInt32, forKey key: Key) throws { box.set(key.stringValue, integerNode(value)) }
  func encode(_ value: UInt64, forKey key: Key) throws { box.set(key.stringValue, integerNode(value)) }

  func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    let node = try encodedNode(value, path: path + [key])
    box.set(key.stringValue, node)
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested = EncodedBox()
    nested.isPayload = true
    nested.makeMapping()
    box.set(key.stringValue, EncodedBox.placeholder, box: nested)
    return KeyedEncodingContainer(KeyedEncoder<NestedKey>(box: nested, path: path + [key]))
  }

  func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let nested = EncodedBox()
    nested.makeSequence()
    box.set(key.stringValue, EncodedBox.placeholder, box: nested)
    return UnkeyedEncoder(box: nested, path: path + [key])
  }

  func superEncoder() -> any Encoder {
    let nested = EncodedBox()
    box.set("super", EncodedBox.placeholder, box: nested)
    return EncoderImpl(box: nested, path: path + [AnyCodingKey(stringValue: "super")])
  }

  func superEncoder(forKey key: Key) -> any Encoder {
    let nested = EncodedBox()
    box.set(key.stringValue, EncodedBox.placeholder, box: nested)
    return EncoderImpl(box: nested, path: path + [key])
  }
}

struct UnkeyedEncoder: UnkeyedEncodingContainer {
  let box: EncodedBox
  let path: [any CodingKey]

  var codingPath: [any CodingKey] { path }
  var count: Int { box.kind == .sequence ? box.elements.count : 0 }

  private func append(_ scalar: YAMLNode.Scalar) {
    box.append(YAMLNode(.scalar(scalar)))
  }

  mutating func encodeNil() throws { append(.init("null")) }
  mutating func encode(_ value: Bool) throws { append(.init(value ? "true" : "false")) }
  mutating func encode(_ value: String) throws { append(stringScalar(value)) }
  mutating func encode(_ value: Double) throws { append(numberScalar(value)) }
  mutating func encode(_ value: Float) throws { append(numberScalar(value)) }
  mutating func encode(_ value: Int) throws { box.append(integerNode(value)) }
  mutating func encode(_ value: Int8) throws { box.append(integerNode(value)) }
  mutating func encode(_ value: Int16) throws { box.append(integerNode(value)) }
  mutating func encode(_ value: Int32) throws { box.append(integerNode(value)) }
  mutating func encode(_ value: Int64) throws { box.append(integerNode(value)) }
  mutating func encode(_ value: UInt) throws { box.append(integerNode(value)) }
  mutating func encode(_ value: UInt8) throws { box.append(integerNode(value)) }
  mutating func encode(_ value: UInt16) throws { box.append(integerNode(value)) }
  mutating func encode(_ value: UInt32) throws { box.append(integerNode(value)) }
  mutating func encode(_ value: UInt64) throws { box.append(integerNode(value)) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let count = self.count
    box.append(try encodedNode(value, path: path + [AnyCodingKey(intValue: count)]))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
    let nested = EncodedBox()
    nested.makeMapping()
    let key = AnyCodingKey(intValue: count)
    box.append(EncodedBox.placeholder, box: nested)
    return KeyedEncodingContainer(KeyedEncoder<NestedKey>(box: nested, path: path + [key]))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let nested = EncodedBox()
    nested.makeSequence()
    let key = AnyCodingKey(intValue: count)
    box.append(EncodedBox.placeholder, box: nested)
    return UnkeyedEncoder(box: nested, path: path + [key])
  }

  mutating func superEncoder() -> any Encoder {
    let nested = EncodedBox()
    let key = AnyCodingKey(intValue: count)
    box.append(EncodedBox.placeholder, box: nested)
    return EncoderImpl(box: nested, path: path + [key])
  }
}

struct SingleValueEncoder: SingleValueEncodingContainer {
  let box: EncodedBox
  let path: [any CodingKey]

  var codingPath: [any CodingKey] { path }

  func encodeNil() throws { box.setScalar(.init("null")) }
  func encode(_ value: Bool) throws { box.setScalar(.init(value ? "true" : "false")) }
  func encode(_ value: String) throws { box.setScalar(stringScalar(value)) }
  func encode(_ value: Double) throws { box.setScalar(numberScalar(value)) }
  func encode(_ value: Float) throws { box.setScalar(numberScalar(value)) }
  func encode(_ value: Int) throws { box.setScalar(.init(String(value))) }
  func encode(_ value: Int8) throws { box.setScalar(.init(String(value))) }
  func encode(_ value: Int16) throws { box.setScalar(.init(String(value))) }
  func encode(_ value: Int32) throws { box.setScalar(.init(String(value))) }
  func encode(_ value: Int64) throws { box.setScalar(.init(String(value))) }
  func encode(_ value: UInt) throws { box.setScalar(.init(String(value))) }
  func encode(_ value: UInt8) throws { box.setScalar(.init(String(value))) }
  func encode(_ value: UInt16) throws { box.setScalar(.init(String(value))) }
  func encode(_ value: UInt32) throws { box.setScalar(.init(String(value))) }
  func encode(_ value: UInt64) throws { box.setScalar(.init(String(value))) }

  func encode<T: Encodable>(_ value: T) throws {
    try EncoderImpl(box: box, path: path).encodeValue(value)
  }
}
