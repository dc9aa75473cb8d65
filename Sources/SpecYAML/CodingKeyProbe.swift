/// Finds the coding keys a `Decodable` type reads at its top level: the case names of an
/// enum with a synthesized `Codable` conformance, or the fields of a struct.
///
/// It decodes the type from a decoder that only records the key type the type asks for,
/// then lists that key type's cases. Synthesized `CodingKeys` are enums without payloads,
/// whose cases are stored as the numbers 0 to n-1 in one byte, and whose first value past
/// the last case is what `Optional<CodingKeys>.none` is made of; that makes them
/// enumerable without an instance. Any other key type (a struct, a key with a payload) is
/// not listed.
package enum CodingKeyProbe {
  /// The key names, in declaration order; `nil` when they cannot be listed.
  package static func keys(of type: any Decodable.Type) -> [String]? {
    let probe = ProbeDecoder()
    _ = try? type.init(from: probe)
    return probe.keys
  }

  /// The cases of a payload-free enum key type, by their stored tags. A one-byte key type
  /// whose optional needs a second byte has no spare values and is not a plain enum.
  package static func cases<Key: CodingKey>(of type: Key.Type) -> [String]? {
    switch MemoryLayout<Key>.size {
    case 0:
      // A single case occupies no storage.
      return [unsafeBitCast((), to: Key.self).stringValue]
    case 1 where MemoryLayout<Key?>.size == 1:
      var names: [String] = []
      for tag in UInt8.min...UInt8.max {
        guard let key = unsafeBitCast(tag, to: Key?.self) else { break }
        names.append(key.stringValue)
      }
      return names
    default:
      return nil
    }
  }
}

private final class ProbeDecoder: Decoder {
  var keys: [String]?
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  struct Stop: Error {}

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    keys = CodingKeyProbe.cases(of: Key.self)
    throw Stop()
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw Stop() }
  func singleValueContainer() throws -> any SingleValueDecodingContainer { throw Stop() }
}
