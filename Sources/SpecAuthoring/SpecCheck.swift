import SpecRunner
import SpecYAML

/// What `reducer-spec check` found in one file: the file as the engine read it, with the
/// state-path problems added to its errors, and the `skip:` reason of each of its scenarios.
///
/// `check` makes one in its own process, or a worker makes it and sends it back (a `check`
/// request of the worker protocol); either way the command reports it alike.
package struct CheckedFile: Hashable, Sendable {
  /// The file, its feature and scenarios; its errors are every problem found.
  package var file: LoadedFile
  /// For each of `file.scenarios`, in order: why it is skipped, or `nil` (none when the file
  /// has errors).
  package var skipReasons: [String?]

  package init(file: LoadedFile, skipReasons: [String?]) {
    self.file = file
    self.skipReasons = skipReasons
  }

  /// The file's results as the reports show them: each scenario that checked out passed (in
  /// no time), or skipped with its reason; none when the file has a problem.
  package var results: [ScenarioResult] {
    guard file.errors.isEmpty else { return [] }
    return zip(file.scenarios, skipReasons).map { scenario, skipReason in
      var result = ScenarioResult(
        id: scenario.id, name: scenario.name, location: scenario.location, tags: scenario.tags, outcome: .passed,
        duration: 0)
      if let skipReason {
        result.outcome = .skipped
        result.skipReason = skipReason
      }
      return result
    }
  }
}

/// Checks files: what `check` adds to reading a file is its `state:` paths, checked against
/// the feature's state. One checker serves all the files of a process, and remembers each
/// feature's state shape and the paths found good.
@MainActor
package final class SpecCheck {
  /// Reads the files: the features' engine, or (for the tests of the worker pool) an engine
  /// that fakes reading, whose files are taken as it reads them.
  package let reader: any ScenarioEngine
  private let probe = ShapeProbe()
  private var pathChecks: [String: StatePathCheck] = [:]

  package init(reader: any ScenarioEngine) {
    self.reader = reader
  }

  /// Reads `file` and checks it.
  package func check(file: String) -> CheckedFile {
    check(reader.load(files: [file])[0])
  }

  /// A file that the reader read, while it still has it (an engine keeps the last few files
  /// read): its state-path problems are found without reading it again.
  package func check(_ loaded: LoadedFile) -> CheckedFile {
    var loaded = loaded
    guard let engine = reader as? SpecEngine else {
      return CheckedFile(file: loaded, skipReasons: loaded.errors.isEmpty ? loaded.scenarios.map { _ in nil } : [])
    }
    if loaded.errors.isEmpty, let name = loaded.feature, let feature = engine.features[name] {
      let check = pathChecks[name] ?? StatePathCheck(stateShape: probe.shape(of: feature.types.state.type))
      pathChecks[name] = check
      loaded.errors = statePathProblems(in: loaded.file, engine: engine, check: check)
    }
    let skipReasons = loaded.errors.isEmpty ? engine.skipReasons(of: loaded.file) : []
    return CheckedFile(file: loaded, skipReasons: skipReasons)
  }

  /// The `state:` paths of a bound file that name no field of the feature's state, in the
  /// order of the file, each once (an outline's rows share their steps).
  private func statePathProblems(in file: String, engine: SpecEngine, check: StatePathCheck) -> [SpecFileError] {
    let (scenarios, source) = engine.scenarioSpecs(of: file)
    var seen: Set<String> = []
    var problems: [(line: Int, column: Int, error: SpecFileError)] = []
    // By index: `for … in` would copy each scenario, and each step (a large struct), to read one field.
    for scenario in scenarios.indices {
      for index in scenarios[scenario].steps.indices {
        guard let state = scenarios[scenario].steps[index].state else { continue }
        for problem in check.problems(in: state) {
          let location = problem.location ?? FileLocation(file: file, line: 0, column: 0)
          guard seen.insert("\(location) \(problem.message)").inserted else { continue }
          let sourceLine = location.line > 0 ? source?.line(location.line).flatMap { $0.isEmpty ? nil : $0 } : nil
          problems.append(
            (location.line, location.column,
             SpecFileError(file: file, location: location, message: problem.message, sourceLine: sourceLine)))
        }
      }
    }
    return problems.sorted { ($0.line, $0.column) < ($1.line, $1.column) }.map(\.error)
  }
}
