import Dependencies
import Foundation
import ReducerCore
import SpecRunner
import SpecYAML

/// Shared state (`@Shared`) in specs: each run of a scenario gets storages of its own, as
/// each Swift test does, and `shared:` seeds them.
extension TestStoreAdapter {
  public nonisolated static func isolateSharedState(_ dependencies: inout DependencyValues) {
    dependencies.isolateSharedState()
  }

  public static var sharedValuesMade: Int { SharedValuesMade.count }

  /// The stored properties of `state` that are a `@Shared` or `@SharedReader` with a key.
  public nonisolated static func sharedFields(of state: State) -> [SharedStateField] {
    Mirror(reflecting: state).children.compactMap { child in
      guard let field = child.value as? any SharedField, let key = field.keyDescription else { return nil }
      // A property wrapper's storage is named with an underscore.
      let name = child.label.map { $0.hasPrefix("_") ? String($0.dropFirst()) : $0 } ?? ""
      let seed = field.seedPlace.flatMap { place in
        SharedSeed.Storage(rawValue: place.storage).map { (storage: $0, key: place.key) }
      }
      return SharedStateField(name: name, key: key, seed: seed, readsOnly: field.readsOnly)
    }
  }

  /// Puts each value of `shared:` where its key will look: an `inMemory` value under its
  /// name in the in-memory storage, an `appStorage` value under its name in the user defaults
  /// in memory, and a `fileStorage` value in the file system in memory, at its name in the
  /// documents directory (or at its path, when absolute). The key that finds a value decodes
  /// it as its own type; one that does not decode is reported then, where it is written.
  public static func seed(_ shared: [SharedSeed], into dependencies: inout DependencyValues, decoder: YAMLDecoder)
    throws
  {
    var files: [URL: any SharedSeedValue] = [:]
    for seed in shared {
      let value = SeededValue(path: "shared.\(seed.storage.rawValue).\(seed.key)", node: seed.value, decoder: decoder)
      switch seed.storage {
      case .inMemory:
        dependencies.defaultInMemoryStorage.seed(value, forKey: seed.key)
      case .appStorage:
        dependencies.defaultAppStorage.seed(value, forKey: seed.key)
      case .fileStorage:
        guard !seed.key.isEmpty else {
          throw YAMLError("a file of `shared.fileStorage` needs a name (`\"sync-ups.json\"`)", at: seed.keyNode)
        }
        let url =
          seed.key.hasPrefix("/")
          ? URL(fileURLWithPath: seed.key) : URL.documentsDirectory.appendingPathComponent(seed.key)
        files[url] = value
      }
    }
    if !files.isEmpty { dependencies.defaultFileStorage = .inMemory(seeds: files) }
  }
}

/// A value of `shared:`, decoded as the type of the key that finds it.
private struct SeededValue: SharedSeedValue {
  /// Where it is in the spec: `shared.appStorage.isOn`.
  let path: String
  let node: YAMLNode
  let decoder: YAMLDecoder

  /// The value, or `nil` after a failure at the value: it does not decode as the key's type.
  func decoded<Value>(as type: Value.Type) -> Value? {
    func decode<T: Decodable>(_: T.Type) throws -> Any { try decoder.decode(T.self, from: node) }
    do {
      guard let decodable = Value.self as? any Decodable.Type else {
        throw YAMLError("its key's type, \(Value.self), is not Decodable", at: node)
      }
      // `decode` gives a `T`, and `T` is `Value`.
      return try decode(decodable) as? Value
    } catch {
      let location = (error as? YAMLError)?.location ?? node.location
      reportIssue(
        "`\(path)`: \((error as? YAMLError)?.message ?? "\(error)")", fileID: IssueCollector.specFileID,
        filePath: IssueCollector.specFileID, line: UInt(location?.line ?? 0), column: UInt(location?.column ?? 0))
      return nil
    }
  }
}
