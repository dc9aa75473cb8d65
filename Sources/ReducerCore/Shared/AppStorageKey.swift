import ConcurrencyExtras
import Dependencies
import Foundation

// `.appStorage("key")` for each type a user default can hold, as swift-sharing 2 has them:
// Bool, Int, Double, String, [String], URL, Data, Date, a RawRepresentable of Int or String,
// any Codable value (as JSON data), and an optional of each.

extension SharedReaderKey {
  /// A key of a Boolean user default.
  ///
  /// - Parameters:
  ///   - key: The user default's name.
  ///   - store: The user defaults; `nil` for `defaultAppStorage`.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self where Self == AppStorageKey<Bool> {
    AppStorageKey(key, store: store, coding: .castable)
  }

  /// A key of an integer user default.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self where Self == AppStorageKey<Int> {
    AppStorageKey(key, store: store, coding: .castable)
  }

  /// A key of a double user default.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Double> {
    AppStorageKey(key, store: store, coding: .castable)
  }

  /// A key of a string user default.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<String> {
    AppStorageKey(key, store: store, coding: .castable)
  }

  /// A key of a user default that is an array of strings.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<[String]> {
    AppStorageKey(key, store: store, coding: .castable)
  }

  /// A key of a URL user default (kept as its string).
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self where Self == AppStorageKey<URL> {
    AppStorageKey(key, store: store, coding: .url)
  }

  /// A key of a data user default.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self where Self == AppStorageKey<Data> {
    AppStorageKey(key, store: store, coding: .castable)
  }

  /// A key of a date user default.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self where Self == AppStorageKey<Date> {
    AppStorageKey(key, store: store, coding: .castable)
  }

  /// A key of a `Codable` value kept in user defaults as JSON data.
  @_disfavoredOverload
  public static func appStorage<Value: Codable>(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Value> {
    AppStorageKey(key, store: store, coding: .json)
  }

  /// A key of an integer user default, as a `RawRepresentable` type.
  public static func appStorage<Value: RawRepresentable<Int>>(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Value> {
    AppStorageKey(key, store: store, coding: AppStorageCoding<Int>.castable.rawRepresentable())
  }

  /// A key of a string user default, as a `RawRepresentable` type.
  public static func appStorage<Value: RawRepresentable<String>>(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Value> {
    AppStorageKey(key, store: store, coding: AppStorageCoding<String>.castable.rawRepresentable())
  }

  /// A key of an optional Boolean user default.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self where Self == AppStorageKey<Bool?> {
    AppStorageKey(key, store: store, coding: AppStorageCoding<Bool>.castable.optional())
  }

  /// A key of an optional integer user default.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self where Self == AppStorageKey<Int?> {
    AppStorageKey(key, store: store, coding: AppStorageCoding<Int>.castable.optional())
  }

  /// A key of an optional double user default.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Double?> {
    AppStorageKey(key, store: store, coding: AppStorageCoding<Double>.castable.optional())
  }

  /// A key of an optional string user default.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<String?> {
    AppStorageKey(key, store: store, coding: AppStorageCoding<String>.castable.optional())
  }

  /// A key of an optional user default that is an array of strings.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<[String]?> {
    AppStorageKey(key, store: store, coding: AppStorageCoding<[String]>.castable.optional())
  }

  /// A key of an optional URL user default.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self where Self == AppStorageKey<URL?> {
    AppStorageKey(key, store: store, coding: AppStorageCoding<URL>.url.optional())
  }

  /// A key of an optional data user default.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Data?> {
    AppStorageKey(key, store: store, coding: AppStorageCoding<Data>.castable.optional())
  }

  /// A key of an optional date user default.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Date?> {
    AppStorageKey(key, store: store, coding: AppStorageCoding<Date>.castable.optional())
  }

  /// A key of an optional `Codable` value kept in user defaults as JSON data.
  @_disfavoredOverload
  public static func appStorage<Value: Codable>(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Value?> {
    AppStorageKey(key, store: store, coding: AppStorageCoding<Value>.json.optional())
  }

  /// A key of an optional integer user default, as a `RawRepresentable` type.
  public static func appStorage<Value: RawRepresentable>(_ key: String, store: UserDefaults? = nil) -> Self
  where Value.RawValue == Int, Self == AppStorageKey<Value?> {
    AppStorageKey(key, store: store, coding: AppStorageCoding<Int>.castable.rawRepresentable().optional())
  }

  /// A key of an optional string user default, as a `RawRepresentable` type.
  public static func appStorage<Value: RawRepresentable>(_ key: String, store: UserDefaults? = nil) -> Self
  where Value.RawValue == String, Self == AppStorageKey<Value?> {
    AppStorageKey(key, store: store, coding: AppStorageCoding<String>.castable.rawRepresentable().optional())
  }
}

/// A key of a user default: `.appStorage("name")`, for each type
/// a user default can hold.
///
/// When the user defaults have no value (or one of another type), the key writes the initial
/// value there and the `@Shared` takes it. Each change is written at once. The key does not
/// follow changes that others make to the user defaults.
public struct AppStorageKey<Value: Sendable>: SharedKey {
  let key: String
  private let store: UncheckedSendable<UserDefaults>
  private let coding: AppStorageCoding<Value>

  fileprivate init(_ key: String, store: UserDefaults?, coding: AppStorageCoding<Value>) {
    @Dependency(\.defaultAppStorage) var defaultStore
    self.key = key
    self.store = UncheckedSendable(store ?? defaultStore)
    self.coding = coding
  }

