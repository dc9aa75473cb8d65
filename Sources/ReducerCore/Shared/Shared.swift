import CustomDump
import Dependencies
import Foundation

/// A property wrapper that shares a value with other features, and with external storage:
/// swift-sharing 2's `@Shared`, as TCA features use it.
///
/// ```swift
/// @ObservableState
/// struct State: Equatable {
///   @Shared(.inMemory("stats")) var stats = Stats()
///   @Shared(.appStorage("isOn")) var isOn = false
///   @Shared(.syncUps) var syncUps
///   @Shared var syncUp: SyncUp
/// }
///
/// state.$stats.withLock { $0.increment() }
/// ```
///
/// A `@Shared` value is a reference: the copies of a state, and every `@Shared` of the same
/// key (in the same dependencies), read and write one value. A key's value is loaded from its
/// storage (``InMemoryKey``, ``AppStorageKey``, ``FileStorageKey``, or a key of your own), and
/// each change is saved to it. It changes only through ``withLock(_:fileID:filePath:line:column:)``;
/// setting it directly is deprecated, as in swift-sharing 2.8.
///
/// In a ``TestStore``, a step that changes a shared value must assert it, as any state
/// change: `await store.send(.increment) { $0.$count.withLock { $0 = 1 } }`.
@dynamicMemberLookup
@propertyWrapper
public struct Shared<Value> {
  let box: Box

  var reference: any MutableSharedReference<Value> {
    box.reference
  }

  init(reference: any MutableSharedReference<Value>) {
    self.box = Box(reference)
  }

  /// A shared reference to a value of its own, which no key stores: the value a parent hands
  /// a child, or a test its feature.
  ///
  /// ```swift
  /// SyncUpDetail.State(syncUp: Shared(value: .mock))
  /// ```
  public init(value: sending Value) {
    self.init(reference: ValueReference(value))
  }

  /// The value of a shared optional, unwrapped, or `nil` while it is `nil`.
  ///
  /// ```swift
  /// if let syncUp = Shared($syncUps[id: id]) {
  ///   syncUp  // Shared<SyncUp>
  /// }
  /// ```
  ///
  /// When the optional later becomes `nil`, the unwrapped reference keeps its last value.
  public init?(_ base: Shared<Value?>) {
    guard let initialValue = base.wrappedValue else { return nil }
    func unwrap(_ reference: some MutableSharedReference<Value?>) -> any MutableSharedReference<Value> {
      UnwrappedReference(base: reference, initialValue: initialValue)
    }
    self.init(reference: unwrap(base.reference))
  }

  /// The same reference: what Swift calls for a `@Shared` parameter of a closure.
  public init(projectedValue: Self) {
    self = projectedValue
  }

  /// The value.
  ///
  /// Change it with ``withLock(_:fileID:filePath:line:column:)``.
  public var wrappedValue: Value {
    get {
      let reference = box.reference
      return reference.value(assertedBy: SharedChangeTracker.asserting)
    }
    @available(
      *, deprecated,
      message: "Use '$shared.withLock' to modify a shared value with exclusive access"
    )
    nonmutating set {
      withLock { $0 = newValue }
    }
  }

  /// Changes the value with exclusive access, and saves it to the key's storage.
  ///
  /// ```swift
  /// state.$count.withLock { $0 += 1 }
  /// ```
  ///
  /// In a test store's assertion closure, it says what the value is expected to be after the
  /// step (the value itself does not change).
  ///
  /// - Parameter operation: Changes the value.
  /// - Returns: What `operation` returns.
  public func withLock<R>(
    _ operation: (inout Value) throws -> R,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) rethrows -> R {
    let reference = box.reference
    if let tracker = SharedChangeTracker.asserting {
      var value = reference.value(assertedBy: tracker)
      defer { reference.setRecordedValue(value, in: tracker) }
      return try operation(&value)
    }
    if let tracker = DependencyValues._current.sharedChangeTracker {
      reference.recordValueBeforeChange(in: tracker)
    }
    return try reference.withLock(operation)
  }

