import Foundation

/// Where a shared value lives, as ``SharedReader`` reads it.
///
/// A reference is either a storage (a `Shared(value:)` box, or the reference of a key, one
/// per key) or a projection of another reference (a member through a key path, an unwrapped
/// optional, a value read through a closure). A ``SharedChangeTracker`` records values by
/// storage; a projection reads and writes them through its base.
protocol SharedReference<Value>: AnyObject, Sendable, CustomStringConvertible {
  associatedtype Value

  /// The storage the value lives in: what trackers record values by, and what diffs identify
  /// the value by.
  var storage: AnyObject { get }
  /// The value now.
  var currentValue: Value { get }
  /// The value that `tracker` recorded for the storage, projected, if it recorded one.
  func recordedValue(in tracker: SharedChangeTracker) -> Value?
  /// Whether a load from the key's external source is in progress.
  var isLoading: Bool { get }
  /// The error of the last load, until one succeeds.
  var loadError: (any Error)? { get }
  /// Loads the value again from the key's external source, if there is one.
  func load() async throws
  /// Whether `other` reads the same value the same way: the same storage, projected alike.
  func isSame(as other: any SharedReference) -> Bool
}

/// Where a shared value lives, as ``Shared`` reads and writes it.
protocol MutableSharedReference<Value>: SharedReference {
  /// The error of the last save, until one succeeds.
  var saveError: (any Error)? { get }
  /// Changes the value with exclusive access, and saves it to the key's external source, if
  /// there is one.
  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R
  /// Records `value` in `tracker` as the value the storage is expected to have (projected
  /// back into the storage's value).
  func setRecordedValue(_ value: Value, in tracker: SharedChangeTracker)
  /// Records the storage's current value in `tracker`, unless it recorded one: before the
  /// first change since the tracker's last reset.
  func recordValueBeforeChange(in tracker: SharedChangeTracker)
  /// Saves the value to the key's external source now, if there is one.
  func save() async throws
}

extension SharedReference {
  /// The value that reading it gives: while `tracker` asserts, the value it recorded (if any).
  func value(assertedBy tracker: SharedChangeTracker?) -> Value {
    if let tracker, let recorded = recordedValue(in: tracker) { return recorded }
    return currentValue
  }
}

// MARK: - A value

/// The storage of `Shared(value:)`: a value in a box, shared by the copies of the `Shared`
/// and the references derived from it.
final class ValueReference<Value>: MutableSharedReference, @unchecked Sendable {
  private let lock = NSRecursiveLock()
  private var value: Value

  init(_ value: Value) {
    self.value = value
  }

  var storage: AnyObject { self }
  var currentValue: Value { lock.withLock { value } }
  var isLoading: Bool { false }
  var loadError: (any Error)? { nil }
  var saveError: (any Error)? { nil }

  func recordedValue(in tracker: SharedChangeTracker) -> Value? {
    tracker.recordedValue(of: self, as: Value.self)
  }

  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    // The body changes a copy, stored when it returns: a read of the value while it runs
    // (of the same shared value, or of one derived from it) reads the value before the
    // change, where an inout access to `value` for the whole body would be a conflicting
    // access.
    try lock.withLock {
      var copy = value
      defer { value = copy }
      return try body(&copy)
    }
  }

  func setRecordedValue(_ value: Value, in tracker: SharedChangeTracker) {
    tracker.setRecordedValue(value, of: self)
  }

  func recordValueBeforeChange(in tracker: SharedChangeTracker) {
    tracker.recordValueBeforeChange(self.currentValue, of: self)
  }

  func load() async throws {}
  func save() async throws {}

  func isSame(as other: any SharedReference) -> Bool {
    other === self
  }

  var description: String {
    "value: \(String(reflecting: currentValue))"
  }
}

// MARK: - Projections

/// A member of another reference's value, through a key path: `$syncUp.attendees`.
final class KeyPathReference<Base: SharedReference, Member, Path: KeyPath<Base.Value, Member>>: SharedReference,
  @unchecked Sendable
{
  let base: Base
  let keyPath: Path

  init(base: Base, keyPath: Path) {
    self.base = base
    self.keyPath = keyPath
  }

  var storage: AnyObject { base.storage }
  var currentValue: Member { base.currentValue[keyPath: keyPath] }
  var isLoading: Bool { base.isLoading }
  var loadError: (any Error)? { base.loadError }

  func recordedValue(in tracker: SharedChangeTracker) -> Member? {
    base.recordedValue(in: tracker)?[keyPath: keyPath]
  }

  func load() async throws {
    try await base.load()
  }

  func isSame(as other: any SharedReference) -> Bool {
    guard let other = other as? KeyPathReference else { return false }
    return other.keyPath == keyPath && other.base.isSame(as: base)
  }

  var description: String {
    "\(base.description)[dynamicMember: \(keyPath)]"
  }
}

