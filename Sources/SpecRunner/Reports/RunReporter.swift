import SpecYAML

/// Receives the events of a run, in a deterministic order: a file's errors and its
/// scenarios' results arrive in the order of the files and of the scenarios in them,
/// whatever worker ran them and however many there are.
///
/// Every method has a default that does nothing, so a reporter implements only what it
/// needs: the console prints as results arrive, the JUnit writer writes at the end.
public protocol RunReporter: AnyObject {
  /// Before anything runs.
  func runStarted(_ plan: RunPlan)
  /// A spec file could not be read, parsed or validated; none of its scenarios run.
  func fileFailed(_ error: SpecFileError)
  /// Just before ``scenarioFinished(_:)`` for the same scenario.
  func scenarioStarted(_ scenario: PlannedScenario)
  func scenarioFinished(_ result: ScenarioResult)
  /// After everything, also when the run was interrupted (then with what had finished).
  func runFinished(_ result: RunResult) throws
}

extension RunReporter {
  public func runStarted(_ plan: RunPlan) {}
  public func fileFailed(_ error: SpecFileError) {}
  public func scenarioStarted(_ scenario: PlannedScenario) {}
  public func scenarioFinished(_ result: ScenarioResult) {}
  public func runFinished(_ result: RunResult) throws {}
}
