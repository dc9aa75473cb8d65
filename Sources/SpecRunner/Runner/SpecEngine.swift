import Foundation
import IssueReporting
import SpecYAML

/// Reads spec files and runs their scenarios against registered features: the
/// ``ScenarioEngine`` of the `reducer-spec` command and of every worker it starts.
///
/// ```swift
/// let engine = SpecEngine(features: [counterFeature, searchFeature])
/// let files = engine.load(files: ["specs/counter.yaml"])
/// let result = await engine.run(files[0].scenarios[0].id, timeout: .seconds(10)) { _ in }
/// ```
@MainActor
public final class SpecEngine: ScenarioEngine {
  /// The registered features, by name.
  public let features: [String: Feature]
  private let featureNames: [String]
  /// The files read most recently, newest last: a worker runs a file's scenarios one after
  /// another, a few files after it read them (the command asks it to read up to ten files
  /// ahead, and keeps up to 80 or so of its scenarios queued), so a few dozen suffice, and
  /// memory stays flat however many files a run has.
  private var cache: [(path: String, compiled: Compiled)] = []
  package nonisolated static let cacheSize = 32
  /// The actions and state paths decoded so far, for all the files this engine binds.
  private let memo = DecodeMemo()

  /// One file, read and bound to its feature.
  private struct Compiled {
    var loaded: LoadedFile
    var source: SourceFile?
    var scenarios: [ScenarioID: (spec: ScenarioSpec, program: (any ScenarioProgram)?)]
    /// The stubs the file's own `dependencies:` names (its scenarios' are in their specs).
    var fileStubs: [String] = []
  }

  /// An engine for these features. Two features with the same name are a programming error.
  public init(features: [Feature]) {
    var byName: [String: Feature] = [:]
    for feature in features {
      precondition(byName[feature.name] == nil, "Two features are registered as \"\(feature.name)\"")
      byName[feature.name] = feature
    }
    self.features = byName
    self.featureNames = features.map(\.name)
  }

  public func load(files: [String]) -> [LoadedFile] {
    var loaded: [LoadedFile] = []
    loaded.reserveCapacity(files.count)
    load(files: files) { loaded.append($0) }
    return loaded
  }

  /// Loads `files` in order and hands each to `body` as soon as it is bound, while it is
  /// still in the engine's cache: `body` can ask for its specs (``scenarioSpecs(of:)``)
  /// without the file being read again.
  ///
  /// - Parameter parsingAhead: Whether another thread reads and parses the next files while
  ///   this one binds (two cores); `false` does everything on this thread (one core).
  public func load(files: [String], parsingAhead: Bool = true, each body: (LoadedFile) -> Void) {
    guard parsingAhead, files.count > 1 else {
      for path in files { body(compiled(path).loaded) }
      return
    }
    // Reading a file and parsing its YAML costs about as much as reading the spec from it
    // and binding it, and needs no main actor: another thread reads the next files while this
    // one binds. The spec is read here, so that its many small values are made and freed on
    // one thread: made on the other and freed here, they made the two threads contend (most
    // likely for the other thread's malloc arena), and two threads took as long as one.
    let ahead = ParseAhead(paths: files)
    for index in files.indices {
      let document = ahead.take(index)
      if let cached = cache.lastIndex(where: { $0.path == files[index] }) {
        body(cache[cached].compiled.loaded)
        continue
      }
      let compiled = bind(Self.parse(files[index]) { try document.get() })
      remember(files[index], compiled)
      body(compiled.loaded)
    }
  }

  public func run(_ id: ScenarioID, timeout: Duration, onStep: (FileLocation) -> Void) async -> ScenarioResult {
    let file = compiled(id.file)
    guard let entry = file.scenarios[id] else {
      let location = FileLocation(file: id.file, line: 0, column: 0)
      let message =
        file.loaded.errors.first.map { "the file cannot run: \($0.description)" }
        ?? "no scenario \(id) in \(id.file)"
      return ScenarioResult(
        id: id, name: "\(id)", location: location, tags: [], outcome: .error, duration: 0, errorMessage: message)
    }
    let scenario = entry.spec
    var result = ScenarioResult(
      id: id, name: scenario.name, location: scenario.location, tags: scenario.tags, outcome: .passed, duration: 0)
    if let reason = scenario.skip {
      result.outcome = .skipped
      result.skipReason = reason
      return result
    }
    guard let program = entry.program else { return result }
    let collector = IssueCollector(file: id.file, source: file.source, start: scenario.location)
    let start = ContinuousClock.now
    let stubCalls = await withIssueReporters([collector]) {
      await program.run(collector: collector, onStep: onStep)
    }
    let elapsed = ContinuousClock.now - start
    result.duration = elapsed.inSeconds
    result.failures = collector.failures
    let notes = collector.notes
    result.notes = notes.isEmpty ? nil : notes
    result.outcome = result.failures.isEmpty ? .passed : .failed
    result.stubCalls = stubCalls.isEmpty ? nil : stubCalls
    return result
  }

