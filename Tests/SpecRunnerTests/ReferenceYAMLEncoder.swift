import Foundation
@testable import SpecRunner

// The encoder as it was before it built nodes directly (commit 4486a82), kept as the reference
// that `EncoderEquivalenceTests` compares the encoder's output with, node for node.

struct ReferenceYAMLEncoder {
  func encode<T: Encodable>(_ value: T) throws -> YAMLNode {
    let box = RefEncodedBox()
    try RefEncoderImpl(box: box, path: []).encodeValue(value)
    return box.node()
  }
}

// MARK: - Boxes

/// A value being encoded: containers write into it after it is handed out.
final class RefEncodedBox {
  enum Content {
    case unset
    case scalar(YAMLNode.Scalar)
    case sequence([RefEncodedBox])
    case mapping(keys: [String], values: [RefEncodedBox])
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
    if refIsASCIIIdentifier(key) { return .plain }
    return YAMLEmitter.keyNeedsQuotes(key) ? .doubleQuoted : .plain
  }
}

/// `"…"` for strings that plain YAML would misread, plain for the rest.
func refStringScalar(_ text: String) -> YAMLNode.Scalar {
  YAMLNode.Scalar(text, style: refStringNeedsQuotes(text) ? .doubleQuoted : .plain)
}

/// ``YAMLEmitter/needsQuotes(_:)``, answered without scanning for YAML's syntax when the text
/// is an ASCII identifier (`blob`, `user_42`): such text never needs quotes for its syntax,
/// and it reads as something other than a string only as a null or a boolean (`null`, `yes`,
/// `Off`): a number or a date starts with a digit, a sign or a dot.
func refStringNeedsQuotes(_ text: String) -> Bool {
  guard refIsASCIIIdentifier(text) else { return YAMLEmitter.needsQuotes(text) }
  switch text {
  case "null", "Null", "NULL": return true
  default: return ScalarResolver.bool(text) != nil
  }
}

/// Whether a text is a letter or `_`, then letters, digits and `_`, all ASCII.
func refIsASCIIIdentifier(_ text: String) -> Bool {
  if let answer = text.utf8.withContiguousStorageIfAvailable(refIsASCIIIdentifier) { return answer }
  return Array(text.utf8).withUnsafeBufferPointer(refIsASCIIIdentifier)
}

private func refIsASCIIIdentifier(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
  guard let first = bytes.first, first == UInt8(ascii: "_") || refIsASCIILetter(first) else { return false }
  for byte in bytes.dropFirst() {
    guard byte == UInt8(ascii: "_") || refIsASCIILetter(byte) || (byte >= 0x30 && byte <= 0x39) else { return false }
  }
  return true
}

@inline(__always)
private func refIsASCIILetter(_ byte: UInt8) -> Bool {
  let lowered = byte | 0x20
  return lowered >= 0x61 && lowered <= 0x7A
}

// MARK: - The encoder

struct RefEncoderImpl: Encoder {
  let box: RefEncodedBox
  let path: [any CodingKey]

  init(box: RefEncodedBox, path: [any CodingKey]) {
    self.box = box
    self.path = path
  }

  var codingPath: [any CodingKey] { path }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if case .mapping = box.content {} else { box.content = .mapping(keys: [], values: []) }
    return KeyedEncodingContainer(RefKeyedEncoder<Key>(box: box, path: path))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if case .sequence = box.content {} else { box.content = .sequence([]) }
    return RefUnkeyedEncoder(box: box, path: path)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    RefSingleValueEncoder(box: box, path: path)
  }

  /// Encodes a value into this encoder's box, with Foundation's types in spec form.
  func encodeValue<T: Encodable>(_ value: T) throws {
    if let scalar = refSpecialScalar(value) {
      box.content = .scalar(scalar)
      return
    }
    try value.encode(to: self)
  }
}

