import Foundation
import Testing

/// The JSON of a value, keys sorted, slashes unescaped, dates in ISO 8601.
func json<T: Encodable>(_ value: T) throws -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  encoder.dateEncodingStrategy = .iso8601
  return String(decoding: try encoder.encode(value), as: UTF8.self)
}

/// A value decoded from JSON, dates in ISO 8601.
func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
  let decoder = JSONDecoder()
  decoder.dateDecodingStrategy = .iso8601
  return try decoder.decode(type, from: Data(text.utf8))
}

/// Expects `value` to encode to `expected` (when given) and to decode back to itself.
func expectRoundTrip<T: Codable & Equatable>(
  _ value: T, json expected: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let text = try json(value)
  if let expected {
    #expect(text == expected, sourceLocation: sourceLocation)
  }
  #expect(try decode(T.self, from: text) == value, sourceLocation: sourceLocation)
}
