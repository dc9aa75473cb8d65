import ArgumentParser
import Foundation
import SpecAuthoring
import SpecProcess
import SpecRunner
import SpecWorkers
import SpecYAML

/// `reducer-spec check [PATH…]`: reads and validates spec files without running them, as
/// fast as a pre-commit hook needs. Every file is parsed and bound to its feature in this
/// process: the YAML, every key, every action, state path and stub value decoded against
/// the registered types. Problems are reported as a run reports a file that cannot run,
/// in the same formats; a scenario that checked out counts as passed (in no time) in the
/// JSON and JUnit reports, and prints nothing on the console.
struct CheckCommand: Subcommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      commandName: "check",
      abstract: "Checks spec files without running them.",
      usage: "\(ProgramName.current) check [<options>] [<path> ...]",
      discussion: """
        Reads every spec file as a run would (the YAML, every key, every action, state path \
        and stub value, decoded against the registered features) and reports each problem \
        at its file:line:column. Exit status: 0 when every file checked out, 1 when any has \
        a problem, 64 for a usage error.
        """)
  }

  @Argument(help: ArgumentHelp(
    "Spec files, and directories to search recursively for *.yaml and *.yml files. (default: specs)",
    valueName: "path"))
  var paths: [String] = []

  @Option(help: ArgumentHelp(
    "How many processes check files: 1 checks every file in this one; N checks them in this one and N - 1 worker processes, each taking at least 512 KB of spec files. (default: the number of cores)",
    valueName: "n"))
  var jobs: Int?

  @Option(help: ArgumentHelp(
    "How long a worker process may take over one file before it is stopped and the file fails: 300ms, 1.5s, 2m, or seconds. (default: 1m)",
    valueName: "duration"))
  var timeout: String?

  @OptionGroup var reports: ReportOptions

  @MainActor
  func run(in context: CommandContext) throws -> Int32 {
    let cores = try RunScopeOptions.jobs(jobs, processorCount: ProcessInfo.processInfo.activeProcessorCount)
    let fileTimeout = try timeout.map(RunSettings.timeout) ?? Self.fileTimeout
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
    let reporter = MultiReporter(reporters)
    let processes = cores > 1 ? Self.processes(jobs: cores, bytes: Self.size(of: files)) : 1
    reporter.runStarted(RunPlan(files: files, jobs: processes))
    var summary = RunSummary()
    func deliver(_ checked: CheckedFile) {
      let loaded = checked.file
      let suite = SuiteResult(file: loaded.file, feature: loaded.feature, scenarios: checked.results, errors: loaded.errors)
      summary.add(suite)
      reporter.report(suite)
    }
    let checker = SpecCheck(reader: context.makeScenarioEngine())
    if processes > 1 {
      checkWithWorkers(
        files, workers: processes - 1, timeout: fileTimeout, checker: checker, context: context, deliver: deliver)
    } else if let engine = checker.reader as? SpecEngine {
      // Each file while the engine still has it: its state paths are checked without reading
      // it again.
      engine.load(files: files, parsingAhead: cores > 1) { deliver(checker.check($0)) }
    } else {
      for file in files { deliver(checker.check(file: file)) }
    }
    summary.duration = (ContinuousClock.now - start).inSeconds
    do {
      try reporter.runFinished(summary)
    } catch {
      context.errorOutput("Error: \(error)\n")
      return 1
    }
    return summary.exitStatus
  }

  /// The least YAML a process checks. A worker starts in about 15 ms, as long as checking
  /// some 300 KB of specs takes, and `check` goes on with the files while it starts: a worker
  /// pays for itself from about 500 KB of specs each (on two cores, `specs/`, 52 KB, took
  /// longer with one).
  static let bytesPerProcess = 512 * 1024

  /// How long a worker may take over one file before it is stopped, and the file fails,
  /// without `--timeout`.
  static let fileTimeout = Duration.seconds(60)

  /// How many processes check `bytes` of spec files with `--jobs jobs`: this one and the
  /// workers it starts, each with at least ``bytesPerProcess``.
  static func processes(jobs: Int, bytes: Int) -> Int {
    max(1, min(jobs, bytes / bytesPerProcess))
  }

  /// The files' sizes together (a file that cannot be read counts nothing: checking it
  /// says why).
  static func size(of files: [String]) -> Int {
    var total = 0
    for file in files {
      var status = stat()
      if stat(file, &status) == 0 { total += Int(status.st_size) }
    }
    return total
  }

  /// Checks `files` with `workers` worker processes and this one, and hands each file to
  /// `deliver` in file order. Each worker is sent the next files a few at a time, as it is
  /// done with them; this process checks the next file whenever every worker has its files
  /// in hand. What a worker writes to standard error while it checks a file is forwarded,
  /// under a line that names the file; a worker that crashes or runs past `timeout` fails
  /// the file it was checking, and the files it had been sent go to a fresh worker.
  @MainActor
  private func checkWithWorkers(
    _ files: [String], workers: Int, timeout: Duration, checker: SpecCheck, context: CommandContext,
    deliver: @escaping (CheckedFile) -> Void
  ) {
    let environment = WorkerPool.Configuration.workerEnvironment(context.environment)
    let pool = WorkerPool(
      WorkerPool.Configuration(
        executable: WorkerProcess.currentExecutable(), environment: environment, jobs: workers,
        timeout: timeout, stopAfterFailure: false))
    // The answers come as the workers finish; they are delivered in file order.
    var answers = AnswersInFileOrder<CheckedFile> { _, checked in deliver(checked) }
    _ = pool.check(files: files, interrupt: nil, here: checker.check(file:)) { index, checked, output in
      if !output.isEmpty { context.errorOutput(SpecRun.forwardedOutput(reading: files[index], output)) }
      answers.add(index, checked)
    }
  }
}
