import SpecYAML

/// Sends every event to several reporters, in the order given: the console and a JUnit
/// file, say.
///
/// ```swift
/// let reporter = MultiReporter([ConsoleReporter(color: true), JUnitReporter(path: "report.xml")])
/// ```
///
/// ``runFinished(_:)`` reaches every reporter even when one throws; the first error is
/// rethrown after the last.
public final class MultiReporter: RunReporter {
  public let reporters: [any RunReporter]

  public init(_ reporters: [any RunReporter]) {
    self.reporters = reporters
  }

  public func runStarted(_ plan: RunPlan) {
    for reporter in reporters { reporter.runStarted(plan) }
  }

  public func fileFailed(_ error: SpecFileError) {
    for reporter in reporters { reporter.fileFailed(error) }
  }

  public func scenarioStarted(_ scenario: PlannedScenario) {
    for reporter in reporters { reporter.scenarioStarted(scenario) }
  }

  public func scenarioFinished(_ result: ScenarioResult) {
    for reporter in reporters { reporter.scenarioFinished(result) }
  }

  public func suiteFinished(_ suite: SuiteResult) {
    for reporter in reporters { reporter.suiteFinished(suite) }
  }

  public func runFinished(_ summary: RunSummary) throws {
    var firstError: (any Error)?
    for reporter in reporters {
      do {
        try reporter.runFinished(summary)
      } catch {
        if firstError == nil { firstError = error }
      }
    }
    if let firstError { throw firstError }
  }
}
