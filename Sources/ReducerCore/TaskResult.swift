import CasePaths
import Foundation

/// The result of an async operation that can fail, as an action's payload:
/// `.searchResponse(TaskResult { try await client.search(query) })`.
///
/// Two failures are equal when their errors have the same message (their
/// `localizedDescription`), so a test or a spec states a failure by its message.
/// In `Codable` form a result is `{ success: VALUE }` or `{ failure: MESSAGE }`.
public enum TaskResult<Success: Sendable>: Sendable {
  case success(Success)
  case failure(any Error)

  /// The result of an operation: its value, or the error it threw.
  public init(catching body: @Sendable () async throws -> Success) async {
    do {
      self = .success(try await body())
    } catch {
      self = .failure(error)
    }
  }

  /// The result of a Swift `Result`: `TaskResult(result)`.
  public init<Failure>(_ result: Result<Success, Failure>) {
    switch result {
    case .success(let value): self = .success(value)
    case .failure(let error): self = .failure(error)
    }
  }

  /// The value, or the error thrown.
  public var value: Success {
    get throws {
      switch self {
      case .success(let value): return value
      case .failure(let error): throw error
      }
    }
  }

  /// Transforms the value of a success.
  public func map<NewSuccess: Sendable>(_ transform: (Success) -> NewSuccess) -> TaskResult<NewSuccess> {
    switch self {
    case .success(let value): return .success(transform(value))
    case .failure(let error): return .failure(error)
    }
  }

  /// Transforms the value of a success into another result.
  public func flatMap<NewSuccess: Sendable>(_ transform: (Success) -> TaskResult<NewSuccess>) -> TaskResult<NewSuccess> {
    switch self {
    case .success(let value): return transform(value)
    case .failure(let error): return .failure(error)
    }
  }

  /// The message an error compares and encodes by.
  static func message(of error: any Error) -> String {
    if let failure = error as? TaskFailure { return failure.message }
    return (error as NSError).localizedDescription
  }
}

/// An error that is only a message: what a decoded `{ failure: MESSAGE }` holds.
public struct TaskFailure: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
  public var message: String

  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
  public var errorDescription: String? { message }
}

extension TaskResult: Equatable where Success: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    switch (lhs, rhs) {
    case (.success(let left), .success(let right)): return left == right
    case (.failure(let left), .failure(let right)): return message(of: left) == message(of: right)
    default: return false
    }
  }
}

extension TaskResult: Hashable where Success: Hashable {
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .success(let value):
      hasher.combine(0)
      hasher.combine(value)
    case .failure(let error):
      hasher.combine(1)
      hasher.combine(Self.message(of: error))
    }
  }
}

extension TaskResult: Codable where Success: Codable {
  private enum CodingKeys: String, CodingKey {
    case success, failure
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let keys = container.allKeys
    guard keys.count == 1, let key = keys.first else {
      throw DecodingError.typeMismatch(
        Self.self,
        .init(
          codingPath: decoder.codingPath,
          debugDescription: "Invalid number of keys found, expected one: `success` or `failure`."))
    }
    switch key {
    case .success: self = .success(try container.decode(Success.self, forKey: .success))
    case .failure: self = .failure(TaskFailure(try container.decode(String.self, forKey: .failure)))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .success(let value): try container.encode(value, forKey: .success)
    case .failure(let error): try container.encode(Self.message(of: error), forKey: .failure)
    }
  }
}

extension TaskResult: CustomStringConvertible {
  public var description: String {
    switch self {
    case .success(let value): return "success(\(value))"
    case .failure(let error): return "failure(\(Self.message(of: error)))"
    }
  }
}

extension TaskResult: CasePathable {
  public static var allCasePaths: AllCasePaths { AllCasePaths() }

  /// The case paths of `TaskResult`: `\.response.success`, as in TCA.
  public struct AllCasePaths: Sendable {
    /// `.success(value)`.
    public var success: AnyCasePath<TaskResult, Success> {
      AnyCasePath(
        embed: { .success($0) },
        extract: {
          guard case .success(let value) = $0 else { return nil }
          return value
        })
    }

    /// `.failure(error)`.
    public var failure: AnyCasePath<TaskResult, any Error> {
      AnyCasePath(
        embed: { .failure($0) },
        extract: {
          guard case .failure(let error) = $0 else { return nil }
          return error
        })
    }
  }
}

extension Result where Success: Sendable, Failure == any Error {
  /// The Swift `Result` of a `TaskResult`, as TCA's `Result(taskResult)`.
  public init(_ result: TaskResult<Success>) {
    switch result {
    case .success(let value): self = .success(value)
    case .failure(let error): self = .failure(error)
    }
  }
}
