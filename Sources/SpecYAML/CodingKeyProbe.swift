/// Finds the coding keys a `Decodable` type reads at its top level: the case names of an
/// enum with a synthesized `Codable` conformance, or the fields of a struct.
///
/// It decodes the type from a decoder that only records the key type the type asks for,
/// then lists that key type's cases with ``payloadFreeEnumCases(of:)``: synthesized
/// `CodingKeys` are enums without payloads. Any other key type (a struct, a key with a
/// payload) is not listed.
package enum CodingKeyProbe {
  /// The key names, in declaration order; `nil` when they cannot be listed.
  package static func keys(of type: any Decodable.Type) -> [String]? {
    let probe = ProbeDecoder()
    _ = try? type.init(from: probe)
    return probe.keys
  }
}

private final class ProbeDecoder: Decoder {
  var keys: [String]?
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  struct Stop: Error {}

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    keys = payloadFreeEnumCases(of: Key.self)?.map(\.stringValue)
    throw Stop()
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw Stop() }
  func singleValueContainer() throws -> any SingleValueDecodingContainer { throw Stop() }
}