  /// A loaded scenario's spec and its bound program, for `reducer-spec record`; `nil` when
  /// its file has errors.
  package func scenario(_ id: ScenarioID) -> (spec: ScenarioSpec, program: (any ScenarioProgram)?)? {
    compiled(id.file).scenarios[id]
  }

  // MARK: - Loading

  /// The scenarios of a file as written (one per example row), in order, and the file's
  /// text: for the authoring commands. Empty for a file with errors.
  package func scenarioSpecs(of path: String) -> (scenarios: [ScenarioSpec], source: SourceFile?) {
    let file = compiled(path)
    return (file.loaded.scenarios.compactMap { file.scenarios[$0.id]?.spec }, file.source)
  }

  /// The scenarios of a file as written (one per example row), each with its id, in
  /// order: for `reducer-spec coverage`, which counts those that ran. Empty for a file with
  /// errors.
  package func identifiedScenarioSpecs(of path: String) -> [(id: ScenarioID, spec: ScenarioSpec)] {
    let file = compiled(path)
    return file.loaded.scenarios.compactMap { planned in file.scenarios[planned.id].map { (planned.id, $0.spec) } }
  }

  /// The stubs named by a file's own `dependencies:` (not its scenarios'), for
  /// `reducer-spec coverage`. Empty for a file with errors.
  package func fileStubNames(of path: String) -> [String] {
    compiled(path).fileStubs
  }

  /// For each scenario of a file (one per example row), in order: why it is skipped (its
  /// `skip:`), or `nil`. Empty for a file with errors. The file is looked up once for all
  /// of them, not once a scenario.
  package func skipReasons(of path: String) -> [String?] {
    let file = compiled(path)
    guard file.loaded.errors.isEmpty else { return [] }
    return file.loaded.scenarios.map { file.scenarios[$0.id]?.spec.skip }
  }

  /// Reads, parses, validates and binds a file's bytes, named `path`, without keeping
  /// them: what a run would say of the file, for the fuzz targets (Fuzz/).
  package func load(bytes: [UInt8], path: String) -> LoadedFile {
    bind(Self.parse(bytes: bytes, path: path)).loaded
  }

  public func forgetFiles() {
    cache = []
  }

  private func compiled(_ path: String) -> Compiled {
    // By index: `lastIndex(where:)` would copy each entry (its compiled file) to test its path.
    for index in cache.indices.reversed() where cache[index].path == path { return cache[index].compiled }
    let compiled = bind(Self.parse(path))
    remember(path, compiled)
    return compiled
  }

  private func remember(_ path: String, _ compiled: Compiled) {
    cache.append((path, compiled))
    if cache.count > Self.cacheSize { cache.removeFirst() }
  }

  /// A file read and checked against the format, not yet bound to its feature.
  struct Parsed: Sendable {
    var path: String
    var source: SourceFile?
    /// `nil` when the file could not be read as a spec.
    var spec: SpecFile?
    var errors: [YAMLError]
  }

  /// Reads, parses and checks a file against the format: the part of loading that any
  /// thread can do.
  nonisolated static func parse(_ path: String) -> Parsed {
    parse(path) { try YAMLParser().parseDocument(contentsOf: path) }
  }

  /// The same, for bytes in memory named `path`.
  nonisolated static func parse(bytes: [UInt8], path: String) -> Parsed {
    parse(path) { try YAMLParser().parseDocument(bytes: bytes, path: path) }
  }

