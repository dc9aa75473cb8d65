import ArgumentParser
import Foundation
import SpecRunner
import SpecYAML

/// `reducer-spec check [PATH…]`: reads and validates spec files without running them, as
/// fast as a pre-commit hook needs. Every file is parsed and bound to its feature in this
/// process: the YAML, every key, every action, state path and stub value decoded against
/// the registered types. Problems are reported as a run reports a file that cannot run,
/// in the same formats; a scenario that checked out counts as passed (in no time) in the
/// JSON and JUnit reports, and prints nothing on the console.
struct CheckCommand: Subcommand {
  static let configuration = CommandConfiguration(
    commandName: "check",
    abstract: "Checks spec files without running them.",
    usage: "reducer-spec check [<options>] [<path> ...]",
    discussion: """
      Reads every spec file as a run would (the YAML, every key, every action, state path \
      and stub value, decoded against the registered features) and reports each problem \
      at its file:line:column. Exit status: 0 when every file checked out, 1 when any has \
      a problem, 64 for a usage error.
      """)

  @Argument(help: ArgumentHelp(
    "Spec files, and directories to search recursively for *.yaml and *.yml files. (default: specs)",
    valueName: "path"))
  var paths: [String] = []

  @Option(help: ArgumentHelp(
    "How many cores to use: 1 reads and checks every file on one thread; 2 or more read the next files on a second thread while the first checks. (default: the number of cores)",
    valueName: "n"))
  var jobs: Int?

  @OptionGroup var reports: ReportOptions

  @MainActor
  func run(in context: CommandContext) throws -> Int32 {
    let threads = try RunScopeOptions.jobs(jobs, processorCount: ProcessInfo.processInfo.activeProcessorCount)
    let files = try SpecPaths.expand(paths)
    let start = ContinuousClock.now
    let writeLine: (String) -> Void = { context.output($0 + "\n") }
    let workingDirectory = FileManager.default.currentDirectoryPath
    var reporters: [any RunReporter] = []
    switch reports.format {
    case .console:
      let color = ConsoleReporter.shouldUseColor(mode: reports.color, isTerminal: context.isTerminal, environment: context.environment)
      reporters.append(ConsoleReporter(color: color, isCheck: true, sink: writeLine))
    case .json:
      reporters.append(JSONLinesReporter(sink: writeLine))
    }
    if let junit = reports.junit { reporters.append(JUnitReporter(path: junit, relativeTo: workingDirectory)) }
    if GitHubAnnotationsReporter.isEnabled(flag: reports.githubAnnotations, environment: context.environment) {
      reporters.append(GitHubAnnotationsReporter(workingDirectory: workingDirectory, sink: writeLine))
    }
    let report = MultiReporter(reporters)
    report.runStarted(RunPlan(files: files, jobs: 1))
    var suites: [SuiteResult] = []
    let probe = ShapeProbe()
    var pathChecks: [String: StatePathCheck] = [:]
    // Each file while the engine still has it: its state paths are checked without reading
    // it again.
    context.engine.load(files: files, parsingAhead: threads > 1) { loaded in
      var loaded = loaded
      if loaded.errors.isEmpty, let name = loaded.feature, let feature = context.engine.features[name] {
        let check =
          pathChecks[name] ?? StatePathCheck(stateShape: probe.shape(of: feature.types.state.type))
        pathChecks[name] = check
        loaded.errors = Self.statePathProblems(in: loaded.file, engine: context.engine, check: check)
      }
      for error in loaded.errors { report.fileFailed(error) }
      let results =
        loaded.errors.isEmpty
        ? loaded.scenarios.map { Self.checked($0, skipReason: context.engine.skipReason(of: $0.id)) } : []
      for result in results {
        report.scenarioStarted(PlannedScenario(id: result.id, name: result.name, location: result.location, tags: result.tags))
        report.scenarioFinished(result)
      }
      suites.append(SuiteResult(file: loaded.file, feature: loaded.feature, scenarios: results, errors: loaded.errors))
    }
    let result = RunResult(suites: suites, duration: (ContinuousClock.now - start).inSeconds)
    do {
      try report.runFinished(result)
    } catch {
      context.errorOutput("Error: could not write the report: \(error)\n")
      return 1
    }
    return result.exitStatus
  }

  /// The `state:` paths of a bound file that name no field of the feature's state, in the
  /// order of the file, each once (an outline's rows share their steps).
  @MainActor
  private static func statePathProblems(in file: String, engine: SpecEngine, check: StatePathCheck) -> [SpecFileError] {
    let (scenarios, source) = engine.scenarioSpecs(of: file)
    var seen: Set<String> = []
    var problems: [(line: Int, column: Int, error: SpecFileError)] = []
    for scenario in scenarios {
      // By index: `for step in` would copy each step (a large struct) to read one field.
      for index in scenario.steps.indices {
        guard let state = scenario.steps[index].state else { continue }
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

  /// A scenario that checked out, as the reports show it: passed, or skipped with its
  /// `skip:` reason.
  private static func checked(_ scenario: PlannedScenario, skipReason: String?) -> ScenarioResult {
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
