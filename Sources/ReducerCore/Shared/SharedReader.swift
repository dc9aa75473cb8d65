import CustomDump
import Foundation

/// A property wrapper that reads a shared value without changing it: swift-sharing 2's
/// `@SharedReader`.
///
/// ```swift
/// @SharedReader(.appStorage("isOn")) var isOn = false
/// @SharedReader var count: Int  // SharedReader(state.$count), from a parent's @Shared
/// ```
@dynamicMemberLookup
@propertyWrapper
public struct SharedReader<Value> {
  let box: Box

  var reference: any SharedReference<Value> {
    box.reference
  }

  init(reference: any SharedReference<Value>) {
    self.box = Box(reference)
  }

  /// A read-only reference to a value of its own, which no key stores.
  public init(value: sending Value) {
    self.init(reference: ValueReference(value))
  }

  /// A read-only reference to a shared value.
  public init(_ base: Shared<Value>) {
    self.init(reference: base.reference)
  }

  /// A read-only reference to the value of a shared optional, unwrapped, or `nil` while it
  /// is `nil`.
  public init?(_ base: Shared<Value?>) {
    self.init(SharedReader<Value?>(base))
  }

  /// The value of a read-only shared optional, unwrapped, or `nil` while it is `nil`.
  public init?(_ base: SharedReader<Value?>) {
    guard let initialValue = base.wrappedValue else { return nil }
    func unwrap(_ reference: some SharedReference<Value?>) -> any SharedReference<Value> {
      UnwrappedReference(base: reference, initialValue: initialValue)
    }
    self.init(reference: unwrap(base.reference))
  }

  /// The same reference: what Swift calls for a `@SharedReader` parameter of a closure.
  public init(projectedValue: Self) {
    self = projectedValue
  }

  /// The value.
  public var wrappedValue: Value {
    box.reference.value(assertedBy: SharedChangeTracker.asserting)
  }

  /// The reference itself, `$value`.
  public var projectedValue: Self {
    get { self }
    nonmutating set { box.reference = newValue.reference }
  }

  /// A read-only reference to a value computed from this one.
  public func read<Member>(_ body: @escaping @Sendable (Value) -> Member) -> SharedReader<Member> {
    func project(_ reference: some SharedReference<Value>) -> SharedReader<Member> {
      SharedReader<Member>(reference: ReadClosureReference(base: reference, body: body))
    }
    return project(reference)
  }

  /// A read-only reference to a member of the value: `$settings.isOn`.
  public subscript<Member>(dynamicMember keyPath: KeyPath<Value, Member>) -> SharedReader<Member> {
    func project(_ reference: some SharedReference<Value>) -> SharedReader<Member> {
      SharedReader<Member>(reference: KeyPathReference(base: reference, keyPath: keyPath))
    }
    return project(reference)
  }

  /// Loads the value again from the key's storage (nothing for a value without a key).
  public func load() async throws {
    try await reference.load()
  }

  /// Whether the key's storage is loading the value.
  public var isLoading: Bool {
    reference.isLoading
  }

  /// The error of the last load from the key's storage, until a load succeeds.
  public var loadError: (any Error)? {
    reference.loadError
  }

  /// The reference of a `SharedReader` and its copies.
  final class Box: @unchecked Sendable {
    private let lock = NSLock()
    private var _reference: any SharedReference<Value>

    init(_ reference: any SharedReference<Value>) {
      SharedValuesMade.increment()
      self._reference = reference
    }

    var reference: any SharedReference<Value> {
      get { lock.withLock { _reference } }
      set { lock.withLock { _reference = newValue } }
    }
  }
}

extension SharedReader {
  /// A read-only reference to a constant value.
  @available(*, deprecated, message: "Use 'SharedReader(value:)', instead.")
  public static func constant(_ value: sending Value) -> Self {
    Self(value: value)
  }
}

extension SharedReader: Sendable {}

extension SharedReader: Equatable where Value: Equatable {
  /// Whether the values are equal; in a test store's check, as for ``Shared``.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    if let tracker = SharedChangeTracker.asserting {
      return lhs.reference.value(assertedBy: tracker) == rhs.reference.currentValue
    }
    return lhs.wrappedValue == rhs.wrappedValue
  }
}

extension SharedReader: Identifiable where Value: Identifiable {
  public var id: Value.ID {
    wrappedValue.id
  }
}

extension SharedReader: CustomReflectable {
  public var customMirror: Mirror {
    Mirror(reflecting: wrappedValue)
  }
}

extension SharedReader: CustomStringConvertible {
  public var description: String {
    "\(Self.self)(\(reference.description))"
  }
}

extension SharedReader: CustomDumpRepresentable {
  public var customDumpValue: Any {
    wrappedValue
  }
}

extension SharedReader: _CustomDiffObject {
  public var _customDiffValues: (Any, Any) {
    let reference = box.reference
    return (reference.value(assertedBy: SharedChangeTracker.asserting), reference.currentValue)
  }

  public var _objectIdentifier: ObjectIdentifier {
    ObjectIdentifier(box.reference.storage)
  }
}
