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
    let box = EncodedBox()
    try EncoderImpl(box: box, path: []).encodeValue(value)
    return box.node()
  }

  /// Encodes a value as YAML text in block style.
  public func encodeToString<T: Encodable>(_ value: T) throws -> String {
    YAMLEmitter.block(try encode(value))
  }
}

// MARK: - Boxes

/// A value being encoded: containers write into it after it is handed out.
final class EncodedBox {
  enum Content {
    case unset
    case scalar(YAMLNode.Scalar)
    case sequence([EncodedBox])
    case mapping(keys: [String], values: [EncodedBox])
  }

  var content: Content = .unset
  /// Made by `nestedContainer(keyedBy:forKey:)`: the value of an enum case.
  var isPayload = false
  /// A keyed container whose values are all payloads: an enum.
  var payloadChildren = 0
  /// Positions of keys, once a mapping is too large to search: encoding stays linear.
  var keyIndex: [String: Int]?

  init() {}

  init(scalar: YAMLNode.Scalar) {
    content = .scalar(scalar)
  }

  func node() -> YAMLNode {
    switch content {
    case .unset:
      return YAMLNode(.mapping(.init()))
    case .scalar(let scalar):
      return YAMLNode(.scalar(scalar))
    case .sequence(let elements):
      return YAMLNode(.sequence(elements.map { $0.node() }))
    case .mapping(let keys, let values):
      // `{ setCount: { _0: "42" } }` → `{ setCount: "42" }`, unless the value has its own `_0`.
      if isPayload, keys.count == 1, keys[0] == "_0" {
        let value = values[0].node()
        if value.mapping?.position(of: "_0") == nil { return value }
      }
      // `{ increment: {} }` → `increment`.
      if keys.count == 1, payloadChildren == 1, values[0].isPayload {
        if case .mapping(let innerKeys, _) = values[0].content, innerKeys.isEmpty {
          var node = YAMLNode.scalar(keys[0], style: scalarStyle(forKey: keys[0]))
          node.isEnumCase = true
          return node
        }
      }
      var mapping = YAMLNode.Mapping()
      for (key, value) in zip(keys, values) {
        mapping.set(key: .scalar(key, style: scalarStyle(forKey: key)), value: value.node())
      }
      var node = YAMLNode(.mapping(mapping))
      node.isEnumCase = keys.count == 1 && payloadChildren == 1
      return node
    }
  }

