import ConcurrencyExtras
import Dependencies
import Foundation

extension SharedReaderKey {
  /// A key of a `Codable` value kept in a file as JSON:
  /// `@Shared(.fileStorage(.documentsDirectory.appending(component: "stats.json"))) var stats = Stats()`.
  ///
  /// The file is read through `DependencyValues.defaultFileStorage`: the file
  /// system in the app, a file system in memory in tests.
  ///
  /// - Parameters:
  ///   - url: The file.
  ///   - decoder: The decoder of the file's data; a `JSONDecoder()` by default.
  ///   - encoder: The encoder of the value; a `JSONEncoder` with sorted keys by default.
  public static func fileStorage<Value: Codable>(
    _ url: URL, decoder: JSONDecoder? = nil, encoder: JSONEncoder? = nil
  ) -> Self where Self == FileStorageKey<Value> {
    let decoder = UncheckedSendable(decoder ?? JSONDecoder())
    let encoder = UncheckedSendable(encoder ?? defaultFileStorageEncoder())
    return fileStorage(
      url, decode: { try decoder.value.decode(Value.self, from: $0) }, encode: { try encoder.value.encode($0) })
  }

  /// A key of a value kept in a file, written and read by the closures given.
  public static func fileStorage<Value>(
    _ url: URL,
    decode: @escaping @Sendable (Data) throws -> Value,
    encode: @escaping @Sendable (Value) throws -> Data
  ) -> Self where Self == FileStorageKey<Value> {
    FileStorageKey(url: url, decode: decode, encode: encode)
  }
}

#if !canImport(Darwin)
  extension URL {
    /// The user's documents directory: Apple platforms' `URL.documentsDirectory`, which
    /// Foundation on Linux lacks and file storage keys are usually declared with,
    /// `.fileStorage(.documentsDirectory.appending(component: "sync-ups.json"))`.
    ///
    /// `~/Documents`, as `FileManager` names the user's document directory.
    @_disfavoredOverload
    public static var documentsDirectory: URL {
      FileManager.default.urls(for: .documentDirectory, in: .userDomainMask).first
        ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent("Documents")
    }
  }
#endif

private func defaultFileStorageEncoder() -> JSONEncoder {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
  return encoder
}

/// A key of a value kept in a file: ``SharedReaderKey/fileStorage(_:decoder:encoder:)``.
///
/// The value is read from the file when the first `@Shared` of the key is made; a missing
/// (or empty) file gives the initial value, and a file whose data does not decode is reported
/// as an issue (the `@Shared` keeps its initial value, and its `loadError` says why).
///
/// Saving, as swift-sharing does: the first change is written at once; the changes made in
/// the second after it are written together when the second ends (the last value); a change
/// after that is written at once again. `save()` writes at once. Each write replaces the file
/// atomically (a new file moved over the old one), so a reader never sees half a value.
public final class FileStorageKey<Value: Sendable>: SharedKey {
  private let storage: FileStorage
  let url: URL
  private let decode: @Sendable (Data) throws -> Value
  private let encode: @Sendable (Value) throws -> Data
  private let state = LockIsolated(SaveState())

  /// What waits to be written.
  private struct SaveState {
    /// Whether a write is waiting for the end of the second after the last one.
    var isWaiting = false
    /// The data of the last change since then, if any.
    var pending: Data?
    /// The continuations of the changes since then.
    var continuations: [SaveContinuation] = []
    /// Counts the writes made at once, so that a wait that a `save()` overtook writes nothing.
    var generation = 0
  }

  /// The interval after a write within which changes are written together.
  static var debounceInterval: Duration { .seconds(1) }

  fileprivate init(
    url: URL, decode: @escaping @Sendable (Data) throws -> Value, encode: @escaping @Sendable (Value) throws -> Data
  ) {
    @Dependency(\.defaultFileStorage) var storage
    self.storage = storage
    self.url = url
    self.decode = decode
    self.encode = encode
  }

  public var id: FileStorageKeyID {
    FileStorageKeyID(url: url, storage: storage)
  }

  public func load(context _: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    if let seed = storage.seeds[url], !storage.fileExists(url), let value = seed.decoded(as: Value.self) {
      // Written as the key writes it, so that the file is there for every later load.
      continuation.resume(with: Result { try storage.save(encode(value), url) }.map { value })
      return
    }
    guard storage.fileExists(url), let data = try? storage.load(url), !data.isEmpty else {
      continuation.resumeReturningInitialValue()
      return
    }
    continuation.resume(with: Result { try decode(data) })
  }

  public func subscribe(context _: LoadContext<Value>, subscriber _: SharedSubscriber<Value>) -> SharedSubscription {
    SharedSubscription {}
  }

