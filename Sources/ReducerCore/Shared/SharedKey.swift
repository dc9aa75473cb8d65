import Foundation
import IssueReporting

/// A type that loads a shared value from an external system and follows its changes:
/// swift-sharing's `SharedReaderKey`, which ``SharedReader`` takes.
///
/// ReducerCore's keys are ``InMemoryKey`` (`.inMemory("key")`), ``AppStorageKey``
/// (`.appStorage("key")`) and ``FileStorageKey`` (`.fileStorage(url)`). A key of your own
/// conforms to this protocol (or to ``SharedKey``, to save as well), and a type-safe key is a
/// static member in a constrained extension:
///
/// ```swift
/// extension SharedReaderKey where Self == FileStorageKey<IdentifiedArrayOf<SyncUp>>.Default {
///   static var syncUps: Self {
///     Self[.fileStorage(.documentsDirectory.appending(component: "sync-ups.json")), default: []]
///   }
/// }
///
/// @Shared(.syncUps) var syncUps
/// ```
public protocol SharedReaderKey<Value>: Sendable {
  /// The type of the value.
  associatedtype Value: Sendable

  /// The identity of a key: keys with equal ids share one reference.
  associatedtype ID: Hashable = Self

  /// The identity of the key: every `@Shared` of a key with this id reads and writes one
  /// reference (one per key in the references of the current dependencies).
  var id: ID { get }

  /// Loads the freshest value from the external system.
  ///
  /// - Parameters:
  ///   - context: Why the value is loaded: for a new reference (with its initial value), or
  ///     because `load()` was called.
  ///   - continuation: Resume it exactly once, with the value, with the initial value (when
  ///     the system has none), or with an error.
  func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>)

  /// Follows the changes of the external system.
  ///
  /// - Parameters:
  ///   - context: Why the reference subscribes, as for ``load(context:continuation:)``.
  ///   - subscriber: What to tell of each new value (or error).
  /// - Returns: The subscription: cancelled, or deinitialized, the subscriber hears no more.
  func subscribe(context: LoadContext<Value>, subscriber: SharedSubscriber<Value>) -> SharedSubscription
}

extension SharedReaderKey where ID == Self {
  public var id: ID { self }
}

/// A type that loads, follows and saves a shared value: swift-sharing's `SharedKey`, which
/// ``Shared`` takes.
public protocol SharedKey<Value>: SharedReaderKey {
  /// Saves a value to the external system.
  ///
  /// - Parameters:
  ///   - value: The value.
  ///   - context: Why: a change through `withLock` (``SaveContext/didSet``), or a call to
  ///     `save()` (``SaveContext/userInitiated``).
  ///   - continuation: Resume it exactly once, when the value is saved or with an error.
  func save(_ value: Value, context: SaveContext, continuation: SaveContinuation)
}

/// Why a ``SharedReaderKey`` loads its value.
public enum LoadContext<Value> {
  /// A `@Shared` or `@SharedReader` made a reference of the key, with this initial value.
  case initialValue(Value)
  /// `load()`, `load(_:)` or `init(require:)` asked for the value.
  case userInitiated

  /// The value of ``initialValue(_:)``.
  public var initialValue: Value? {
    guard case .initialValue(let value) = self else { return nil }
    return value
  }
}

extension LoadContext: Sendable where Value: Sendable {}
extension LoadContext: Equatable where Value: Equatable {}
extension LoadContext: Hashable where Value: Hashable {}

/// Why a ``SharedKey`` saves its value.
public enum SaveContext: Hashable, Sendable {
  /// The value changed, through `withLock`: a key may wait and save later changes at once.
  case didSet
  /// `save()` asked for it: the key saves now.
  case userInitiated
}

// MARK: - Continuations

/// How a key hands over the value it loaded: resume it exactly once.
///
/// Resuming twice reports an issue (the second is ignored); a continuation never resumed
/// reports one when it is released, and resumes with the initial value.
public struct LoadContinuation<Value>: Sendable {
  private let box: ContinuationBox<Value>

  /// A continuation that hands the result to `callback`.
  ///
  /// - Parameters:
  ///   - description: The key, as issues name it.
  ///   - callback: What to do with the value (`nil`: the initial value), or the error.
  public init(
    _ description: @autoclosure @escaping @Sendable () -> String = "",
    callback: @escaping @Sendable (Result<Value?, any Error>) -> Void
  ) {
    self.box = ContinuationBox(description: description, callback: callback)
  }

