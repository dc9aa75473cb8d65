import Foundation
import SpecYAML

// MARK: - Failures

/// One failed check of a scenario, at the YAML step that failed.
///
/// The message is the `TestStore` message as it would appear in Xcode: a one-line
/// heading, then (for state and action mismatches) a blank line, the diff, a blank
/// line and the legend, `(Expected: −, Actual: +)`.
public struct StepFailure: Sendable, Hashable, Codable {
  /// The spec file (as the run names it), and the line and column of the step.
  public var location: FileLocation
  /// The whole message: heading, diff and legend, plain text.
  public var message: String
  /// The source line at `location`, without its line break, for a caret under the column.
  public var sourceLine: String?

  public init(location: FileLocation, message: String, sourceLine: String? = nil) {
    self.location = location
    self.message = message
    self.sourceLine = sourceLine
  }

  /// The message's first line, without a trailing ` …` or `:`: what a one-line report shows.
  public var summary: String {
    var first = message.prefix { $0 != "\n" }
    while let last = first.last, last == " " || last == "…" || last == ":" { first.removeLast() }
    return String(first)
  }
}

// MARK: - Scenarios

/// What one scenario (one example row of an outline) did.
public struct ScenarioResult: Sendable, Hashable, Codable {
  /// How a scenario ended.
  public enum Outcome: String, Sendable, Hashable, Codable {
    /// Every step held.
    case passed
    /// At least one step failed; ``ScenarioResult/failures`` says which.
    case failed
    /// `skip:` in the spec; ``ScenarioResult/skipReason`` says why.
    case skipped
    /// The scenario could not finish: its worker crashed, or it ran past its timeout.
    case error
  }

  /// Which scenario of the run this is.
  public var id: ScenarioID
  /// The scenario's name, with an outline's placeholders filled in from its row.
  public var name: String
  /// Where the scenario is written: its `name:` (or, for an example row, the row).
  public var location: FileLocation
  public var tags: [String]
  public var outcome: Outcome
  /// Wall-clock seconds the scenario took.
  public var duration: Double
  /// Every failed check, in the order they were reported (for `.failed`, and for an
  /// `.error` that failed checks before it stopped).
  public var failures: [StepFailure]
  /// Why the scenario was skipped (for `.skipped`).
  public var skipReason: String?
  /// What stopped the scenario (for `.error`): the signal or timeout, and what the
  /// worker wrote to its standard error.
  public var errorMessage: String?
  /// What was noted without failing (`showSkippedAssertions`), in order; `nil` when nothing was.
  public var notes: [StepFailure]?
  /// How many times the scenario used each of its stubs whose uses can be counted (an
  /// endpoint's calls, a value list's values, a stream's opens), by stub name; `nil` when it
  /// stubbed none of them. What `reducer-spec coverage` reads to say whether a stub was called.
  public var stubCalls: [String: Int]?

  public init(
    id: ScenarioID, name: String, location: FileLocation, tags: [String], outcome: Outcome,
    duration: Double, failures: [StepFailure] = [], skipReason: String? = nil, errorMessage: String? = nil
  ) {
    self.id = id
    self.name = name
    self.location = location
    self.tags = tags
    self.outcome = outcome
    self.duration = duration
    self.failures = failures
    self.skipReason = skipReason
    self.errorMessage = errorMessage
  }
}

/// A scenario's place in a run: its file, its index in the file's `scenarios`, and for an
/// outline the index of its example row. Stable for a given set of files, so results can
/// be put back in order whatever worker ran them.
public struct ScenarioID: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
  /// The spec file's path as the run names it.
  public var file: String
  /// The scenario's index in the file's `scenarios`, from 0.
  public var scenario: Int
  /// The example row's index, from 0; `nil` for a scenario without `examples`.
  public var row: Int?

  public init(file: String, scenario: Int, row: Int? = nil) {
    self.file = file
    self.scenario = scenario
    self.row = row
  }

  public static func < (lhs: ScenarioID, rhs: ScenarioID) -> Bool {
    (lhs.file, lhs.scenario, lhs.row ?? -1) < (rhs.file, rhs.scenario, rhs.row ?? -1)
  }

  /// `specs/counter.yaml#2` or `specs/counter.yaml#2.1`.
  public var description: String {
    "\(file)#\(scenario)" + (row.map { ".\($0)" } ?? "")
  }
}

// MARK: - Files and runs

/// A spec file that could not be read, parsed or validated: none of its scenarios ran.
public struct SpecFileError: Sendable, Hashable, Codable {
  /// The spec file's path as the run names it.
  public var file: String
  /// Where the problem is; the line is 0 when it is the file as a whole.
  public var location: FileLocation
  /// One sentence, without the location.
  public var message: String
  /// The source line at `location`, for a caret under the column.
  public var sourceLine: String?

  public init(file: String, location: FileLocation, message: String, sourceLine: String? = nil) {
    self.file = file
    self.location = location
    self.message = message
    self.sourceLine = sourceLine
  }

  /// `path:line:column: error: message`.
  public var description: String { "\(location): error: \(message)" }
}