  private func scalarStyle(forKey key: String) -> YAMLNode.ScalarStyle {
    // Nearly every key is a Swift identifier, which YAML's syntax never needs to quote.
    if isASCIIIdentifier(key) { return .plain }
    return YAMLEmitter.keyNeedsQuotes(key) ? .doubleQuoted : .plain
  }
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
    if case .mapping = box.content {} else { box.content = .mapping(keys: [], values: []) }
    return KeyedEncodingContainer(KeyedEncoder<Key>(box: box, path: path))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if case .sequence = box.content {} else { box.content = .sequence([]) }
    return UnkeyedEncoder(box: box, path: path)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleValueEncoder(box: box, path: path)
  }

  /// Encodes a value into this encoder's box, with Foundation's types in spec form.
  func encodeValue<T: Encodable>(_ value: T) throws {
    if let scalar = specialScalar(value) {
      box.content = .scalar(scalar)
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

func child<T: Encodable>(_ value: T, path: [any CodingKey]) throws -> EncodedBox {
  let box = EncodedBox()
  try EncoderImpl(box: box, path: path).encodeValue(value)
  return box
}

struct KeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let box: EncodedBox
  let path: [any CodingKey]

  var codingPath: [any CodingKey] { path }

  private func set(_ key: Key, _ value: EncodedBox) {
    set(key.stringValue, value)
  }

  private func set(_ name: String, _ value: EncodedBox) {
    guard case .mapping(var keys, var values) = box.content else { return }
    box.content = .unset
    let existing = box.keyIndex != nil ? box.keyIndex![name] : keys.firstIndex(of: name)
    if let index = existing {
      if values[index].isPayload { box.payloadChildren -= 1 }
      values[index] = value
    } else {
      keys.append(name)
      values.append(value)
      if box.keyIndex != nil {
        box.keyIndex![name] = keys.count - 1
      } else if keys.count > YAMLNode.Mapping.linearLimit {
        box.keyIndex = Dictionary(keys.enumerated().map { ($1, $0) }, uniquingKeysWith: { _, last in last })
      }
    }
    if value.isPayload { box.payloadChildren += 1 }
    box.content = .mapping(keys: keys, values: values)
  }

  func encodeNil(forKey key: Key) throws { set(key, EncodedBox(scalar: .init("null"))) }
  func encode(_ value: Bool, forKey key: Key) throws { set(key, EncodedBox(scalar: .init(value ? "true" : "false"))) }
  func encode(_ value: String, forKey key: Key) throws { set(key, EncodedBox(scalar: stringScalar(value))) }
  func encode(_ value: Double, forKey key: Key) throws { set(key, EncodedBox(scalar: numberScalar(value))) }
  func encode(_ value: Float, forKey key: Key) throws { set(key, EncodedBox(scalar: numberScalar(value))) }
  func encode(_ value: Int, forKey key: Key) throws { set(key, EncodedBox(scalar: .init(String(value)))) }
  func encode(_ value: Int8, forKey key: Key) throws { set(key, EncodedBox(scalar: .init(String(value)))) }
  func encode(_ value: Int16, forKey key: Key) throws { set(key, EncodedBox(scalar: .init(String(value)))) }
  func encode(_ value: Int32, forKey key: Key) throws { set(key, EncodedBox(scalar: .init(String(value)))) }
  func encode(_ value: Int64, forKey key: Key) throws { set(key, EncodedBox(scalar: .init(String(value)))) }
  func encode(_ value: UInt, forKey key: Key) throws { set(key, EncodedBox(scalar: .init(String(value)))) }
  func encode(_ value: UInt8, forKey key: Key) throws { set(key, EncodedBox(scalar: .init(String(value)))) }
  func encode(_ value: UInt16, forKey key: Key) throws { set(key, EncodedBox(scalar: .init(String(value)))) }
  func encode(_ value: UInt32, forKey key: Key) throws { set(key, EncodedBox(scalar: .init(String(value)))) }
  func encode(_ value: UInt64, forKey key: Key) throws { set(key, EncodedBox(scalar: .init(String(value)))) }

  func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    set(key, try child(value, path: path + [key]))
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested = EncodedBox()
    nested.isPayload = true
    nested.content = .mapping(keys: [], values: [])
    set(key, nested)
    return KeyedEncodingContainer(KeyedEncoder<NestedKey>(box: nested, path: path + [key]))
  }

  func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let nested = EncodedBox()
    nested.content = .sequence([])
    set(key, nested)
    return UnkeyedEncoder(box: nested, path: path + [key])
  }

  func superEncoder() -> any Encoder {
    let nested = EncodedBox()
    set("super", nested)
    return EncoderImpl(box: nested, path: path + [AnyCodingKey(stringValue: "super")])
  }

  func superEncoder(forKey key: Key) -> any Encoder {
    let nested = EncodedBox()
    set(key, nested)
    return EncoderImpl(box: nested, path: path + [key])
  }
}

struct UnkeyedEncoder: UnkeyedEncodingContainer {
  let box: EncodedBox
  let path: [any CodingKey]

  var codingPath: [any CodingKey] { path }
  var count: Int {
    if case .sequence(let elements) = box.content { return elements.count }
    return 0
  }

  private func append(_ value: EncodedBox) {
    guard case .sequence(var elements) = box.content else { return }
    box.content = .unset
    elements.append(value)
    box.content = .sequence(elements)
  }

