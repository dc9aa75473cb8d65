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
    "How many processes check files: 1 checks every file in this one; N checks them in this one and N - 1 worker processes, each taking at least \(CheckCommand.filesPerProcess) files. (default: the number of cores)",
    valueName: "n"))
  var jobs: Int?

  @OptionGroup var reports: ReportOptions

  @MainActor
  func run(in context: CommandContext) throws -> Int32 {
    let cores = try RunScopeOptions.jobs(jobs, processorCount: ProcessInfo.processInfo.activeProcessorCount)
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
    let processes = Self.processes(jobs: cores, files: files.count)
    report.runStarted(RunPlan(files: files, jobs: processes))
    var suites: [SuiteResult] = []
    func deliver(_ checked: CheckedFile) {
      let loaded = checked.file
      for error in loaded.errors { report.fileFailed(error) }
      let results = checked.results
      for result in results {
        report.scenarioStarted(PlannedScenario(id: result.id, name: result.name, location: result.location, tags: result.tags))
        report.scenarioFinished(result)
      }
      suites.append(SuiteResult(file: loaded.file, feature: loaded.feature, scenarios: results, errors: loaded.errors))
    }
    let checker = SpecCheck(reader: context.makeScenarioEngine())
    if processes > 1 {
      checkWithWorkers(files, workers: processes - 1, checker: checker, context: context, deliver: deliver)
    } else if let engine = checker.reader as? SpecEngine {
      // Each file while the engine still has it: its state paths are checked without reading
      // it again.
      engine.load(files: files, parsingAhead: cores > 1) { deliver(checker.check($0)) }
    } else {
      for file in files { deliver(checker.check(file: file)) }
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

  /// The fewest files a process checks: starting a worker costs about as much as checking
  /// a few files of a hundred steps.
  static let filesPerProcess = 4

  /// How long a worker may take over one file before it is stopped, and the file fails.
  static let fileTimeout = Duration.seconds(60)

  /// How many processes check `files` files with `--jobs jobs`: this one and the workers it
  /// starts. This one alone with `--jobs 1`, or when there are too few files for two.
  static func processes(jobs: Int, files: Int) -> Int {
    max(1, min(jobs, files / filesPerProcess))
  }

  /// Checks `files` with `workers` worker processes and this one, and hands each file to
  /// `deliver` in file order. Each worker is sent the next files a few at a time, as it is
  /// done with them; this process checks the next file whenever every worker has its files
  /// in hand. What a worker writes to standard error while it checks a file is forwarded,
  /// under a line that names the file; a worker that crashes or runs past ``fileTimeout``
  /// fails the file it was checking, and the files it had been sent go to a fresh worker.
  @MainActor
  private func checkWithWorkers(
    _ files: [String], workers: Int, checker: SpecCheck, context: CommandContext,
    deliver: @escaping (CheckedFile) -> Void
  ) {
    var environment = context.environment
    // As for a run's workers: the quote of a crash should end with its fatal error.
    if environment["SWIFT_BACKTRACE"] == nil { environment["SWIFT_BACKTRACE"] = "enable=no" }
    let pool = WorkerPool(
      WorkerPool.Configuration(
        executable: ReducerSpecCommand.currentExecutable(), environment: environment, jobs: workers,
        timeout: Self.fileTimeout, stopAfterFailure: false))
    // The answers come as the workers finish; they are delivered in file order.
    var waiting: [Int: CheckedFile] = [:]
    var next = 0
    _ = pool.check(files: files, interrupt: nil, here: checker.check(file:)) { index, checked, output in
      if !output.isEmpty { context.errorOutput(SpecRun.forwardedOutput(reading: files[index], output)) }
      waiting[index] = checked
      while let ready = waiting.removeValue(forKey: next) {
        deliver(ready)
        next += 1
      }
    }
  }
}