  private nonisolated static func parse(_ path: String, document read: () throws -> YAMLDocument) -> Parsed {
    let document: YAMLDocument
    do {
      document = try read()
    } catch let error as YAMLError {
      return Parsed(path: path, source: nil, spec: nil, errors: [error])
    } catch {
      let error = YAMLError("cannot read the file: \(error)", at: FileLocation(file: path, line: 0, column: 0))
      return Parsed(path: path, source: nil, spec: nil, errors: [error])
    }
    var parser = SpecParser(path: path)
    let spec = parser.parse(document)
    return Parsed(path: path, source: document.tape.source(document.tape.root), spec: spec, errors: parser.errors)
  }

  /// Binds a parsed file to its feature.
  private func bind(_ parsed: Parsed) -> Compiled {
    let path = parsed.path
    func failed(_ errors: [YAMLError], feature: String? = nil, source: SourceFile? = nil) -> Compiled {
      // In the order of the file, whichever check found them.
      let sorted = errors.enumerated().sorted { a, b in
        let (left, right) = (a.element.location, b.element.location)
        let leftKey = (left?.line ?? 0, left?.column ?? 0, a.offset)
        let rightKey = (right?.line ?? 0, right?.column ?? 0, b.offset)
        return leftKey < rightKey
      }
      let fileErrors = sorted.map(\.element).map { error in
        SpecFileError(
          file: path, location: error.location ?? FileLocation(file: path, line: 0, column: 0),
          message: error.message,
          sourceLine: (error.location?.line).flatMap { $0 > 0 ? error.source?.line($0) : nil }.flatMap {
            $0.isEmpty ? nil : $0
          })
      }
      return Compiled(
        loaded: LoadedFile(file: path, feature: feature, scenarios: [], errors: fileErrors), source: source,
        scenarios: [:])
    }
    let source = parsed.source
    var errors = parsed.errors
    guard let spec = parsed.spec else { return failed(errors, source: source) }
    guard let feature = features[spec.feature] else {
      errors.insert(
        YAMLError(
          "unknown feature `\(spec.feature)`" + Suggestion.hint(for: spec.feature, in: featureNames)
            + "; the registered features are " + featureNames.map { "`\($0)`" }.joined(separator: ", "),
          at: spec.featureNode), at: 0)
      return failed(errors, feature: spec.feature, source: source)
    }
    var scenarios: [ScenarioID: (spec: ScenarioSpec, program: (any ScenarioProgram)?)] = [:]
    var planned: [PlannedScenario] = []
    for scenario in spec.scenarios {
      switch feature.bind(spec, scenario, feature, memo) {
      case .program(let program):
        scenarios[scenario.id] = (scenario, program)
      case .errors(let found):
        for error in found where !errors.contains(error) { errors.append(error) }
      }
      planned.append(
        PlannedScenario(id: scenario.id, name: scenario.name, location: scenario.location, tags: scenario.tags))
    }
    guard errors.isEmpty else { return failed(errors, feature: spec.feature, source: source) }
    return Compiled(
      loaded: LoadedFile(file: path, feature: spec.feature, scenarios: planned, errors: []), source: source,
      scenarios: scenarios, fileStubs: spec.dependencies.map(\.name))
  }
}

/// Reads and parses the YAML of a list of files on another thread, a few files ahead of the
/// one that takes them.
private final class ParseAhead: @unchecked Sendable {
  // `results` is shared: under `lock`. Each file's semaphore says it is parsed; `window`
  // bounds how many parsed files wait, so that memory stays flat however many files a run has.
  private let lock = NSLock()
  private var results: [Result<YAMLDocument, any Error>?]
  private let ready: [DispatchSemaphore]
  private let window = DispatchSemaphore(value: 8)

  init(paths: [String]) {
    results = Array(repeating: nil, count: paths.count)
    ready = paths.map { _ in DispatchSemaphore(value: 0) }
    Thread.detachNewThread { [self] in
      for (index, path) in paths.enumerated() {
        window.wait()
        let parsed = Result { try YAMLParser().parseDocument(contentsOf: path) }
        lock.withLock { results[index] = parsed }
        ready[index].signal()
      }
    }
  }

  /// The parsed document at `index` (or why it could not be read), once it is ready. Every
  /// index is taken once, in order.
  func take(_ index: Int) -> Result<YAMLDocument, any Error> {
    ready[index].wait()
    window.signal()
    return lock.withLock {
      defer { results[index] = nil }
      return results[index]!
    }
  }
}
