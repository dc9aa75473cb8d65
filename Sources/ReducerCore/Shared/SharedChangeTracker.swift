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
/// asserts (``check(_:)``), and then:
///
/// - reading a shared value gives the recorded value (the value before the step) when there
///   is one, the current value otherwise;
/// - `withLock` changes the recorded value, not the storage: an assertion closure's
///   `$0.$count.withLock { $0 = 1 }` says what the value is expected to be;
/// - `==` compares the left side's recorded (expected) value with the right side's current
///   (actual) value, and a diff shows the two, so that `expected == actual` sees the change.
///
/// After each check the store forgets the recorded values.
final class SharedChangeTracker: @unchecked Sendable {
  private struct Change {
    /// The storage, kept alive while its change is recorded.
    let storage: AnyObject
    /// The value before the change (or, while asserting, the value expected).
    var value: Any
  }

  private let lock = NSLock()
  @exclusivity(unchecked) private var changes: [ObjectIdentifier: Change] = [:]
  /// Whether the check in progress recorded a value: read and written only on the thread of
  /// the check, where the tracker asserts.
  @exclusivity(unchecked) private var recordedWhileAsserting = false

  /// Whether a storage changed since the last check.
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

  /// Replaces the value recorded for `storage`: what an assertion expects of it. Called while
  /// the tracker asserts, on the thread of the check.
  func setRecordedValue(_ value: Any, of storage: AnyObject) {
    recordedWhileAsserting = true
    lock.withLock { changes[ObjectIdentifier(storage)] = Change(storage: storage, value: value) }
  }

  /// Checks a step: runs `body` with this tracker asserting, given whether a storage changed
  /// since the last check, then forgets every recorded value.
  func check<R>(_ body: (_ hasChanges: Bool) throws -> R) rethrows -> R {
    let hadChanges = hasChanges
    recordedWhileAsserting = false
    let previous = Self.assertingTracker
    Self.assertingTracker = self
    defer {
      Self.assertingTracker = previous
      if hadChanges || recordedWhileAsserting { reset() }
    }
    return try body(hadChanges)
  }

  /// Forgets every recorded value.
  func reset() {
    lock.withLock { changes.removeAll() }
  }

  /// The tracker of the check in progress on this thread, if any.
  static var asserting: SharedChangeTracker? {
    assertingTracker
  }

  /// Runs `body` with no tracker asserting on this thread: shared values read as they are.
  static func withoutAsserting<R>(_ body: () throws -> R) rethrows -> R {
    let previous = assertingTracker
    assertingTracker = nil
    defer { assertingTracker = previous }
    return try body()
  }

  // A check runs synchronously, on one thread, so the tracker that asserts is a value of the
  // thread: a thread-specific value, which costs a step of a test store far less than a
  // task-local value would (pushing one allocates and locks the task's status).

  private static let assertingKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  private static var assertingTracker: SharedChangeTracker? {
    get {
      pthread_getspecific(assertingKey).map { Unmanaged<SharedChangeTracker>.fromOpaque($0).takeUnretainedValue() }
    }
    set {
      // Unretained: the test store keeps its tracker alive while it checks.
      pthread_setspecific(assertingKey, newValue.map { Unmanaged.passUnretained($0).toOpaque() })
    }
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
