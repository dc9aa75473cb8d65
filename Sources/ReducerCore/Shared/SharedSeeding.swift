import Dependencies
import Foundation
import ConcurrencyExtras

/// A value put into a storage of shared state before any key of it is made, whose type only
/// the key knows: a spec's `shared:` value, written as text. The first key that finds it
/// decodes it as its own type and keeps what it decoded.
package protocol SharedSeedValue: Sendable {
  /// The value as `type`, or `nil` after reporting, where the value was written, why it is
  /// not one: the key then takes its initial value, as it would with nothing stored.
  func decoded<Value>(as type: Value.Type) -> Value?
}

extension InMemoryStorage {
  /// Puts `value` under `key`, to be decoded by the first key of that name.
  package func seed(_ value: any SharedSeedValue, forKey key: String) {
    setValue(value, forKey: key)
  }
}

extension UserDefaults {
  /// Puts `value` under `key` of user defaults in memory (``inMemory``), to be decoded by the
  /// first `.appStorage` key of that name; real user defaults keep only property lists, so
  /// nothing is put there.
  package func seed(_ value: any SharedSeedValue, forKey key: String) {
    guard isInMemory else { return }
    set(value, forKey: key)
  }
}

extension FileStorage {
  /// A file system in memory whose files at the URLs of `seeds` hold those values, each
  /// decoded by the first `.fileStorage` key of its URL (and written as that key writes it).
  package static func inMemory(seeds: [URL: any SharedSeedValue]) -> Self {
    var storage = Self.inMemory
    storage.seeds = seeds
    return storage
  }
}

/// How many `Shared` and `SharedReader` values have been made so far (in this process): a
/// spec runner compares it before and after making a state, to know whether the state holds
/// references to shared values, which every scenario must make anew in storages of its own.
package enum SharedValuesMade {
  private static let made = LockIsolated(0)

  package static var count: Int { made.value }

  static func increment() {
    made.withValue { $0 += 1 }
  }
}

extension DependencyValues {
  /// Gives these dependencies storages of shared state of their own, empty, as each test
  /// gets: references, in-memory values, user defaults in memory and a file system in memory.
  package mutating func isolateSharedState() {
    sharedReferences = SharedReferences()
    defaultInMemoryStorage = InMemoryStorage()
    defaultAppStorage = .inMemory
    defaultFileStorage = .inMemory
  }
}

/// Where a spec's `shared:` puts a value for a key: its storage (`inMemory`, `appStorage`,
/// `fileStorage`) and its name there.
package struct SharedSeedPlace: Equatable, Sendable {
  package let storage: String
  package let key: String
}

/// A key whose values a spec's `shared:` can seed.
protocol SeedableSharedKey {
  var seedPlace: SharedSeedPlace { get }
}

extension InMemoryKey: SeedableSharedKey {
  var seedPlace: SharedSeedPlace { SharedSeedPlace(storage: "inMemory", key: key) }
}

extension AppStorageKey: SeedableSharedKey {
  var seedPlace: SharedSeedPlace { SharedSeedPlace(storage: "appStorage", key: key) }
}

extension FileStorageKey: SeedableSharedKey {
  /// A file in the documents directory by its path there; any other by its absolute path.
  var seedPlace: SharedSeedPlace {
    let documents = URL.documentsDirectory.standardizedFileURL.path + "/"
    let path = url.standardizedFileURL.path
    return SharedSeedPlace(storage: "fileStorage", key: path.hasPrefix(documents) ? String(path.dropFirst(documents.count)) : path)
  }
}

extension KeyReference {
  var seedPlace: SharedSeedPlace? { (key as? any SeedableSharedKey)?.seedPlace }
}

/// A `Shared` or a `SharedReader`, as a spec runner describes a state's fields.
package protocol SharedField {
  /// The key, as `features` shows it (`.inMemory("count")`); `nil` for a value of its own.
  var keyDescription: String? { get }
  /// Where `shared:` seeds the key's value, for the keys that it can seed.
  var seedPlace: SharedSeedPlace? { get }
  /// Whether the field only reads its key (`@SharedReader`): its value follows the key's.
  var readsOnly: Bool { get }
}

extension Shared: SharedField {
  package var keyDescription: String? { reference is ValueReference<Value> ? nil : reference.description }
  package var seedPlace: SharedSeedPlace? { (reference as? any KeyReferenceProtocol)?.seedPlace }
  package var readsOnly: Bool { false }
}

extension SharedReader: SharedField {
  package var keyDescription: String? { reference is ValueReference<Value> ? nil : reference.description }
  package var seedPlace: SharedSeedPlace? { (reference as? any KeyReferenceProtocol)?.seedPlace }
  package var readsOnly: Bool { true }
}

/// A ``KeyReference`` of any key.
protocol KeyReferenceProtocol {
  var seedPlace: SharedSeedPlace? { get }
}

extension KeyReference: KeyReferenceProtocol {}