  /// The shared reference itself, `$value`: to hand it to a child feature, or to derive a
  /// reference to a member, `$syncUp.attendees`.
  ///
  /// Setting it replaces the reference of this `@Shared` (and of its copies).
  public var projectedValue: Self {
    get { self }
    nonmutating set { box.reference = newValue.reference }
  }

  /// A read-only reference to a value computed from this one.
  public func read<Member>(_ body: @escaping @Sendable (Value) -> Member) -> SharedReader<Member> {
    SharedReader(self).read(body)
  }

  /// A shared reference to a member of the value: `$syncUp.attendees`, `$syncUps[id: id]`.
  public subscript<Member>(dynamicMember keyPath: WritableKeyPath<Value, Member>) -> Shared<Member> {
    func project(_ reference: some MutableSharedReference<Value>) -> Shared<Member> {
      Shared<Member>(reference: KeyPathReference(base: reference, keyPath: keyPath))
    }
    return project(reference)
  }

  /// A read-only shared reference to a member of the value that cannot be set:
  /// `$topics.count`.
  public subscript<Member>(dynamicMember keyPath: KeyPath<Value, Member>) -> SharedReader<Member> {
    SharedReader(self)[dynamicMember: keyPath]
  }

  /// Loads the value again from the key's storage (nothing for a value without a key).
  public func load() async throws {
    try await reference.load()
  }

  /// Whether the key's storage is loading the value.
  public var isLoading: Bool {
    reference.isLoading
  }

  /// The error of the last load from the key's storage, until a load succeeds. The value
  /// stays the last one loaded (or the initial one).
  public var loadError: (any Error)? {
    reference.loadError
  }

  /// Saves the value to the key's storage now, without waiting (a file storage waits a
  /// moment after a change, to save several changes at once).
  public func save() async throws {
    try await reference.save()
  }

  /// The error of the last save to the key's storage, until a save succeeds.
  public var saveError: (any Error)? {
    reference.saveError
  }

  /// The reference of a `Shared` and its copies: replaced by `$shared = …` and `load(_:)`.
  final class Box: @unchecked Sendable {
    private let lock = NSLock()
    private var _reference: any MutableSharedReference<Value>

    init(_ reference: any MutableSharedReference<Value>) {
      SharedValuesMade.increment()
      self._reference = reference
    }

    var reference: any MutableSharedReference<Value> {
      get { lock.withLock { _reference } }
      set { lock.withLock { _reference = newValue } }
    }
  }
}

extension Shared: Sendable {}

extension Shared: Equatable where Value: Equatable {
  /// Whether the values are equal.
  ///
  /// While a test store checks a step, the left side is the state it expects and the right
  /// side the state it got: the left value is the one the assertion says (or, when it says
  /// nothing of it, the one before the step), the right value the one now.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    if let tracker = SharedChangeTracker.asserting {
      return lhs.reference.value(assertedBy: tracker) == rhs.reference.currentValue
    }
    return lhs.wrappedValue == rhs.wrappedValue
  }
}

extension Shared: Identifiable where Value: Identifiable {
  public var id: Value.ID {
    wrappedValue.id
  }
}

extension Shared: CustomReflectable {
  public var customMirror: Mirror {
    Mirror(reflecting: wrappedValue)
  }
}

extension Shared: CustomStringConvertible {
  public var description: String {
    "\(Self.self)(\(reference.description))"
  }
}

extension Shared: CustomDumpRepresentable {
  public var customDumpValue: Any {
    wrappedValue
  }
}

extension Shared: _CustomDiffObject {
  /// While a test store checks a step: the value the step is expected to leave (or had
  /// before it), and the value now.
  public var _customDiffValues: (Any, Any) {
    let reference = box.reference
    return (reference.value(assertedBy: SharedChangeTracker.asserting), reference.currentValue)
  }

  public var _objectIdentifier: ObjectIdentifier {
    ObjectIdentifier(box.reference.storage)
  }
}