  mutating func encodeNil() throws { append(EncodedBox(scalar: .init("null"))) }
  mutating func encode(_ value: Bool) throws { append(EncodedBox(scalar: .init(value ? "true" : "false"))) }
  mutating func encode(_ value: String) throws { append(EncodedBox(scalar: stringScalar(value))) }
  mutating func encode(_ value: Double) throws { append(EncodedBox(scalar: numberScalar(value))) }
  mutating func encode(_ value: Float) throws { append(EncodedBox(scalar: numberScalar(value))) }
  mutating func encode(_ value: Int) throws { append(EncodedBox(scalar: .init(String(value)))) }
  mutating func encode(_ value: Int8) throws { append(EncodedBox(scalar: .init(String(value)))) }
  mutating func encode(_ value: Int16) throws { append(EncodedBox(scalar: .init(String(value)))) }
  mutating func encode(_ value: Int32) throws { append(EncodedBox(scalar: .init(String(value)))) }
  mutating func encode(_ value: Int64) throws { append(EncodedBox(scalar: .init(String(value)))) }
  mutating func encode(_ value: UInt) throws { append(EncodedBox(scalar: .init(String(value)))) }
  mutating func encode(_ value: UInt8) throws { append(EncodedBox(scalar: .init(String(value)))) }
  mutating func encode(_ value: UInt16) throws { append(EncodedBox(scalar: .init(String(value)))) }
  mutating func encode(_ value: UInt32) throws { append(EncodedBox(scalar: .init(String(value)))) }
  mutating func encode(_ value: UInt64) throws { append(EncodedBox(scalar: .init(String(value)))) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    append(try child(value, path: path + [AnyCodingKey(intValue: count)]))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
    let nested = EncodedBox()
    nested.content = .mapping(keys: [], values: [])
    let key = AnyCodingKey(intValue: count)
    append(nested)
    return KeyedEncodingContainer(KeyedEncoder<NestedKey>(box: nested, path: path + [key]))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let nested = EncodedBox()
    nested.content = .sequence([])
    let key = AnyCodingKey(intValue: count)
    append(nested)
    return UnkeyedEncoder(box: nested, path: path + [key])
  }

  mutating func superEncoder() -> any Encoder {
    let nested = EncodedBox()
    let key = AnyCodingKey(intValue: count)
    append(nested)
    return EncoderImpl(box: nested, path: path + [key])
  }
}

struct SingleValueEncoder: SingleValueEncodingContainer {
  let box: EncodedBox
  let path: [any CodingKey]

  var codingPath: [any CodingKey] { path }

  func encodeNil() throws { box.content = .scalar(.init("null")) }
  func encode(_ value: Bool) throws { box.content = .scalar(.init(value ? "true" : "false")) }
  func encode(_ value: String) throws { box.content = .scalar(stringScalar(value)) }
  func encode(_ value: Double) throws { box.content = .scalar(numberScalar(value)) }
  func encode(_ value: Float) throws { box.content = .scalar(numberScalar(value)) }
  func encode(_ value: Int) throws { box.content = .scalar(.init(String(value))) }
  func encode(_ value: Int8) throws { box.content = .scalar(.init(String(value))) }
  func encode(_ value: Int16) throws { box.content = .scalar(.init(String(value))) }
  func encode(_ value: Int32) throws { box.content = .scalar(.init(String(value))) }
  func encode(_ value: Int64) throws { box.content = .scalar(.init(String(value))) }
  func encode(_ value: UInt) throws { box.content = .scalar(.init(String(value))) }
  func encode(_ value: UInt8) throws { box.content = .scalar(.init(String(value))) }
  func encode(_ value: UInt16) throws { box.content = .scalar(.init(String(value))) }
  func encode(_ value: UInt32) throws { box.content = .scalar(.init(String(value))) }
  func encode(_ value: UInt64) throws { box.content = .scalar(.init(String(value))) }

  func encode<T: Encodable>(_ value: T) throws {
    try EncoderImpl(box: box, path: path).encodeValue(value)
  }
}