  public var id: AppStorageKeyID {
    AppStorageKeyID(key: key, store: ObjectIdentifier(store.value))
  }

  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    let defaults = store.value
    if let seed = defaults.object(forKey: key) as? any SharedSeedValue {
      defaults.removeObject(forKey: key)
      if let value = seed.decoded(as: Value.self) {
        if let object = coding.encode(value) { defaults.set(object, forKey: key) }
        continuation.resume(returning: value)
        return
      }
    }
    if let object = defaults.object(forKey: key), let value = coding.decode(object) {
      continuation.resume(returning: value)
      return
    }
    if let initialValue = context.initialValue {
      if let object = coding.encode(initialValue) {
        defaults.set(object, forKey: key)
      }
    }
    continuation.resumeReturningInitialValue()
  }

  public func subscribe(context _: LoadContext<Value>, subscriber _: SharedSubscriber<Value>) -> SharedSubscription {
    SharedSubscription {}
  }

  public func save(_ value: Value, context _: SaveContext, continuation: SaveContinuation) {
    if let object = coding.encode(value) {
      store.value.set(object, forKey: key)
    } else {
      store.value.removeObject(forKey: key)
    }
    continuation.resume()
  }
}

extension AppStorageKey: CustomStringConvertible {
  public var description: String {
    ".appStorage(\(String(reflecting: key)))"
  }
}

/// The identity of an ``AppStorageKey``: its name and its user defaults.
public struct AppStorageKeyID: Hashable {
  let key: String
  let store: ObjectIdentifier
}

/// How a value is kept in user defaults: the property-list object it is written as, and how
/// it is read back (`nil`: no value of the type).
struct AppStorageCoding<Value>: Sendable {
  let decode: @Sendable (Any) -> Value?
  /// `nil`: remove the user default.
  let encode: @Sendable (Value) -> Any?

  /// A value that user defaults hold as it is (a number, a string, data, a date, an array of
  /// strings). Numbers read back as any numeric type holding them.
  static var castable: Self {
    Self(
      decode: { object in
        if let value = object as? Value { return value }
        guard let number = object as? NSNumber else { return nil }
        switch Value.self {
        case is Bool.Type: return number.boolValue as? Value
        case is Int.Type: return number.intValue as? Value
        case is Double.Type: return number.doubleValue as? Value
        default: return nil
        }
      },
      encode: { $0 })
  }

  /// The optional of the value: `nil` removes the user default.
  func optional() -> AppStorageCoding<Value?> {
    let decode = decode
    let encode = encode
    return AppStorageCoding<Value?>(
      decode: { object in decode(object).map { .some($0) } },
      encode: { value in value.flatMap(encode) })
  }

  /// A `RawRepresentable` type whose raw value is kept as this one is.
  func rawRepresentable<R: RawRepresentable & Sendable>() -> AppStorageCoding<R> where R.RawValue == Value {
    let decode = decode
    let encode = encode
    return AppStorageCoding<R>(
      decode: { object in decode(object).flatMap(R.init(rawValue:)) },
      encode: { encode($0.rawValue) })
  }
}

extension AppStorageCoding where Value: Codable & Sendable {
  /// A `Codable` value as JSON data.
  static var json: Self {
    Self(
      decode: { object in (object as? Data).flatMap { try? JSONDecoder().decode(Value.self, from: $0) } },
      encode: { try? JSONEncoder().encode($0) })
  }
}

extension AppStorageCoding where Value == URL {
  /// A URL, kept as its string (Foundation on Linux keeps a URL user default as its path).
  static var url: Self {
    Self(
      decode: { object in
        if let url = object as? URL { return url }
        return (object as? String).flatMap { URL(string: $0) }
      },
      encode: { $0.absoluteString })
  }
}

extension DependencyValues {
  /// The user defaults that `.appStorage(_:)` keys use
  /// when not given any: `UserDefaults.standard` in the app, and in tests an in-memory one
  /// for each test (`UserDefaults.inMemory`), which writes no file.
  public var defaultAppStorage: UserDefaults {
    get { self[DefaultAppStorageKey.self].value }
    set { self[DefaultAppStorageKey.self] = UncheckedSendable(newValue) }
  }
}

private enum DefaultAppStorageKey: DependencyKey {
  static var liveValue: UncheckedSendable<UserDefaults> { UncheckedSendable(.standard) }
  static var previewValue: UncheckedSendable<UserDefaults> { UncheckedSendable(.inMemory) }
  static var testValue: UncheckedSendable<UserDefaults> { UncheckedSendable(.inMemory) }
}

extension UserDefaults {
  /// Whether these are user defaults in memory (``inMemory``).
  var isInMemory: Bool {
    self is InMemoryUserDefaults
  }

  /// New user defaults that keep their values in memory only: no suite, no file.
  ///
  /// A user defaults suite made with a name writes a file (on Linux, in `~/.config`), and
  /// values that another run left there; these start empty and write nothing.
  public static var inMemory: UserDefaults {
    InMemoryUserDefaults()
  }
}

/// User defaults whose values live in a dictionary: `UserDefaults.inMemory`.
///
/// The typed getters (`bool(forKey:)`, `string(forKey:)`, …) read through `object(forKey:)`,
/// and the typed setters write through `set(_:forKey:)`.
private final class InMemoryUserDefaults: UserDefaults {
  private let lock = NSLock()
  private var values: [String: Any] = [:]

  init() {
    super.init(suiteName: nil)!
  }

  override func object(forKey defaultName: String) -> Any? {
    lock.withLock { values[defaultName] }
  }

  override func set(_ value: Any?, forKey defaultName: String) {
    lock.withLock { values[defaultName] = value }
  }

  override func removeObject(forKey defaultName: String) {
    lock.withLock { values[defaultName] = nil }
  }

  override func dictionaryRepresentation() -> [String: Any] {
    lock.withLock { values }
  }
}
