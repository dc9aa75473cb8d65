import Foundation
// A test target that runs specs registers features: `Feature` and the stubs come with it.
@_exported import ReducerCoreSpecs
@_exported import SpecRunner

/// Spec files as Swift Testing test cases: one ``SpecScenario`` per scenario (one per
/// example row of an outline), named as in the command's JUnit report.
///
/// ```swift
/// import SpecTesting
/// import Testing
///
/// @Test(arguments: SpecSuite.scenarios(in: "specs", features: myFeatures))
/// func spec(_ scenario: SpecScenario) async { await scenario.run() }
/// ```
///
/// The scenarios run in the test process, one at a time per call of
/// ``scenarios(in:features:relativeTo:)``, on one ``SpecEngine`` (on the main actor, as
/// the engine is). Unlike the `reducer-spec` command there are no worker processes: a
/// scenario that crashes takes the test process with it, and there is no timeout, no
/// `--shard` and no `--tag`. See `docs/swift-test.md`.
public enum SpecSuite {
  /// The scenarios of the spec files at `path`, in the order the command runs them.
  ///
  /// - Parameters:
  ///   - path: A spec file, or a directory searched recursively for `*.yaml` and `*.yml`
  ///     files (skipping names that start with a dot), as the command does. A relative path
  ///     is resolved against `directory`, or else against the current directory, which
  ///     `swift test` sets to the package's root.
  ///   - features: The features the specs may name.
  ///   - directory: The directory a relative `path` is resolved against; see
  ///     ``packageDirectory(containing:)`` for the package of the calling test file.
  /// - Returns: One scenario per scenario of each file (per example row of an outline), and
  ///   one per file that cannot run (or path that does not exist), whose ``SpecScenario/run()``
  ///   records the file's errors.
  public static func scenarios(in path: String, features: [Feature], relativeTo directory: String? = nil)
    -> [SpecScenario]
  {
    let base = directory ?? FileManager.default.currentDirectoryPath
    let resolved = path.hasPrefix("/") ? path : join(base, path)
    // Each file's path as it is loaded (absolute) and as the tests name it (as written).
    var files: [(load: String, name: String)] = []
    var isDirectory: ObjCBool = false
    if !FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory) {
      let error = SpecFileError(
        file: path, location: FileLocation(file: resolved, line: 0, column: 0),
        message: "no such file or directory: '\(resolved)'")
      let suite = onMainActor { SuiteEngine(features: features) }
      return [SpecScenario(file: path, name: path, kind: .fileErrors([error]), suite: suite)]
    }
    if isDirectory.boolValue {
      for inside in specFiles(under: resolved) {
        files.append((join(resolved, inside), join(path, inside)))
      }
    } else {
      files.append((resolved, path))
    }
    return onMainActor {
      let suite = SuiteEngine(features: features)
      let loaded = suite.engine.load(files: files.map(\.load))
      return zip(files, loaded).flatMap { file, loaded in
        suite.scenarios(of: loaded, named: file.name)
      }
    }
  }

  /// The package directory that holds `filePath`: the nearest directory above it with a
  /// `Package.swift`; the file's directory when there is none.
  ///
  /// ```swift
  /// @Test(arguments: SpecSuite.scenarios(
  ///   in: "specs", features: myFeatures, relativeTo: SpecSuite.packageDirectory()))
  /// ```
  public static func packageDirectory(containing filePath: String = #filePath) -> String {
    let start = URL(fileURLWithPath: filePath).deletingLastPathComponent()
    var directory = start
    while directory.path != "/" && !directory.path.isEmpty {
      if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
        return directory.path
      }
      directory = directory.deletingLastPathComponent()
    }
    return start.path
  }

  // MARK: - Paths

  private static func join(_ directory: String, _ relative: String) -> String {
    if directory.isEmpty || directory == "." { return relative }
    return directory.hasSuffix("/") ? directory + relative : directory + "/" + relative
  }

  /// The `*.yaml` and `*.yml` files under `directory`, relative to it, in byte order, without
  /// names that start with a dot (nor what is under them): the files the command would run.
  private static func specFiles(under directory: String) -> [String] {
    var found: [String] = []
    func collect(_ relative: String) {
      let path = relative.isEmpty ? directory : join(directory, relative)
      guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
      for name in names where !name.hasPrefix(".") {
        let inside = relative.isEmpty ? name : relative + "/" + name
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: join(directory, inside), isDirectory: &isDirectory) else {
          continue
        }
        if isDirectory.boolValue {
          collect(inside)
        } else if name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
          found.append(inside)
        }
      }
    }
    collect("")
    return found.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
      .map { String(decoding: $0, as: UTF8.self) }
  }

  /// Runs `body` on the main actor and waits for it: Swift Testing evaluates a test's
  /// arguments off the main actor, and the engine lives on it.
  ///
  /// "On the main queue" is not "on the main thread": once the main thread parks in
  /// `dispatch_main` (Swift Testing on Linux), the main queue runs on another thread, and a
  /// `DispatchQueue.main.sync` from there traps (seen in CI: "dispatch_sync called on queue
  /// already owned by current thread"). So the queue is asked, by a key it carries.
  static func onMainActor<T: Sendable>(_ body: @MainActor () -> T) -> T {
    if isOnMainQueue { return MainActor.assumeIsolated { body() } }
    return DispatchQueue.main.sync { MainActor.assumeIsolated { body() } }
  }

  private static let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()

  /// Whether this code runs on the main queue, whichever thread serves it.
  static var isOnMainQueue: Bool {
    Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueKey) == true
  }
}

/// The engine that one call of ``SpecSuite/scenarios(in:features:relativeTo:)`` loaded its
/// files with, shared by its scenarios, which it runs one at a time.
@MainActor
final class SuiteEngine {
  let engine: SpecEngine
  /// The scenario that runs last: the next one waits for it. Swift Testing runs a test's
  /// cases in parallel, and a scenario's timing (its `TestClock`, a `receive` that waits)
  /// should not depend on the other scenarios that run beside it.
  private var last: Task<ScenarioResult, Never>?

  init(features: [Feature]) {
    engine = SpecEngine(features: features)
  }

  /// The file's scenarios, named as the JUnit report names its test cases; one scenario
  /// for the file when it cannot run.
  func scenarios(of loaded: LoadedFile, named file: String) -> [SpecScenario] {
    guard loaded.errors.isEmpty else {
      return [SpecScenario(file: file, name: file, kind: .fileErrors(loaded.errors), suite: self)]
    }
    var names = JUnitReporter.UniqueNames(originals: Set(loaded.scenarios.map(\.name)))
    return loaded.scenarios.map { planned in
      SpecScenario(
        file: file, name: names.claim(planned.name), kind: .scenario(planned.id, planned.location), suite: self)
    }
  }

  func run(_ id: ScenarioID) async -> ScenarioResult {
    let previous = last
    let task = Task { @MainActor [engine] in
      _ = await previous?.value
      // The engine does not enforce a timeout in process; the command's workers do.
      return await engine.run(id, timeout: .seconds(3600)) { _ in }
    }
    last = task
    return await task.value
  }
}
