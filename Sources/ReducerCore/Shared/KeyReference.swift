import ConcurrencyExtras
import Dependencies
import Foundation
import IssueReporting

/// The storage of a key's value: one per key id in ``SharedReferences``, which every `@Shared`
/// and `@SharedReader` of the key reads (and writes) in the same dependencies.
///
/// It loads the value when made (unless made by `load(_:)` or `init(require:)`, which load it
/// themselves), follows the key's subscription, and, for a ``SharedKey``, saves every change
/// made through `withLock`. A failed load or save is reported as an issue at the `@Shared`
/// that made the reference, and kept in ``loadError`` or ``saveError``; the value stays as it
/// was (for a load at the start, the initial value).
final class KeyReference<Key: SharedReaderKey>: SharedReference, @unchecked Sendable {
  typealias Value = Key.Value

  let key: Key
  private let lock = NSRecursiveLock()
  private var value: Value
  private var _isLoading = false
  private var _loadError: (any Error)?
  private var _saveError: (any Error)?
  private var subscription: SharedSubscription?
  private let location: SourceLocation
  /// Called when the reference is released: ``SharedReferences`` forgets it.
  var onDeinit: (@Sendable () -> Void)?

  init(key: Key, initialValue: Value, skipInitialLoad: Bool, location: SourceLocation) {
    self.key = key
    self.value = initialValue
    self.location = location
    let callback: @Sendable (Result<Value?, any Error>) -> Void = { [weak self] result in
      self?.update(with: result, initialValue: initialValue)
    }
    if !skipInitialLoad {
      isLoading = true
      key.load(context: .initialValue(initialValue), continuation: LoadContinuation("\(key)", callback: callback))
    }
    subscription = key.subscribe(
      context: skipInitialLoad ? .userInitiated : .initialValue(initialValue),
      subscriber: SharedSubscriber(callback: callback, onLoading: { [weak self] in self?.isLoading = $0 }))
  }

  deinit {
    subscription?.cancel()
    onDeinit?()
  }

  /// Takes a loaded (or subscribed) value, or keeps the error.
  private func update(with result: Result<Value?, any Error>, initialValue: Value) {
    switch result {
    case .success(let newValue):
      lock.withLock {
        _isLoading = false
        _loadError = nil
        value = newValue ?? initialValue
      }
    case .failure(let error):
      lock.withLock {
        _isLoading = false
        _loadError = error
      }
      report("Could not load", error)
    }
  }

  /// Reports a failure of the key: `Could not load the shared value of '.fileStorage(…)'.`,
  /// then what went wrong.
  private func report(_ failure: String, _ error: any Error) {
    reportIssue(
      """
      \(failure) the shared value of '\(key)'.

      \(describe(error))
      """,
      fileID: location.fileID, filePath: location.filePath, line: location.line, column: location.column)
  }

  var storage: AnyObject { self }
  var currentValue: Value { lock.withLock { value } }

  var isLoading: Bool {
    get { lock.withLock { _isLoading } }
    set { lock.withLock { _isLoading = newValue } }
  }

  var loadError: (any Error)? { lock.withLock { _loadError } }

  func recordedValue(in tracker: SharedChangeTracker) -> Value? {
    tracker.recordedValue(of: self, as: Value.self)
  }

  func load() async throws {
    isLoading = true
    do {
      let key = key
      let loaded: Value? = try await withUnsafeThrowingContinuation { continuation in
        key.load(
          context: .userInitiated,
          continuation: LoadContinuation("\(key)") { continuation.resume(with: $0) })
      }
      lock.withLock {
        _isLoading = false
        _loadError = nil
        if let loaded { value = loaded }
      }
    } catch {
      lock.withLock {
        _isLoading = false
        _loadError = error
      }
      throw error
    }
  }

  func isSame(as other: any SharedReference) -> Bool {
    other === self
  }

  var description: String {
    String(reflecting: key)
  }
}

extension KeyReference: MutableSharedReference where Key: SharedKey {
  var saveError: (any Error)? { lock.withLock { _saveError } }

  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    // A copy, as `ValueReference.withLock` changes.
    let (result, newValue) = try lock.withLock {
      var copy = value
      defer { value = copy }
      let result = try body(&copy)
      return (result, copy)
    }
    let key = key
    key.save(
      newValue, context: .didSet,
      continuation: SaveContinuation("\(key)") { [weak self] result in
        guard let self else { return }
        switch result {
        case .success:
          lock.withLock { _saveError = nil }
        case .failure(let error):
          lock.withLock { _saveError = error }
          report("Could not save", error)
        }
      })
    return result
  }

  func setRecordedValue(_ value: Value, in tracker: SharedChangeTracker) {
    tracker.setRecordedValue(value, of: self)
  }

  func recordValueBeforeChange(in tracker: SharedChangeTracker) {
    tracker.recordValueBeforeChange(self.currentValue, of: self)
  }

  func save() async throws {
    let key = key
    let value = currentValue
    do {
      _ = try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Never?, any Error>) in
        key.save(
          value, context: .userInitiated,
          continuation: SaveContinuation("\(key)") { continuation.resume(with: $0) })
      }
      lock.withLock { _saveError = nil }
    } catch {
      lock.withLock { _saveError = error }
      throw error
    }
  }
}