/// The results of one spec file, in the order of its scenarios.
public struct SuiteResult: Sendable, Hashable, Codable {
  /// The spec file's path as the run names it.
  public var file: String
  /// The feature the file describes, when it could be read.
  public var feature: String?
  public var scenarios: [ScenarioResult]
  /// Why the file did not run, if it did not.
  public var errors: [SpecFileError]

  public init(file: String, feature: String? = nil, scenarios: [ScenarioResult] = [], errors: [SpecFileError] = []) {
    self.file = file
    self.feature = feature
    self.scenarios = scenarios
    self.errors = errors
  }

  public var duration: Double { scenarios.reduce(0) { $0 + $1.duration } }
}

/// Everything a run did: its files in order, each with its scenarios in order.
///
/// What `reducer-spec coverage` gathers to read the run afterwards; a run of the command
/// keeps no such list (its reporters take each file's results as they arrive, see
/// ``RunReporter``), so that its memory does not grow with the suite.
public struct RunResult: Sendable, Hashable, Codable {
  public var suites: [SuiteResult]
  /// Wall-clock seconds from the start of the run to its end.
  public var duration: Double
  /// `true` when the run stopped early (Ctrl-C, or `--fail-fast` after a failure): the
  /// suites hold what had finished.
  public var wasInterrupted: Bool

  public init(suites: [SuiteResult], duration: Double, wasInterrupted: Bool = false) {
    self.suites = suites
    self.duration = duration
    self.wasInterrupted = wasInterrupted
  }

  public var scenarios: [ScenarioResult] { suites.flatMap(\.scenarios) }
  public var fileErrors: [SpecFileError] { suites.flatMap(\.errors) }

  /// The counts of every suite, what a reporter's ``RunReporter/runFinished(_:)`` receives.
  public var summary: RunSummary {
    var summary = RunSummary(duration: duration, wasInterrupted: wasInterrupted)
    for suite in suites.indices { summary.add(suites[suite]) }
    return summary
  }

  public var passed: Int { summary.passed }
  /// Scenarios that failed or could not finish.
  public var failed: Int { summary.failed }
  public var skipped: Int { summary.skipped }
  /// 0 when every scenario passed or was skipped and every file could run; 1 otherwise.
  public var exitStatus: Int32 { summary.exitStatus }
  /// The last line of the console report: `3 passed, 1 failed, 0 skipped`.
  public var summaryLine: String { summary.summaryLine }
}

/// How a run ended, in numbers: what reporters print and the exit status, without the
/// results themselves. Counted suite by suite as the run goes (``add(_:)``).
public struct RunSummary: Sendable, Hashable, Codable {
  /// Files reported: those with a result or an error.
  public var files = 0
  /// Files that could not run (with at least one error).
  public var failedFiles = 0
  /// Every file error (a file may have several).
  public var fileErrors = 0
  /// Scenario results reported, whatever their outcome.
  public var scenarios = 0
  public var passed = 0
  /// Scenarios that failed or could not finish.
  public var failed = 0
  public var skipped = 0
  /// Wall-clock seconds from the start of the run to its end.
  public var duration: Double
  /// `true` when the run stopped early (Ctrl-C, or `--fail-fast` after a failure).
  public var wasInterrupted: Bool

  public init(duration: Double = 0, wasInterrupted: Bool = false) {
    self.duration = duration
    self.wasInterrupted = wasInterrupted
  }

  /// Counts one file's results.
  public mutating func add(_ suite: SuiteResult) {
    files += 1
    fileErrors += suite.errors.count
    if !suite.errors.isEmpty { failedFiles += 1 }
    // By index: iterating would copy every result (a large struct) to read its outcome.
    let results = suite.scenarios
    scenarios += results.count
    for index in results.indices {
      switch results[index].outcome {
      case .passed: passed += 1
      case .failed, .error: failed += 1
      case .skipped: skipped += 1
      }
    }
  }

  /// 0 when every scenario passed or was skipped and every file could run; 1 otherwise.
  public var exitStatus: Int32 { failed == 0 && fileErrors == 0 && !wasInterrupted ? 0 : 1 }

  /// The last line of the console report: `3 passed, 1 failed, 0 skipped`.
  public var summaryLine: String { "\(passed) passed, \(failed) failed, \(skipped) skipped" }
}

extension FileLocation: Codable {
  private enum CodingKeys: String, CodingKey { case file, line, column }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      file: try container.decode(String.self, forKey: .file),
      line: try container.decode(Int.self, forKey: .line),
      column: try container.decode(Int.self, forKey: .column))
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(file, forKey: .file)
    try container.encode(line, forKey: .line)
    try container.encode(column, forKey: .column)
  }
}

extension Duration {
  /// The duration in seconds, from its whole nanoseconds (the clocks' resolution): the
  /// nearest `Double` to a decimal of at most 15 digits, which a worker writes in few digits.
  package var inSeconds: Double {
    let (seconds, attoseconds) = components
    guard abs(seconds) < 1_000_000 else { return Double(seconds) + Double(attoseconds) / 1e18 }
    return Double(seconds * 1_000_000_000 + attoseconds / 1_000_000_000) / 1e9
  }
}