  public func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    let data: Data
    do {
      data = try encode(value)
    } catch {
      continuation.resume(throwing: error)
      return
    }
    switch context {
    case .didSet:
      let generation = state.withValue { state -> Int? in
        guard state.isWaiting else {
          state.isWaiting = true
          return state.generation
        }
        state.pending = data
        state.continuations.append(continuation)
        return nil
      }
      guard let generation else { return }
      continuation.resume(with: Result { try storage.save(data, url) })
      // The key stays alive until then, so that the changes of a `@Shared` released in the
      // meantime are still written.
      storage.asyncAfter(Self.debounceInterval) {
        self.writePending(generation: generation)
      }

    case .userInitiated:
      let continuations = state.withValue { state in
        defer {
          state.isWaiting = false
          state.pending = nil
          state.continuations = []
          state.generation += 1
        }
        return state.continuations
      }
      let result = Result { try storage.save(data, url) }
      continuation.resume(with: result)
      for waiting in continuations { waiting.resume(with: result) }
    }
  }

  /// At the end of the second after a write: writes the last change since, if any.
  private func writePending(generation: Int) {
    let (data, continuations) = state.withValue { state -> (Data?, [SaveContinuation]) in
      guard state.generation == generation else { return (nil, []) }
      defer {
        state.isWaiting = false
        state.pending = nil
        state.continuations = []
      }
      return (state.pending, state.continuations)
    }
    guard let data else { return }
    let result = Result { try storage.save(data, url) }
    for continuation in continuations { continuation.resume(with: result) }
  }
}

extension FileStorageKey: CustomStringConvertible {
  public var description: String {
    ".fileStorage(\(String(reflecting: url)))"
  }
}

/// The identity of a ``FileStorageKey``: its file and its ``FileStorage``.
public struct FileStorageKeyID: Hashable {
  let url: URL
  let storage: FileStorage
}

/// How file storage keys read and write files: ``fileSystem``, or ``inMemory``.
public struct FileStorage: Hashable, Sendable {
  let id: AnyHashableSendable
  let asyncAfter: @Sendable (Duration, @escaping @Sendable () -> Void) -> Void
  let fileExists: @Sendable (URL) -> Bool
  let load: @Sendable (URL) throws -> Data
  let save: @Sendable (Data, URL) throws -> Void
  /// Values for files that do not exist yet (``inMemory(seeds:)``).
  var seeds: [URL: any SharedSeedValue] = [:]

  /// The file system: each write replaces the file atomically, creating its directory when
  /// missing; a write that waits runs on a queue of its own.
  public static let fileSystem = Self(
    id: AnyHashableSendable("fileSystem"),
    asyncAfter: { delay, work in
      fileStorageQueue.asyncAfter(deadline: .now() + delay.timeInterval) { work() }
    },
    fileExists: { FileManager.default.fileExists(atPath: $0.path) },
    load: { try Data(contentsOf: $0) },
    save: { data, url in
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try data.write(to: url, options: .atomic)
    })

  /// A file system in memory, empty: what tests use, so that nothing is written to disk and
  /// nothing is left from another test. Writes that wait run at once.
  public static var inMemory: Self {
    // The files are kept as arrays of bytes, not as `Data`: a `Data` keeps its storage in an
    // enum whose case Swift puts in the pointer's spare bits, so LeakSanitizer reports the
    // files of a storage still alive at exit (a test's, a worker's) as leaked.
    let files = LockIsolated<[URL: [UInt8]]>([:])
    return Self(
      id: AnyHashableSendable(ObjectIdentifier(files)),
      asyncAfter: { _, work in work() },
      fileExists: { url in files.withValue { $0[url] != nil } },
      load: { url in
        guard let bytes = files.withValue({ $0[url] }) else { throw CocoaError(.fileReadNoSuchFile) }
        return Data(bytes)
      },
      save: { data, url in files.withValue { $0[url] = Array(data) } })
  }

  /// A file system in memory with the files given, whose waiting writes are scheduled by
  /// `asyncAfter`: for tests of the waiting itself.
  package static func inMemory(
    files: LockIsolated<[URL: Data]>,
    asyncAfter: @escaping @Sendable (Duration, @escaping @Sendable () -> Void) -> Void
  ) -> Self {
    Self(
      id: AnyHashableSendable(ObjectIdentifier(files)),
      asyncAfter: asyncAfter,
      fileExists: { url in files.withValue { $0[url] != nil } },
      load: { url in
        guard let data = files.withValue({ $0[url] }) else { throw CocoaError(.fileReadNoSuchFile) }
        return data
      },
      save: { data, url in files.withValue { $0[url] = data } })
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.id == rhs.id
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(id)
  }
}

/// The queue of the file system's waiting writes.
private let fileStorageQueue = DispatchQueue(label: "ReducerCore.FileStorage")

extension Duration {
  fileprivate var timeInterval: TimeInterval {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}

extension DependencyValues {
  /// How ``SharedReaderKey/fileStorage(_:decoder:encoder:)`` keys read and write files: the
  /// file system in the app, and, in tests, a file system in memory for each test.
  public var defaultFileStorage: FileStorage {
    get { self[FileStorageDependencyKey.self] }
    set { self[FileStorageDependencyKey.self] = newValue }
  }
}

private enum FileStorageDependencyKey: DependencyKey {
  static var liveValue: FileStorage { .fileSystem }
  static var previewValue: FileStorage { .inMemory }
  static var testValue: FileStorage { .inMemory }
}
