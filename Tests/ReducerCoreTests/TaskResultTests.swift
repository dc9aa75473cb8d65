import Foundation
import ReducerCore
import Testing

// MARK: - Fixtures (local to this file)

/// Two unrelated error types with the same message.
private struct NetworkDown: LocalizedError, Equatable {
  var errorDescription: String? { "The network is down." }
}

private enum ServiceError: LocalizedError, Equatable {
  case unreachable
  case rateLimited

  var errorDescription: String? {
    switch self {
    case .unreachable: return "The network is down."
    case .rateLimited: return "Too many requests."
    }
  }
}

private struct Payload: Codable, Hashable, Sendable {
  var name: String
  var stars: Int
}

private func encode<T: Encodable>(_ value: T) throws -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys]
  return String(decoding: try encoder.encode(value), as: UTF8.self)
}

private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
  try JSONDecoder().decode(type, from: Data(json.utf8))
}

// MARK: - Tests

@Suite struct TaskResultTests {
  // MARK: init(catching:)

  @Test func catchingAValueGivesSuccess() async {
    let result = await TaskResult<Int> { 42 }
    guard case .success(let value) = result else {
      Issue.record("expected a success, got \(result)")
      return
    }
    #expect(value == 42)
  }

  @Test func catchingAnAsyncThrowGivesFailureWithThatError() async {
    let result = await TaskResult<Int> {
      await Task.yield()
      throw ServiceError.rateLimited
    }
    guard case .failure(let error) = result else {
      Issue.record("expected a failure, got \(result)")
      return
    }
    #expect(error as? ServiceError == .rateLimited)
  }

  // MARK: Equatable

  @Test func failuresWithTheSameMessageAreEqualWhateverTheirType() {
    let first = TaskResult<Int>.failure(NetworkDown())
    let second = TaskResult<Int>.failure(ServiceError.unreachable)
    #expect(NetworkDown().localizedDescription == ServiceError.unreachable.localizedDescription)
    #expect(first == second)
    #expect(first == .failure(TaskFailure("The network is down.")))
  }

  @Test func failuresWithDifferentMessagesAreNotEqual() {
    #expect(TaskResult<Int>.failure(ServiceError.unreachable) != .failure(ServiceError.rateLimited))
    #expect(TaskResult<Int>.failure(TaskFailure("a")) != .failure(TaskFailure("b")))
  }

  @Test func successesCompareTheirValues() {
    #expect(TaskResult<Int>.success(1) == .success(1))
    #expect(TaskResult<Int>.success(1) != .success(2))
  }

  @Test func aSuccessNeverEqualsAFailure() {
    #expect(TaskResult<String>.success("The network is down.") != .failure(NetworkDown()))
    #expect(TaskResult<String>.failure(NetworkDown()) != .success("The network is down."))
  }

  // MARK: Hashable

  @Test func equalResultsHashAlikeSoASetKeepsOneOfEach() {
    let results: Set<TaskResult<Int>> = [
      .success(1),
      .success(1),
      .success(2),
      .failure(NetworkDown()),
      .failure(ServiceError.unreachable),
      .failure(TaskFailure("The network is down.")),
      .failure(ServiceError.rateLimited),
    ]
    #expect(results.count == 4)
    #expect(results.contains(.failure(TaskFailure("Too many requests."))))
    #expect(!results.contains(.success(3)))
    #expect(TaskResult<Int>.failure(NetworkDown()).hashValue == TaskResult<Int>.failure(ServiceError.unreachable).hashValue)
  }

  // MARK: map, value

  @Test func mapTransformsASuccess() {
    #expect(TaskResult<Int>.success(21).map { $0 * 2 } == .success(42))
    #expect(TaskResult<Int>.success(7).map(String.init) == .success("7"))
  }

  @Test func mapKeepsTheErrorOfAFailure() {
    let mapped = TaskResult<Int>.failure(ServiceError.rateLimited).map { String($0) }
    guard case .failure(let error) = mapped else {
      Issue.record("expected a failure, got \(mapped)")
      return
    }
    #expect(error as? ServiceError == .rateLimited)
  }

