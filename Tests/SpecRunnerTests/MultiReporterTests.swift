import Foundation
import Testing
@testable import SpecRunner

/// Fan-out to several reporters.
@Suite struct MultiReporterTests {
  /// Records the events it receives, and throws from `runFinished` when told to.
  private final class Recorder: RunReporter {
    struct Failure: Error, Equatable { var name: String }

    let name: String
    let log: LineCollector
    let throwsAtEnd: Bool

    init(_ name: String, log: LineCollector, throwsAtEnd: Bool = false) {
      self.name = name
      self.log = log
      self.throwsAtEnd = throwsAtEnd
    }

    func runStarted(_ plan: RunPlan) { log.append("\(name) runStarted \(plan.files.count)") }
    func fileFailed(_ error: SpecFileError) { log.append("\(name) fileFailed \(error.file)") }
    func scenarioStarted(_ scenario: PlannedScenario) { log.append("\(name) scenarioStarted \(scenario.id)") }
    func scenarioFinished(_ result: ScenarioResult) { log.append("\(name) scenarioFinished \(result.id)") }
    func suiteFinished(_ suite: SuiteResult) { log.append("\(name) suiteFinished \(suite.file)") }
    func runFinished(_ summary: RunSummary) throws {
      log.append("\(name) runFinished")
      if throwsAtEnd { throw Failure(name: name) }
    }
  }

  @Test func everyEventReachesEveryReporterInOrder() throws {
    let log = LineCollector()
    let reporter = MultiReporter([Recorder("a", log: log), Recorder("b", log: log)])
    try ReporterFixtures.everyOutcome.replay(into: reporter)
    #expect(
      log.lines == [
        "a runStarted 3", "b runStarted 3",
        "a scenarioStarted specs/counter.yaml#0", "b scenarioStarted specs/counter.yaml#0",
        "a scenarioFinished specs/counter.yaml#0", "b scenarioFinished specs/counter.yaml#0",
        "a scenarioStarted specs/counter.yaml#1", "b scenarioStarted specs/counter.yaml#1",
        "a scenarioFinished specs/counter.yaml#1", "b scenarioFinished specs/counter.yaml#1",
        "a scenarioStarted specs/counter.yaml#2", "b scenarioStarted specs/counter.yaml#2",
        "a scenarioFinished specs/counter.yaml#2", "b scenarioFinished specs/counter.yaml#2",
        "a suiteFinished specs/counter.yaml", "b suiteFinished specs/counter.yaml",
        "a scenarioStarted specs/search.yaml#0.1", "b scenarioStarted specs/search.yaml#0.1",
        "a scenarioFinished specs/search.yaml#0.1", "b scenarioFinished specs/search.yaml#0.1",
        "a suiteFinished specs/search.yaml", "b suiteFinished specs/search.yaml",
        "a fileFailed specs/broken.yaml", "b fileFailed specs/broken.yaml",
        "a suiteFinished specs/broken.yaml", "b suiteFinished specs/broken.yaml",
        "a runFinished", "b runFinished",
      ])
  }

  @Test func aReporterThatThrowsDoesNotStopTheOthers() {
    let log = LineCollector()
    let reporter = MultiReporter([
      Recorder("a", log: log, throwsAtEnd: true), Recorder("b", log: log, throwsAtEnd: true), Recorder("c", log: log),
    ])
    #expect(throws: Recorder.Failure(name: "a")) { try reporter.runFinished(ReporterFixtures.allPassing.summary) }
    #expect(log.lines == ["a runFinished", "b runFinished", "c runFinished"])
  }
}
