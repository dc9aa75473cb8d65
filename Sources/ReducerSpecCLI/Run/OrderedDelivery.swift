import SpecRunner
import SpecYAML

/// Hands a run's events to its reporters in run order, whatever order the workers finish
/// in: files in order, each file's errors where the file stands, each scenario once every
/// event before it was delivered. Results that arrive early wait in a buffer.
///
/// Events are added as the files are read, in run order; results may arrive in any order.
@MainActor
struct OrderedDelivery {
  /// One event of the run, in run order.
  enum Event {
    case fileFailed(SpecFileError)
    /// The scenario at this index of ``scenarios``.
    case scenario(Int)
  }

  private var events: [Event] = []
  /// The scenarios added so far, in run order.
  private(set) var scenarios: [PlannedScenario] = []
  private let reporters: [any RunReporter]
  /// Called with what a scenario's worker wrote to standard error (when it wrote
  /// something), just before the scenario is delivered.
  private let forwardOutput: (PlannedScenario, [UInt8]) -> Void
  private var nextEvent = 0
  private var waiting: [Int: (result: ScenarioResult, output: [UInt8])] = [:]
  /// The results delivered, in run order.
  private(set) var delivered: [ScenarioResult] = []

  init(reporters: [any RunReporter], forwardOutput: @escaping (PlannedScenario, [UInt8]) -> Void) {
    self.reporters = reporters
    self.forwardOutput = forwardOutput
  }

  /// Adds a file's error, after every event added before it.
  mutating func add(_ error: SpecFileError) {
    events.append(.fileFailed(error))
    advance(skippingUnfinished: false)
  }

  /// Adds a scenario, after every event added before it; returns its index.
  @discardableResult
  mutating func add(_ scenario: PlannedScenario) -> Int {
    scenarios.append(scenario)
    events.append(.scenario(scenarios.count - 1))
    return scenarios.count - 1
  }

  /// Records the result of the scenario at `index` and delivers every event it unblocks.
  mutating func record(_ index: Int, _ result: ScenarioResult, output: [UInt8]) {
    waiting[index] = (result, output)
    advance(skippingUnfinished: false)
  }

  /// Delivers the rest of the events, leaving out the scenarios that have no result (the
  /// run stopped before they finished).
  mutating func finish() { advance(skippingUnfinished: true) }

  private mutating func advance(skippingUnfinished: Bool) {
    while nextEvent < events.count {
      switch events[nextEvent] {
      case .fileFailed(let error):
        for reporter in reporters { reporter.fileFailed(error) }
      case .scenario(let index):
        if let (result, output) = waiting.removeValue(forKey: index) {
          if !output.isEmpty { forwardOutput(scenarios[index], output) }
          for reporter in reporters {
            reporter.scenarioStarted(scenarios[index])
            reporter.scenarioFinished(result)
          }
          delivered.append(result)
        } else if !skippingUnfinished {
          return
        }
      }
      nextEvent += 1
    }
  }
}