extension KeyPathReference: MutableSharedReference
where Base: MutableSharedReference, Path: WritableKeyPath<Base.Value, Member> {
  var saveError: (any Error)? { base.saveError }

  func withLock<R>(_ body: (inout Member) throws -> R) rethrows -> R {
    try base.withLock { try body(&$0[keyPath: keyPath]) }
  }

  func setRecordedValue(_ value: Member, in tracker: SharedChangeTracker) {
    var whole = base.value(assertedBy: tracker)
    whole[keyPath: keyPath] = value
    base.setRecordedValue(whole, in: tracker)
  }

  func recordValueBeforeChange(in tracker: SharedChangeTracker) {
    base.recordValueBeforeChange(in: tracker)
  }

  func save() async throws {
    try await base.save()
  }
}

/// The value of a reference to an optional, unwrapped: `Shared($currentUser)`. While the
/// base is `nil`, it reads (and changes) the last value it had.
final class UnwrappedReference<Base: SharedReference<Wrapped?>, Wrapped>: SharedReference, @unchecked Sendable {
  let base: Base
  private let lock = NSRecursiveLock()
  private var lastValue: Wrapped

  init(base: Base, initialValue: Wrapped) {
    self.base = base
    self.lastValue = initialValue
  }

  var storage: AnyObject { base.storage }

  var currentValue: Wrapped {
    guard let value = base.currentValue else { return lock.withLock { lastValue } }
    lock.withLock { lastValue = value }
    return value
  }

  var isLoading: Bool { base.isLoading }
  var loadError: (any Error)? { base.loadError }

  func recordedValue(in tracker: SharedChangeTracker) -> Wrapped? {
    base.recordedValue(in: tracker) ?? nil
  }

  func load() async throws {
    try await base.load()
  }

  func isSame(as other: any SharedReference) -> Bool {
    guard let other = other as? UnwrappedReference else { return false }
    return other.base.isSame(as: base)
  }

  var description: String {
    "\(base.description)!"
  }
}

extension UnwrappedReference: MutableSharedReference where Base: MutableSharedReference {
  var saveError: (any Error)? { base.saveError }

  func withLock<R>(_ body: (inout Wrapped) throws -> R) rethrows -> R {
    try base.withLock { value in
      guard var unwrapped = value else {
        // A copy, as `ValueReference.withLock` changes.
        return try lock.withLock {
          var copy = lastValue
          defer { lastValue = copy }
          return try body(&copy)
        }
      }
      defer {
        value = unwrapped
        lock.withLock { lastValue = unwrapped }
      }
      return try body(&unwrapped)
    }
  }

  func setRecordedValue(_ value: Wrapped, in tracker: SharedChangeTracker) {
    guard base.value(assertedBy: tracker) != nil else { return }
    base.setRecordedValue(value, in: tracker)
  }

  func recordValueBeforeChange(in tracker: SharedChangeTracker) {
    base.recordValueBeforeChange(in: tracker)
  }

  func save() async throws {
    try await base.save()
  }
}

/// A value computed from another reference's value: `$shared.read { … }`.
final class ReadClosureReference<Base: SharedReference, Member>: SharedReference, @unchecked Sendable {
  let base: Base
  let body: @Sendable (Base.Value) -> Member

  init(base: Base, body: @escaping @Sendable (Base.Value) -> Member) {
    self.base = base
    self.body = body
  }

  var storage: AnyObject { base.storage }
  var currentValue: Member { body(base.currentValue) }
  var isLoading: Bool { base.isLoading }
  var loadError: (any Error)? { base.loadError }

  func recordedValue(in tracker: SharedChangeTracker) -> Member? {
    base.recordedValue(in: tracker).map(body)
  }

  func load() async throws {
    try await base.load()
  }

  func isSame(as other: any SharedReference) -> Bool {
    other === self
  }

  var description: String {
    ".read(\(base.description), as: \(Member.self).self)"
  }
}
