import Foundation

/// Finds the coding keys a `Decodable` type reads at its top level: the case names of an
/// enum with a synthesized `Codable` conformance, or the fields of a struct.
///
/// It decodes the type from a decoder that only records the key type the type asks for,
/// then lists that key type's cases with ``payloadFreeEnumCases(of:)``: synthesized
/// `CodingKeys` are enums without payloads. Any other key type (a struct, a key with a
/// payload) is not listed.
package enum CodingKeyProbe {
  /// The key names, in declaration order; `nil` when they cannot be listed.
  ///
  /// Remembered by type: a probe runs the type's `init(from:)` and lists its key type's
  /// cases, and a spec asks for the same action type at every scenario it binds.
  package static func keys(of type: any Decodable.Type) -> [String]? {
    let id = ObjectIdentifier(type)
    if let known = known.withLock({ $0[id] }) { return known }
    let probe = ProbeDecoder()
    _ = try? type.init(from: probe)
    known.withLock { $0[id] = probe.keys }
    return probe.keys
  }

  private static let known = Locked<[ObjectIdentifier: [String]?]>([:])
}

/// A value that threads share, under a lock.
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
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
