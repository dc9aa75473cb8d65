import Dependencies
import Foundation

extension SharedReaderKey {
  /// A key of a value kept in memory, for the life of the app (of the test, in tests):
  /// `@Shared(.inMemory("stats")) var stats = Stats()`.
  ///
  /// The values live in the `DependencyValues.defaultInMemoryStorage` of the
  /// dependencies the key is made in.
  public static func inMemory<Value>(_ key: String) -> Self where Self == InMemoryKey<Value> {
    InMemoryKey(key)
  }
}

/// A key of a value kept in memory: ``SharedReaderKey/inMemory(_:)``.
public struct InMemoryKey<Value: Sendable>: SharedKey {
  let key: String
  private let storage: InMemoryStorage

  fileprivate init(_ key: String) {
    @Dependency(\.defaultInMemoryStorage) var storage
    self.key = key
    self.storage = storage
  }

  public var id: InMemoryKeyID {
    InMemoryKeyID(key: key, storage: storage)
  }

  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    switch context {
    case .initialValue(let initialValue):
      continuation.resume(returning: storage.value(forKey: key, default: initialValue))
    case .userInitiated:
      if let value = storage.value(forKey: key, as: Value.self) {
        continuation.resume(returning: value)
      } else {
        continuation.resumeReturningInitialValue()
      }
    }
  }

  public func subscribe(context _: LoadContext<Value>, subscriber _: SharedSubscriber<Value>) -> SharedSubscription {
    SharedSubscription {}
  }

  public func save(_ value: Value, context _: SaveContext, continuation: SaveContinuation) {
    storage.setValue(value, forKey: key)
    continuation.resume()
  }
}

extension InMemoryKey: CustomStringConvertible {
  public var description: String {
    ".inMemory(\(String(reflecting: key)))"
  }
}

/// The identity of an ``InMemoryKey``: its name and its storage.
public struct InMemoryKeyID: Hashable {
  let key: String
  let storage: InMemoryStorage
}

/// Where in-memory keys keep their values: `DependencyValues.defaultInMemoryStorage`.
public struct InMemoryStorage: Hashable, Sendable {
  private let values = Values()

  /// An empty storage.
  public init() {}

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.values === rhs.values
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(values))
  }

  /// The value of `key` as a `Value`, decoding a seed (``SharedSeedValue``) it holds.
  fileprivate func value<Value: Sendable>(forKey key: String, as _: Value.Type) -> Value? {
    let stored = values.lock.withLock { values.storage[key] }
    if let seed = stored as? any SharedSeedValue {
      guard let value = seed.decoded(as: Value.self) else { return nil }
      setValue(value, forKey: key)
      return value
    }
    return stored as? Value
  }

  /// The value of `key`, which becomes `defaultValue` when it has none (or one of another type).
  fileprivate func value<Value: Sendable>(forKey key: String, default defaultValue: Value) -> Value {
    let seed = values.lock.withLock { values.storage[key] as? any SharedSeedValue }
    if seed != nil, let value = value(forKey: key, as: Value.self) { return value }
    return values.lock.withLock {
      if let value = values.storage[key] as? Value { return value }
      values.storage[key] = defaultValue
      return defaultValue
    }
  }

  func setValue(_ value: any Sendable, forKey key: String) {
    values.lock.withLock { values.storage[key] = value }
  }

  private final class Values: @unchecked Sendable {
    let lock = NSLock()
    var storage: [String: any Sendable] = [:]
  }
}

extension DependencyValues {
  /// Where ``SharedReaderKey/inMemory(_:)`` keys keep their values: a storage for the app,
  /// and, in tests, one for each test.
  public var defaultInMemoryStorage: InMemoryStorage {
    get { self[DefaultInMemoryStorageKey.self] }
    set { self[DefaultInMemoryStorageKey.self] = newValue }
  }
}

private enum DefaultInMemoryStorageKey: DependencyKey {
  static var liveValue: InMemoryStorage { InMemoryStorage() }
  static var testValue: InMemoryStorage { InMemoryStorage() }
}