/// Dates, UUIDs, URLs, data and decimals as a spec writes them.
func refSpecialScalar<T>(_ value: T) -> YAMLNode.Scalar? {
  switch value {
  case let date as Date: return YAMLNode.Scalar(ISO8601.format(date))
  case let uuid as UUID: return YAMLNode.Scalar(uuid.uuidString)
  case let url as URL: return refStringScalar(url.absoluteString)
  case let data as Data: return refStringScalar(data.base64EncodedString())
  case let decimal as Decimal: return YAMLNode.Scalar(decimal.description)
  default: return nil
  }
}

func refNumberScalar<T: BinaryFloatingPoint>(_ value: T) -> YAMLNode.Scalar {
  if value.isNaN { return .init(".nan") }
  if value.isInfinite { return .init(value < 0 ? "-.inf" : ".inf") }
  return .init("\(value)")
}

func refChild<T: Encodable>(_ value: T, path: [any CodingKey]) throws -> RefEncodedBox {
  let box = RefEncodedBox()
  try RefEncoderImpl(box: box, path: path).encodeValue(value)
  return box
}

struct RefKeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let box: RefEncodedBox
  let path: [any CodingKey]

  var codingPath: [any CodingKey] { path }

  private func set(_ key: Key, _ value: RefEncodedBox) {
    set(key.stringValue, value)
  }

  private func set(_ name: String, _ value: RefEncodedBox) {
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

  func encodeNil(forKey key: Key) throws { set(key, RefEncodedBox(scalar: .init("null"))) }
  func encode(_ value: Bool, forKey key: Key) throws { set(key, RefEncodedBox(scalar: .init(value ? "true" : "false"))) }
  func encode(_ value: String, forKey key: Key) throws { set(key, RefEncodedBox(scalar: refStringScalar(value))) }
  func encode(_ value: Double, forKey key: Key) throws { set(key, RefEncodedBox(scalar: refNumberScalar(value))) }
  func encode(_ value: Float, forKey key: Key) throws { set(key, RefEncodedBox(scalar: refNumberScalar(value))) }
  func encode(_ value: Int, forKey key: Key) throws { set(key, RefEncodedBox(scalar: .init(String(value)))) }
  func encode(_ value: Int8, forKey key: Key) throws { set(key, RefEncodedBox(scalar: .init(String(value)))) }
  func encode(_ value: Int16, forKey key: Key) throws { set(key, RefEncodedBox(scalar: .init(String(value)))) }
  func encode(_ value: Int32, forKey key: Key) throws { set(key, RefEncodedBox(scalar: .init(String(value)))) }
  func encode(_ value: Int64, forKey key: Key) throws { set(key, RefEncodedBox(scalar: .init(String(value)))) }
  func encode(_ value: UInt, forKey key: Key) throws { set(key, RefEncodedBox(scalar: .init(String(value)))) }
  func encode(_ value: UInt8, forKey key: Key) throws { set(key, RefEncodedBox(scalar: .init(String(value)))) }
  func encode(_ value: UInt16, forKey key: Key) throws { set(key, RefEncodedBox(scalar: .init(String(value)))) }
  func encode(_ value: UInt32, forKey key: Key) throws { set(key, RefEncodedBox(scalar: .init(String(value)))) }
  func encode(_ value: UInt64, forKey key: Key) throws { set(key, RefEncodedBox(scalar: .init(String(value)))) }

  func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    set(key, try refChild(value, path: path + [key]))
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested = RefEncodedBox()
    nested.isPayload = true
    nested.content = .mapping(keys: [], values: [])
    set(key, nested)
    return KeyedEncodingContainer(RefKeyedEncoder<NestedKey>(box: nested, path: path + [key]))
  }

  func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let nested = RefEncodedBox()
    nested.content = .sequence([])
    set(key, nested)
    return RefUnkeyedEncoder(box: nested, path: path + [key])
  }

  func superEncoder() -> any Encoder {
    let nested = RefEncodedBox()
    set("super", nested)
    return RefEncoderImpl(box: nested, path: path + [AnyCodingKey(stringValue: "super")])
  }

  func superEncoder(forKey key: Key) -> any Encoder {
    let nested = RefEncodedBox()
    set(key, nested)
    return RefEncoderImpl(box: nested, path: path + [key])
  }
}

