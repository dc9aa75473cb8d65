import Foundation
import SpecRunner

// Runs built by hand, with fixed durations, for the reporter tests.

enum ReporterFixtures {
  static let counterFile = "specs/counter.yaml"
  static let searchFile = "specs/search.yaml"
  static let brokenFile = "specs/broken.yaml"

  static let stateMismatch = """
    A state change does not match expectation.

        \u{2007} Counter.State(
        −   count: 0
        +   count: -1
        \u{2007} )

    (Expected: −, Actual: +)
    """

  static let passing = ScenarioResult(
    id: ScenarioID(file: counterFile, scenario: 0), name: "Incrementing counts up",
    location: FileLocation(file: counterFile, line: 5, column: 11), tags: ["smoke"], outcome: .passed,
    duration: 0.012)

  static let failing = ScenarioResult(
    id: ScenarioID(file: counterFile, scenario: 1), name: "Decrementing stops at zero",
    location: FileLocation(file: counterFile, line: 10, column: 11), tags: [], outcome: .failed,
    duration: 0.0204,
    failures: [
      StepFailure(
        location: FileLocation(file: counterFile, line: 14, column: 9), message: stateMismatch,
        sourceLine: "      - send: decrement")
    ])

  static let skipped = ScenarioResult(
    id: ScenarioID(file: counterFile, scenario: 2), name: "Resetting",
    location: FileLocation(file: counterFile, line: 20, column: 11), tags: [], outcome: .skipped,
    duration: 0, skipReason: "not written yet")

  static let crashed = ScenarioResult(
    id: ScenarioID(file: searchFile, scenario: 0, row: 1), name: "Searching for swift",
    location: FileLocation(file: searchFile, line: 12, column: 9), tags: ["search"], outcome: .error,
    duration: 1.5,
    errorMessage: """
      The worker stopped with signal 11 (SIGSEGV). It wrote:
      Fatal error: Unexpectedly found nil while unwrapping an Optional value

      Current stack trace:
      """)

  static let fileError = SpecFileError(
    file: brokenFile, location: FileLocation(file: brokenFile, line: 1, column: 10),
    message: #"unknown feature "Nope"; the registered features are Counter, RepositorySearch"#,
    sourceLine: "feature: Nope")

  /// Every outcome: a file with a pass, a failure and a skip, one whose scenario crashed,
  /// and one that could not run.
  static let everyOutcome = RunResult(
    suites: [
      SuiteResult(file: counterFile, feature: "Counter", scenarios: [passing, failing, skipped]),
      SuiteResult(file: searchFile, feature: "RepositorySearch", scenarios: [crashed]),
      SuiteResult(file: brokenFile, errors: [fileError]),
    ],
    duration: 1.75)

  static let allPassing = RunResult(
    suites: [SuiteResult(file: counterFile, feature: "Counter", scenarios: [passing])], duration: 0.02)
}

extension RunResult {
  /// The plan of a run that read exactly these files.
  func plan(jobs: Int = 2) -> RunPlan {
    RunPlan(files: suites.map(\.file), jobs: jobs)
  }

  /// Sends this run's events to `reporter` in the order the runner does.
  func replay(into reporter: any RunReporter) throws {
    reporter.runStarted(plan())
    for suite in suites { reporter.report(suite) }
    try reporter.runFinished(summary)
  }
}

/// Lines a reporter wrote, collected.
final class LineCollector: @unchecked Sendable {
  private(set) var lines: [String] = []

  func append(_ line: String) { lines.append(line) }

  /// The lines joined with line feeds, as a terminal would show them.
  var text: String { lines.joined(separator: "\n") }
}
