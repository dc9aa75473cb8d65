import Dependencies
import Foundation

/// What a test store knows of the shared values its steps change: for each shared storage (a
/// `Shared(value:)` box or the reference of a key) that changed since the last assertion, the
/// value it had before the first of those changes.
///
/// A shared value is a reference: a copy of a state holds the same reference, so the state a
/// step starts from and the state it leaves cannot hold two values of it. The test store
/// puts its tracker in the dependencies of the reducer, and `withLock` records the value a
/// storage had before its first change (by the reducer, or by an effect, which runs with the
/// reducer's dependencies). While the store checks a step, it makes the tracker the one that
/// asserts (``asserting(_:)``), and then:
///
/// - reading a shared value gives the recorded value (the value before the step) when there
///   is one, the current value otherwise;
/// - `withLock` changes the recorded value, not the storage: an assertion closure's
///   `$0.$count.withLock { $0 = 1 }` says what the value is expected to be;
/// - `==` compares the left side's recorded (expected) value with the right side's current
///   (actual) value, and a diff shows the two, so that `expected == actual` sees the change.
///
/// After each check the store forgets the recorded values (``reset()``).
final class SharedChangeTracker: @unchecked Sendable {
  /// The tracker of the check in progress, if any.
  @TaskLocal static var asserting: SharedChangeTracker?

  private struct Change {
    /// The storage, kept alive while its change is recorded.
    let storage: AnyObject
    /// The value before the change (or, while asserting, the value expected).
    var value: Any
  }

  private let lock = NSLock()
  private var changes: [ObjectIdentifier: Change] = [:]

  /// Whether a storage changed since the last ``reset()``.
  var hasChanges: Bool {
    lock.withLock { !changes.isEmpty }
  }

  /// The value recorded for `storage`, if any.
  func recordedValue<Value>(of storage: AnyObject, as _: Value.Type) -> Value? {
    lock.withLock { changes[ObjectIdentifier(storage)]?.value as? Value }
  }

  /// Records `value` as the value of `storage` before its changes, unless one is recorded.
  ///
  /// The value is read outside the tracker's lock: reading it takes the storage's lock, which
  /// a `withLock` on another thread may hold while it records the change of another storage.
  func recordValueBeforeChange(_ value: @autoclosure () -> Any, of storage: AnyObject) {
    let id = ObjectIdentifier(storage)
    if lock.withLock({ changes[id] != nil }) { return }
    let value = value()
    lock.withLock {
      if changes[id] == nil { changes[id] = Change(storage: storage, value: value) }
    }
  }

  /// Replaces the value recorded for `storage`: what an assertion expects of it.
  func setRecordedValue(_ value: Any, of storage: AnyObject) {
    lock.withLock { changes[ObjectIdentifier(storage)] = Change(storage: storage, value: value) }
  }

  /// Forgets every recorded value.
  func reset() {
    lock.withLock { changes.removeAll() }
  }

  /// Runs `body` with this tracker asserting.
  func asserting<R>(_ body: () throws -> R) rethrows -> R {
    try Self.$asserting.withValue(self, operation: body)
  }
}

extension DependencyValues {
  /// The tracker that records shared changes for a test store: set in the dependencies the
  /// store's reducer (and so its effects) runs with; `nil` elsewhere.
  var sharedChangeTracker: SharedChangeTracker? {
    get { self[SharedChangeTrackerKey.self] }
    set { self[SharedChangeTrackerKey.self] = newValue }
  }
}

private enum SharedChangeTrackerKey: DependencyKey {
  static var liveValue: SharedChangeTracker? { nil }
  static var testValue: SharedChangeTracker? { nil }
}
