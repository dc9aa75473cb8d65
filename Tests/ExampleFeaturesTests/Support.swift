import Foundation
import IssueReporting
import TestSupport
import Testing

// MARK: - Errors

/// An error with a message, as a failing endpoint throws it.
struct TestError: LocalizedError, Equatable {
  var message: String

  init(_ message: String) {
    self.message = message
  }

  var errorDescription: String? { message }
}

// MARK: - Issues

/// Runs `body` with the issues it reports collected, and returns their messages.
///
/// Create the store inside `body`, so that its end-of-test checks are collected too.
@MainActor
func collectIssues(_ body: @MainActor () async -> Void) async -> [String] {
  let collector = IssueCollector()
  await withIssueReporters([collector]) {
    await body()
  }
  return collector.issues.map(\.message)
}

// MARK: - JSON

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