  @Test func valueReturnsTheSuccess() throws {
    #expect(try TaskResult<Int>.success(5).value == 5)
  }

  @Test func valueThrowsTheErrorOfAFailure() {
    #expect(throws: ServiceError.rateLimited) {
      try TaskResult<Int>.failure(ServiceError.rateLimited).value
    }
  }

  // MARK: Description

  @Test func descriptionShowsTheValueOrTheMessage() {
    #expect(TaskResult<Int>.success(3).description == "success(3)")
    #expect(TaskResult<Int>.failure(ServiceError.rateLimited).description == "failure(Too many requests.)")
  }

  // MARK: Codable

  @Test func aSuccessEncodesUnderTheKeySuccess() throws {
    #expect(try encode(TaskResult<Int>.success(42)) == #"{"success":42}"#)
    #expect(
      try encode(TaskResult<Payload>.success(Payload(name: "swift", stars: 5)))
        == #"{"success":{"name":"swift","stars":5}}"#)
  }

  @Test func aFailureEncodesItsMessageUnderTheKeyFailure() throws {
    #expect(try encode(TaskResult<Int>.failure(ServiceError.rateLimited)) == #"{"failure":"Too many requests."}"#)
    #expect(try encode(TaskResult<Int>.failure(TaskFailure("message"))) == #"{"failure":"message"}"#)
  }

  @Test func aSuccessDecodes() throws {
    #expect(try decode(TaskResult<Int>.self, #"{"success":42}"#) == .success(42))
    #expect(
      try decode(TaskResult<Payload>.self, #"{"success":{"name":"swift","stars":5}}"#)
        == .success(Payload(name: "swift", stars: 5)))
  }

  @Test func aFailureDecodesToATaskFailureWithTheMessage() throws {
    let result = try decode(TaskResult<Int>.self, #"{"failure":"message"}"#)
    guard case .failure(let error) = result else {
      Issue.record("expected a failure, got \(result)")
      return
    }
    #expect(error as? TaskFailure == TaskFailure("message"))
    #expect(error.localizedDescription == "message")
    #expect(result == .failure(TaskFailure("message")))
  }

  @Test func aDecodedFailureEqualsTheOriginalError() throws {
    let original = TaskResult<Int>.failure(ServiceError.unreachable)
    let decoded = try decode(TaskResult<Int>.self, try encode(original))
    #expect(decoded == original)
    #expect(decoded == .failure(NetworkDown()))
  }

  @Test(arguments: ["{}", #"{"success":1,"failure":"message"}"#])
  func anObjectWithoutExactlyOneKeyFailsToDecode(json: String) {
    do {
      _ = try decode(TaskResult<Int>.self, json)
      Issue.record("decoding \(json) did not throw")
    } catch DecodingError.typeMismatch(let type, let context) {
      #expect(ObjectIdentifier(type) == ObjectIdentifier(TaskResult<Int>.self))
      #expect(context.codingPath.isEmpty)
      #expect(context.debugDescription == "Invalid number of keys found, expected one: `success` or `failure`.")
    } catch {
      Issue.record("unexpected error: \(error)")
    }
  }

  @Test func aSuccessOfTheWrongTypeFailsToDecode() {
    do {
      _ = try decode(TaskResult<Int>.self, #"{"success":"many"}"#)
      Issue.record("decoding did not throw")
    } catch DecodingError.typeMismatch(let type, let context) {
      #expect(ObjectIdentifier(type) == ObjectIdentifier(Int.self))
      #expect(context.codingPath.map(\.stringValue) == ["success"])
    } catch {
      Issue.record("unexpected error: \(error)")
    }
  }

  @Test func aFailureThatIsNotAStringFailsToDecode() {
    #expect(throws: DecodingError.self) {
      try decode(TaskResult<Int>.self, #"{"failure":12}"#)
    }
  }
}
