import SpecRunner
import SpecYAML

/// Hands a run's events to its reporters in run order, whatever order the workers finish
/// in: files in order, each file's errors where the file stands, each scenario once every
/// event before it was delivered, and each file's results together (``RunReporter/suiteFinished(_:)``)
/// after its last event. Results that arrive early wait in a buffer.
///
/// Events are added as the files are read, in run order; results may arrive in any order.
/// What was delivered is not kept, only counted (``summary``) and, for `--watch`, what
/// failed: the delivery's memory stays the same however large the suite.
@MainActor
package struct OrderedDelivery {
  /// One event of the run, in run order.
  package enum Event {
    case fileFailed(SpecFileError)
    /// The scenario with this index (counted from 0 over the run).
    case scenario(Int)
    /// The file's events end here.
    case fileEnded(file: String, feature: String?)
  }

  /// The events not delivered yet (and some delivered ones, until they are dropped).
  private var events: [Event] = []
  /// The next event of ``events`` to deliver.
  private var nextEvent = 0
  /// Scenarios added and not delivered yet, by index.
  private var planned = IndexWindow<PlannedScenario>()
  /// How many scenarios were added.
  package private(set) var added = 0
  /// How many scenarios were delivered.
  package private(set) var delivered = 0
  private var waiting = IndexWindow<(result: ScenarioResult, output: [UInt8])>()
  /// The file being delivered: its errors and results so far.
  private var fileErrors: [SpecFileError] = []
  private var fileResults: [ScenarioResult] = []
  /// The counts of the files delivered so far.
  package private(set) var summary = RunSummary()
  /// The scenarios delivered that failed or could not finish, and the files with errors.
  package private(set) var failedScenarios: Set<ScenarioID> = []
  package private(set) var brokenFiles: Set<String> = []

  private let reporters: [any RunReporter]
  /// Called with what a scenario's worker wrote to standard error (when it wrote
  /// something), just before the scenario is delivered.
  private let forwardOutput: (PlannedScenario, [UInt8]) -> Void

  package init(reporters: [any RunReporter], forwardOutput: @escaping (PlannedScenario, [UInt8]) -> Void) {
    self.reporters = reporters
    self.forwardOutput = forwardOutput
  }

  /// Adds a file's error, after every event added before it.
  package mutating func add(_ error: SpecFileError) {
    events.append(.fileFailed(error))
    advance(skippingUnfinished: false)
  }

  /// Adds a scenario, after every event added before it; returns its index.
  @discardableResult
  package mutating func add(_ scenario: PlannedScenario) -> Int {
    let index = added
    added += 1
    planned[index] = scenario
    events.append(.scenario(index))
    return index
  }

  /// Ends the events of `file`, which the run reads as describing `feature`.
  package mutating func endFile(_ file: String, feature: String?) {
    events.append(.fileEnded(file: file, feature: feature))
    advance(skippingUnfinished: false)
  }

  /// Records the result of the scenario at `index` and delivers every event it unblocks.
  package mutating func record(_ index: Int, _ result: ScenarioResult, output: [UInt8]) {
    waiting[index] = (result, output)
    advance(skippingUnfinished: false)
  }

  /// Delivers the rest of the events, leaving out the scenarios that have no result (the
  /// run stopped before they finished).
  package mutating func finish() { advance(skippingUnfinished: true) }

  private mutating func advance(skippingUnfinished: Bool) {
    delivering: while nextEvent < events.count {
      switch events[nextEvent] {
      case .fileFailed(let error):
        for reporter in reporters { reporter.fileFailed(error) }
        fileErrors.append(error)
      case .scenario(let index):
        if let (result, output) = waiting.removeValue(forKey: index), let scenario = planned.removeValue(forKey: index) {
          if !output.isEmpty { forwardOutput(scenario, output) }
          for reporter in reporters {
            reporter.scenarioStarted(scenario)
            reporter.scenarioFinished(result)
          }
          delivered += 1
          if result.outcome == .failed || result.outcome == .error { failedScenarios.insert(result.id) }
          fileResults.append(result)
        } else if skippingUnfinished {
          planned[index] = nil
        } else {
          break delivering
        }
      case .fileEnded(let file, let feature):
        if !fileErrors.isEmpty || !fileResults.isEmpty {
          let suite = SuiteResult(file: file, feature: feature, scenarios: fileResults, errors: fileErrors)
          summary.add(suite)
          if !fileErrors.isEmpty { brokenFiles.insert(file) }
          for reporter in reporters { reporter.suiteFinished(suite) }
          fileErrors = []
          fileResults = []
        }
      }
      nextEvent += 1
    }
    // What was delivered is dropped now and then, not at every event.
    if nextEvent >= 1024 && nextEvent * 2 >= events.count {
      events.removeFirst(nextEvent)
      nextEvent = 0
    }
  }
}
