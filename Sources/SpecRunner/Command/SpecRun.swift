import Foundation

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
  func run() -> Int32 {
    let clock = ContinuousClock()
    let started = clock.now
    let selection = select()
    let scenarios = selection.scenarios
    let plan = RunPlan(scenarios: scenarios, fileCount: selection.files.count, jobs: min(settings.jobs, scenarios.count))
    for reporter in reporters { reporter.runStarted(plan) }

    // Run order: each file's errors, or its scenarios.
    var events: [OrderedDelivery.Event] = []
    let failed = Set(selection.failedFiles.map(\.file))
    var byFile = Dictionary(grouping: scenarios.indices, by: { scenarios[$0].id.file })
    for file in selection.files {
      if failed.contains(file.file) { events += file.errors.map { .fileFailed($0) } }
      events += (byFile.removeValue(forKey: file.file) ?? []).map { .scenario($0) }
    }
    events += byFile.values.joined().sorted().map { .scenario($0) }  // Named unlike their file.
    var delivery = OrderedDelivery(events: events, scenarios: scenarios, reporters: reporters) { scenario, bytes in
      errorOutput(Self.forwardedOutput(of: scenario, bytes))
    }
    delivery.start()

    let interrupt = InterruptPipe()
    let ending = WorkerPool(worker).run(scenarios, interrupt: interrupt) { index, result, output in
      delivery.record(index, result, output: output)
    }
    delivery.finish()

    let notRun = scenarios.count - delivery.delivered.count
    switch ending {
    case .completed: break
    case .stoppedAfterFailure:
      errorOutput("reducer-spec: stopped after the first failure (--fail-fast); \(notRun) of \(scenarios.count) scenarios did not run\n")
    case .interrupted(let signal):
      errorOutput("reducer-spec: interrupted by \(SignalName.name(signal)); \(notRun) of \(scenarios.count) scenarios did not finish\n")
    }

    let result = RunResult(
      suites: suites(selection, delivered: delivery.delivered),
      duration: (clock.now - started).inSeconds,
      wasInterrupted: ending != .completed)
    var status = result.exitStatus
    for reporter in reporters {
      do {
        try reporter.runFinished(result)
      } catch {
        errorOutput("reducer-spec: error: \(error)\n")
        status = max(status, 1)
      }
    }
    if case .interrupted(let signal) = ending { return 128 + signal }
    return status
  }

  /// What a scenario's worker wrote to standard error, under a line that names the
  /// scenario, ending with a line break.
  static func forwardedOutput(of scenario: PlannedScenario, _ bytes: [UInt8]) -> String {
    var text = String(decoding: bytes, as: UTF8.self)
    if !text.hasSuffix("\n") { text += "\n" }
    return "── output of \(scenario.qualifiedName) ──\n" + text
  }

  /// One suite per file that has a reported error or a delivered result, in file order.
  private func suites(_ selection: Selection, delivered: [ScenarioResult]) -> [SuiteResult] {
    let results = Dictionary(grouping: delivered, by: \.id.file)
    let failed = Set(selection.failedFiles.map(\.file))
    return selection.files.compactMap { file in
      let scenarios = results[file.file] ?? []
      let errors = failed.contains(file.file) ? file.errors : []
      guard !scenarios.isEmpty || !errors.isEmpty else { return nil }
      return SuiteResult(file: file.file, feature: file.feature, scenarios: scenarios, errors: errors)
    }
  }
}
