import SpecYAML

/// Receives the events of a run, in a deterministic order: a file's errors and its
/// scenarios' results arrive in the order of the files and of the scenarios in them,
/// whatever worker ran them and however many there are.
///
/// Every method has a default that does nothing, so a reporter implements only what it
/// needs: the console prints as results arrive, the JUnit writer takes each file's results
/// with ``suiteFinished(_:)`` and writes the file at the end.
///
/// The runner keeps no result once it is delivered: a reporter that needs the results
/// after ``suiteFinished(_:)`` keeps what it needs of them itself. ``runFinished(_:)`` has
/// the counts.
public protocol RunReporter: AnyObject {
  /// Before anything runs.
  func runStarted(_ plan: RunPlan)
  /// A spec file could not be read, parsed or validated; none of its scenarios run.
  func fileFailed(_ error: SpecFileError)
  /// Just before ``scenarioFinished(_:)`` for the same scenario.
  func scenarioStarted(_ scenario: PlannedScenario)
  func scenarioFinished(_ result: ScenarioResult)
  /// After the last event of a file (its errors, or the results of its scenarios that
  /// ran): the file's results together. Not sent for a file that has neither (no scenario
  /// of it was selected, or the run stopped before any finished).
  func suiteFinished(_ suite: SuiteResult)
  /// After everything, also when the run was interrupted (then with what had finished).
  func runFinished(_ summary: RunSummary) throws
}

extension RunReporter {
  public func runStarted(_ plan: RunPlan) {}
  public func fileFailed(_ error: SpecFileError) {}
  public func scenarioStarted(_ scenario: PlannedScenario) {}
  public func scenarioFinished(_ result: ScenarioResult) {}
  public func suiteFinished(_ suite: SuiteResult) {}
  public func runFinished(_ summary: RunSummary) throws {}
}

extension RunReporter {
  /// Sends the events of one file's results in the order a run sends them: the file's
  /// errors, each scenario's start and result, then ``suiteFinished(_:)``. For results
  /// gathered elsewhere (`reducer-spec check` checks files rather than running them).
  public func report(_ suite: SuiteResult) {
    for error in suite.errors { fileFailed(error) }
    for scenario in suite.scenarios {
      scenarioStarted(PlannedScenario(id: scenario.id, name: scenario.name, location: scenario.location, tags: scenario.tags))
      scenarioFinished(scenario)
    }
    suiteFinished(suite)
  }
}