struct RefUnkeyedEncoder: UnkeyedEncodingContainer {
  let box: RefEncodedBox
  let path: [any CodingKey]

  var codingPath: [any CodingKey] { path }
  var count: Int {
    if case .sequence(let elements) = box.content { return elements.count }
    return 0
  }

  private func append(_ value: RefEncodedBox) {
    guard case .sequence(var elements) = box.content else { return }
    box.content = .unset
    elements.append(value)
    box.content = .sequence(elements)
  }

  mutating func encodeNil() throws { append(RefEncodedBox(scalar: .init("null"))) }
  mutating func encode(_ value: Bool) throws { append(RefEncodedBox(scalar: .init(value ? "true" : "false"))) }
  mutating func encode(_ value: String) throws { append(RefEncodedBox(scalar: refStringScalar(value))) }
  mutating func encode(_ value: Double) throws { append(RefEncodedBox(scalar: refNumberScalar(value))) }
  mutating func encode(_ value: Float) throws { append(RefEncodedBox(scalar: refNumberScalar(value))) }
  mutating func encode(_ value: Int) throws { append(RefEncodedBox(scalar: .init(String(value)))) }
  mutating func encode(_ value: Int8) throws { append(RefEncodedBox(scalar: .init(String(value)))) }
  mutating func encode(_ value: Int16) throws { append(RefEncodedBox(scalar: .init(String(value)))) }
  mutating func encode(_ value: Int32) throws { append(RefEncodedBox(scalar: .init(String(value)))) }
  mutating func encode(_ value: Int64) throws { append(RefEncodedBox(scalar: .init(String(value)))) }
  mutating func encode(_ value: UInt) throws { append(RefEncodedBox(scalar: .init(String(value)))) }
  mutating func encode(_ value: UInt8) throws { append(RefEncodedBox(scalar: .init(String(value)))) }
  mutating func encode(_ value: UInt16) throws { append(RefEncodedBox(scalar: .init(String(value)))) }
  mutating func encode(_ value: UInt32) throws { append(RefEncodedBox(scalar: .init(String(value)))) }
  mutating func encode(_ value: UInt64) throws { append(RefEncodedBox(scalar: .init(String(value)))) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    append(try refChild(value, path: path + [AnyCodingKey(intValue: count)]))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
    let nested = RefEncodedBox()
    nested.content = .mapping(keys: [], values: [])
    let key = AnyCodingKey(intValue: count)
    append(nested)
    return KeyedEncodingContainer(RefKeyedEncoder<NestedKey>(box: nested, path: path + [key]))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let nested = RefEncodedBox()
    nested.content = .sequence([])
    let key = AnyCodingKey(intValue: count)
    append(nested)
    return RefUnkeyedEncoder(box: nested, path: path + [key])
  }

  mutating func superEncoder() -> any Encoder {
    let nested = RefEncodedBox()
    let key = AnyCodingKey(intValue: count)
    append(nested)
    return RefEncoderImpl(box: nested, path: path + [key])
  }
}

struct RefSingleValueEncoder: SingleValueEncodingContainer {
  let box: RefEncodedBox
  let path: [any CodingKey]

  var codingPath: [any CodingKey] { path }

  func encodeNil() throws { box.content = .scalar(.init("null")) }
  func encode(_ value: Bool) throws { box.content = .scalar(.init(value ? "true" : "false")) }
  func encode(_ value: String) throws { box.content = .scalar(refStringScalar(value)) }
  func encode(_ value: Double) throws { box.content = .scalar(refNumberScalar(value)) }
  func encode(_ value: Float) throws { box.content = .scalar(refNumberScalar(value)) }
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
    try RefEncoderImpl(box: box, path: path).encodeValue(value)
  }
}