/// Where a `@Shared` was declared (or a `Shared` made): where its reference reports the
/// failures of its key.
struct SourceLocation: Sendable {
  var fileID: StaticString
  var filePath: StaticString
  var line: UInt
  var column: UInt
}

/// An error as a failure of a key says it: a decoding error by what it says and where
/// (`At [1].id: Expected to decode Int but found a string instead.`).
private func describe(_ error: any Error) -> String {
  guard let error = error as? DecodingError else { return String(describing: error) }
  let context: DecodingError.Context
  let message: String
  switch error {
  case .keyNotFound(let key, let c):
    context = c
    message = "No value for the key \"\(key.stringValue)\"."
  case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c):
    context = c
    message = c.debugDescription
  @unknown default:
    return String(describing: error)
  }
  let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
  return path.isEmpty ? message : "At \(path): \(message)"
}

// MARK: - The references of the keys

/// The references of keys: one per key id, while a `@Shared` of it is alive.
///
/// A dependency (`DependencyValues.sharedReferences`): each context (the
/// live app, each test) has its own, so two tests never share a reference.
final class SharedReferences: @unchecked Sendable {
  private struct Weak<Key: SharedReaderKey> {
    weak var reference: KeyReference<Key>?
  }

  private let lock = NSLock()
  private var references: [AnyHashable: Any] = [:]

  /// The reference of `key`: the one alive, or a new one that starts from `initialValue`.
  func reference<Key: SharedReaderKey>(
    for key: Key, initialValue: () throws -> Key.Value, skipInitialLoad: Bool, location: SourceLocation
  ) rethrows -> KeyReference<Key> {
    let id = AnyHashable(key.id)
    if let reference = lock.withLock({ (references[id] as? Weak<Key>)?.reference }) {
      return reference
    }
    // Made outside the lock: loading may make other references.
    let reference = KeyReference(
      key: key, initialValue: try initialValue(), skipInitialLoad: skipInitialLoad, location: location)
    return lock.withLock {
      if let existing = (references[id] as? Weak<Key>)?.reference { return existing }
      references[id] = Weak(reference: reference)
      let sendableID = UncheckedSendable(id)
      reference.onDeinit = { [weak self] in self?.forget(sendableID.value, as: Key.self) }
      return reference
    }
  }

  /// Forgets the reference of `id` if it was released.
  private func forget<Key: SharedReaderKey>(_ id: AnyHashable, as _: Key.Type) {
    lock.withLock {
      if let entry = references[id] as? Weak<Key>, entry.reference == nil {
        references[id] = nil
      }
    }
  }
}

extension DependencyValues {
  /// The references of keys that `@Shared` and `@SharedReader` share.
  var sharedReferences: SharedReferences {
    get { self[SharedReferencesKey.self] }
    set { self[SharedReferencesKey.self] = newValue }
  }
}

private enum SharedReferencesKey: DependencyKey {
  static var liveValue: SharedReferences { SharedReferences() }
  static var testValue: SharedReferences { SharedReferences() }
}

// MARK: - Keys with a default

extension SharedReaderKey {
  /// A key with a default value, for type-safe keys that need no value at the `@Shared`:
  ///
  /// ```swift
  /// extension SharedKey where Self == AppStorageKey<Bool>.Default {
  ///   static var isOn: Self {
  ///     Self[.appStorage("isOn"), default: false]
  ///   }
  /// }
  ///
  /// @Shared(.isOn) var isOn
  /// ```
  public typealias Default = _SharedKeyDefault<Self>
}

/// A key with a default value: `Key.Default`, made with `Self[key, default: value]`.
public struct _SharedKeyDefault<Base: SharedReaderKey>: SharedReaderKey {
  let base: Base
  let defaultValue: @Sendable () -> Base.Value

  public var id: Base.ID { base.id }

  /// The default value.
  public var initialValue: Base.Value { defaultValue() }

  /// `key` with `value` as its default: the value of a `@Shared` of it while the key's
  /// storage has none.
  public static subscript(_ key: Base, default value: @autoclosure @escaping @Sendable () -> Base.Value) -> Self {
    Self(base: key, defaultValue: value)
  }

  public func load(context: LoadContext<Base.Value>, continuation: LoadContinuation<Base.Value>) {
    base.load(context: context, continuation: continuation)
  }

  public func subscribe(context: LoadContext<Base.Value>, subscriber: SharedSubscriber<Base.Value>)
    -> SharedSubscription
  {
    base.subscribe(context: context, subscriber: subscriber)
  }
}

extension _SharedKeyDefault: SharedKey where Base: SharedKey {
  public func save(_ value: Base.Value, context: SaveContext, continuation: SaveContinuation) {
    base.save(value, context: context, continuation: continuation)
  }
}

extension _SharedKeyDefault: CustomStringConvertible {
  public var description: String {
    "\(Base.self).Default[\(base), default: \(defaultValue())]"
  }
}
