import Foundation
import SpecProcess
import SpecRunner
import SpecWorkers
import SpecYAML

/// One run of the command, after its options are checked: load every file, select the
/// scenarios, run them in workers, and feed the reporters in run order.
@MainActor
struct SpecRun {
  var settings: RunSettings
  var engine: any ScenarioEngine
  var reporters: [any RunReporter]
  /// How to start a worker: this executable, its environment.
  var worker: WorkerPool.Configuration
  /// Standard output and standard error.
  var output: (String) -> Void
  var errorOutput: (String) -> Void
  /// Writes out what `output` holds back (called whenever the run is about to wait).
  var flushOutput: () -> Void = {}

  // MARK: - Planning

  /// The files as the engine read them, and the scenarios that the selection keeps.
  struct Selection {
    var files: [LoadedFile]
    var scenarios: [PlannedScenario]
    /// The files whose errors this run reports (every shard but the first leaves them out).
    var failedFiles: [LoadedFile]
  }

  func select() -> Selection {
    let files = engine.load(files: settings.files)
    let runnable = files.filter(\.errors.isEmpty).flatMap(\.scenarios)
    return Selection(
      files: files,
      scenarios: settings.selection.apply(to: runnable),
      failedFiles: settings.selection.reportsFileErrors ? files.filter { !$0.errors.isEmpty } : [])
  }

  // MARK: - Listing

  /// `--list`: the selected scenarios' qualified names, one per line; file errors on
  /// standard error. Exit status 1 when a file has an error.
  func list() -> Int32 {
    let selection = select()
    for scenario in selection.scenarios { output(scenario.qualifiedName + "\n") }
    for error in selection.failedFiles.flatMap(\.errors) { errorOutput(error.description + "\n") }
    return selection.failedFiles.isEmpty ? 0 : 1
  }

  // MARK: - Running

  /// Runs the selected scenarios and returns the exit status: the run's own (0 or 1), or
  /// 128 + the signal when interrupted.
  ///
  /// The command reads no spec file itself: the workers read them and answer with their
  /// scenarios, which are selected here file by file, in file order (`--shard` counts
  /// across files), as they arrive.
  func run() -> Int32 {
    let interrupt = InterruptPipe()
    return run(files: settings.files, pool: WorkerPool(worker), interrupt: interrupt).status
  }

  /// How a run ended: its exit status, its counts, what failed, and how the pool ended.
  struct Outcome {
    var status: Int32
    var summary: RunSummary
    /// The scenarios that failed or could not finish, and the files with errors.
    var failedScenarios: Set<ScenarioID>
    var brokenFiles: Set<String>
    var ending: WorkerPool.Ending
  }

  /// Runs the scenarios of `files` that the selection keeps and `keep` accepts, on `pool`
  /// (a `--watch` run reuses one pool and one interrupt pipe for all its runs).
  ///
  /// The command keeps no result once its reporters have it: its memory does not grow with
  /// the number of scenarios (the reporters that need results keep what they need).
  func run(
    files: [String], keep: ((PlannedScenario) -> Bool)? = nil, pool: WorkerPool, interrupt: InterruptPipe
  ) -> Outcome {
    let clock = ContinuousClock()
    let started = clock.now
    let plan = RunPlan(files: files, jobs: settings.jobs)
    for reporter in reporters { reporter.runStarted(plan) }

    var delivery = OrderedDelivery(reporters: reporters) { scenario, bytes in
      errorOutput(Self.forwardedOutput(of: scenario, bytes))
    }
    var read = 0
    var position = 0
    let selection = settings.selection
    let ending = pool.run(files: files, interrupt: interrupt, beforeWaiting: flushOutput) {
      index, file, output in
      read += 1
      if !output.isEmpty { errorOutput(Self.forwardedOutput(reading: file.file, output)) }
      defer { delivery.endFile(file.file, feature: file.feature) }
      guard file.errors.isEmpty else {
        if selection.reportsFileErrors { file.errors.forEach { delivery.add($0) } }
        return []
      }
      var selected = selection.apply(to: file.scenarios, position: &position)
      if let keep { selected = selected.filter(keep) }
      for scenario in selected { delivery.add(scenario) }
      return selected
    } onResult: { index, result, output in
      delivery.record(index, result, output: output)
    }
    delivery.finish()

    let notRun = delivery.added - delivery.delivered
    let unread = files.count - read
    let unreadText = unread == 0 ? "" : ", and \(unread) of \(files.count) files were not read"
    switch ending {
    case .completed: break
    case .stoppedAfterFailure:
      errorOutput(
        "\(ProgramName.current): stopped after the first failure (--fail-fast); \(notRun) of \(delivery.added) scenarios did not run\(unreadText)\n")
    case .interrupted(let signal):
      errorOutput(
        "\(ProgramName.current): interrupted by \(SignalName.name(signal)); \(notRun) of \(delivery.added) scenarios did not finish\(unreadText)\n")
    }

    var summary = delivery.summary
    summary.duration = (clock.now - started).inSeconds
    summary.wasInterrupted = ending != .completed
    var status = summary.exitStatus
    for reporter in reporters {
      do {
        try reporter.runFinished(summary)
      } catch {
        errorOutput("\(ProgramName.current): error: \(error)\n")
        status = max(status, 1)
      }
    }
    if case .interrupted(let signal) = ending { status = 128 + signal }
    return Outcome(
      status: status, summary: summary, failedScenarios: delivery.failedScenarios,
      brokenFiles: delivery.brokenFiles, ending: ending)
  }

  /// What a scenario's worker wrote to standard error, under a line that names the
  /// scenario, ending with a line break.
  static func forwardedOutput(of scenario: PlannedScenario, _ bytes: [UInt8]) -> String {
    var text = String(decoding: bytes, as: UTF8.self)
    if !text.hasSuffix("\n") { text += "\n" }
    return "── output of \(scenario.qualifiedName) ──\n" + text
  }

  /// What a worker wrote to standard error while it read a file.
  static func forwardedOutput(reading file: String, _ bytes: [UInt8]) -> String {
    var text = String(decoding: bytes, as: UTF8.self)
    if !text.hasSuffix("\n") { text += "\n" }
    return "── output while reading \(file) ──\n" + text
  }
}