  /// Resumes with a value.
  public func resume(returning value: Value) {
    resume(with: .success(value))
  }

  /// Resumes with an error.
  public func resume(throwing error: any Error) {
    resume(with: .failure(error))
  }

  /// Resumes with the initial value: the external system has none.
  public func resumeReturningInitialValue() {
    resume(with: .success(nil))
  }

  /// Resumes with a value (`nil`: the initial value), or an error.
  public func resume(with result: Result<Value?, any Error>) {
    box.resume(with: result)
  }
}

/// How a key tells that it saved a value: resume it exactly once.
///
/// Resuming twice reports an issue (the second is ignored); a continuation never resumed
/// reports one when it is released.
public struct SaveContinuation: Sendable {
  private let box: ContinuationBox<Never>

  /// A continuation that hands the result to `callback`.
  public init(
    _ description: @autoclosure @escaping @Sendable () -> String = "",
    callback: @escaping @Sendable (Result<Never?, any Error>) -> Void
  ) {
    self.box = ContinuationBox(description: description, callback: callback)
  }

  /// Resumes: the value is saved.
  public func resume() {
    resume(with: .success(()))
  }

  /// Resumes with an error: the value could not be saved.
  public func resume(throwing error: any Error) {
    resume(with: .failure(error))
  }

  /// Resumes with a result.
  public func resume(with result: Result<Void, any Error>) {
    box.resume(with: result.map { nil })
  }
}

/// What a key tells a reference of the changes of its external system.
public struct SharedSubscriber<Value>: Sendable {
  let callback: @Sendable (Result<Value?, any Error>) -> Void
  let onLoading: (@Sendable (Bool) -> Void)?

  /// A subscriber that hands each result to `callback` and loading states to `onLoading`.
  public init(
    callback: @escaping @Sendable (Result<Value?, any Error>) -> Void,
    onLoading: (@Sendable (Bool) -> Void)? = nil
  ) {
    self.callback = callback
    self.onLoading = onLoading
  }

  /// A new value.
  public func yield(_ value: Value) {
    yield(with: .success(value))
  }

  /// The external system is (or is no longer) loading.
  public func yieldLoading(_ isLoading: Bool = true) {
    onLoading?(isLoading)
  }

  /// The external system no longer has a value: the reference takes its initial value.
  public func yieldReturningInitialValue() {
    yield(with: .success(nil))
  }

  /// An error.
  public func yield(throwing error: any Error) {
    yield(with: .failure(error))
  }

  /// A new value (`nil`: the initial value), or an error.
  public func yield(with result: Result<Value?, any Error>) {
    callback(result)
  }
}

/// A subscription to a key's external system: it ends when cancelled or released.
public struct SharedSubscription: Sendable {
  private let box: Box

  /// A subscription that calls `cancel` when it ends.
  public init(_ cancel: @escaping @Sendable () -> Void) {
    self.box = Box(cancel)
  }

  /// Ends the subscription.
  public func cancel() {
    box.cancel()
  }

  private final class Box: @unchecked Sendable {
    private let lock = NSLock()
    private var onCancel: (@Sendable () -> Void)?

    init(_ onCancel: @escaping @Sendable () -> Void) {
      self.onCancel = onCancel
    }

    func cancel() {
      let onCancel = lock.withLock {
        defer { self.onCancel = nil }
        return self.onCancel
      }
      onCancel?()
    }

    deinit {
      cancel()
    }
  }
}

/// The callback of a continuation, called once.
private final class ContinuationBox<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var callback: (@Sendable (Result<Value?, any Error>) -> Void)?
  private let description: @Sendable () -> String

  init(description: @escaping @Sendable () -> String, callback: @escaping @Sendable (Result<Value?, any Error>) -> Void) {
    self.description = description
    self.callback = callback
  }

  /// `'.inMemory("count")'`, or `A shared key` when the continuation was not given one.
  private var name: String {
    let description = description()
    return description.isEmpty ? "A shared key" : "'\(description)'"
  }

  func resume(with result: Result<Value?, any Error>) {
    let callback = lock.withLock {
      defer { self.callback = nil }
      return self.callback
    }
    guard let callback else {
      reportIssue("\(name) tried to resume its continuation more than once.")
      return
    }
    callback(result)
  }

  deinit {
    guard let callback else { return }
    reportIssue(
      """
      \(name) leaked its continuation without one of its resume methods being invoked. This \
      will cause tasks waiting on it to resume immediately.
      """)
    callback(.success(nil))
  }
}
