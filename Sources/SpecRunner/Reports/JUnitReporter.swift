import Foundation
import SpecYAML

/// Writes the run as a JUnit XML file when it finishes (`--junit FILE`), for CI systems
/// that show test results.
///
/// ```xml
/// <?xml version="1.0" encoding="UTF-8"?>
/// <testsuites name="reducer-spec" tests="2" failures="1" errors="0" skipped="0" time="0.040" timestamp="2025-01-02T03:04:05Z">
///   <testsuite name="specs/counter.yaml" file="specs/counter.yaml" tests="2" failures="1" errors="0" skipped="0" time="0.032" timestamp="2025-01-02T03:04:05Z">
///     <testcase name="Incrementing counts up" classname="Counter" file="specs/counter.yaml" line="5" time="0.012"/>
///     <testcase name="Decrementing stops at zero" classname="Counter" file="specs/counter.yaml" line="9" time="0.020">
///       <failure message="A state change does not match expectation." type="StepFailure">specs/counter.yaml:14:9: error: …</failure>
///     </testcase>
///   </testsuite>
/// </testsuites>
/// ```
///
/// - One `testsuite` per spec file, named after its path; one `testcase` per scenario (per
///   example row), its `classname` the file's feature (the path when the feature is not
///   known). Equal names in a file get ` (2)`, ` (3)`… so each is unique.
/// - A failed scenario has one `failure`: its `message` is the first failure's summary,
///   with ` (and N more)` when there are several; its text is every failure as the console
///   shows it, without colour: `path:line:column: error: …`, the source line, the caret, the
///   diff and its legend.
/// - A scenario that could not finish has one `error` with what stopped it (after the
///   failures it had reported); a skipped one has `skipped` with its reason.
/// - A file that could not run is a `testsuite` with `errors="1"` and one `testcase`
///   named after the file, holding the `error` at its location.
/// - Times are seconds with three decimals; every timestamp is the run's start, in UTC.
/// - The text holds no ANSI escape and no character XML 1.0 forbids (see ``XMLText``); it
///   validates against the `junit-10-file-line.xsd` schema of `Tests/Fixtures`.
///
/// Each file's `testsuite` is made when the file's results are in (``suiteFinished(_:)``)
/// and kept in a temporary file until the run ends, so a large run's report is never held
/// in memory. The file is then written atomically, its parent directories created as
/// needed.
public final class JUnitReporter: RunReporter {
  /// Where the XML is written.
  public let path: String
  private let workingDirectory: String?
  private let currentDirectory: String
  private let now: () -> Date
  private var startDate: Date

  /// - Parameters:
  ///   - path: The file to write.
  ///   - workingDirectory: When given, the `file` attributes are relative to it (spec
  ///     paths the run names relatively are taken from the current directory); by default
  ///     they are the paths as the run names them.
  public convenience init(path: String, relativeTo workingDirectory: String? = nil) {
    self.init(
      path: path, relativeTo: workingDirectory,
      currentDirectory: FileManager.default.currentDirectoryPath, now: Date.init)
  }

  package init(path: String, relativeTo workingDirectory: String?, currentDirectory: String, now: @escaping () -> Date) {
    self.path = path
    self.workingDirectory = workingDirectory
    self.currentDirectory = currentDirectory
    self.now = now
    self.startDate = now()
  }

  /// The `testsuite` elements so far, and their counts.
  /// Made when the run starts (or, without ``runStarted(_:)``, with its first suite).
  private lazy var suites = SpoolFile()
  private var total = Counts()
  /// `startDate` as the file writes it.
  private lazy var startTimestamp = Self.timestamp(startDate)

  public func runStarted(_ plan: RunPlan) {
    startDate = now()
    startTimestamp = Self.timestamp(startDate)
    suites = SpoolFile()
    total = Counts()
  }

  public func suiteFinished(_ suite: SuiteResult) {
    let counts = Counts(suite)
    total = total + counts
    suites.append(element(for: suite, counts: counts, timestamp: startTimestamp))
  }

  /// Why the JUnit file could not be written.
  public struct WriteError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "cannot write the JUnit report to \(path): \(reason)" }
  }

  public func runFinished(_ summary: RunSummary) throws {
    do {
      var file = try AtomicFile(path: path)
      do {
        try file.write(opening(total, duration: summary.duration, timestamp: startTimestamp))
        if total.files > 0 {
          try suites.read { try file.write($0) }
          try file.write(Self.closing)
        }
        try file.commit()
      } catch {
        file.discard()
        throw error
      }
    } catch let failure as AtomicFile.Failure {
      throw WriteError(path: path, reason: failure.reason)
    } catch {
      throw WriteError(path: path, reason: "\(error)")
    }
  }

  // MARK: - The document

  /// The whole XML file for `result`, as a run whose reporters were sent its suites writes it.
  func document(for result: RunResult) -> String {
    let timestamp = Self.timestamp(startDate)
    let counts = result.suites.map(Counts.init)
    let total = counts.reduce(Counts()) { $0 + $1 }
    var xml = opening(total, duration: result.duration, timestamp: timestamp)
    guard total.files > 0 else { return xml }
    for (suite, counts) in zip(result.suites, counts) { xml += element(for: suite, counts: counts, timestamp: timestamp) }
    return xml + Self.closing
  }

  /// The XML declaration and the `testsuites` element's start (the whole element when
  /// there is no suite).
  private func opening(_ total: Counts, duration: Double, timestamp: String) -> String {
    var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
    xml += "<testsuites"
    xml += attributes([
      ("name", "reducer-spec"), ("tests", "\(total.tests)"), ("failures", "\(total.failures)"),
      ("errors", "\(total.errors)"), ("skipped", "\(total.skipped)"),
      ("time", formatSeconds(duration)), ("timestamp", timestamp),
    ])
    return xml + (total.files == 0 ? "/>\n" : ">\n")
  }

  private static let closing = "</testsuites>\n"

  /// One file's `testsuite` element.
  private func element(for suite: SuiteResult, counts: Counts, timestamp: String) -> String {
    var xml = "  <testsuite"
    xml += attributes([
      ("name", suite.file), ("file", relative(suite.file)), ("tests", "\(counts.tests)"),
      ("failures", "\(counts.failures)"), ("errors", "\(counts.errors)"),
      ("skipped", "\(counts.skipped)"), ("time", formatSeconds(suite.duration)),
      ("timestamp", timestamp),
    ])
    let cases = testCases(of: suite)
    guard !cases.isEmpty else { return xml + "/>\n" }
    xml += ">\n"
    for testCase in cases { xml += testCase }
    return xml + "  </testsuite>\n"
  }

  private func testCases(of suite: SuiteResult) -> [String] {
    let classname = suite.feature ?? suite.file
    var names = UniqueNames(originals: Set(suite.scenarios.map(\.name) + (suite.errors.isEmpty ? [] : [suite.file])))
    var cases: [String] = []
    if let first = suite.errors.first {
      let blocks = suite.errors.map { LocatedMessage($0).plainText }
      cases.append(
        testCase(
          name: names.claim(suite.file),
          classname: classname, file: suite.file, line: first.location.line, time: 0,
          child: element(
            "error", message: Self.summary(first.message, more: suite.errors.count - 1),
            type: "SpecFileError", text: blocks.joined(separator: "\n\n"))))
    }
    for scenario in suite.scenarios {
      let child: String?
      switch scenario.outcome {
      case .passed:
        child = nil
      case .skipped:
        child = "      <skipped" + attributes(scenario.skipReason.map { [("message", $0)] } ?? []) + "/>\n"
      case .failed:
        let failures = scenario.failures
        child = element(
          "failure",
          message: failures.first.map { $0.summary + Self.more(failures.count - 1) }
            ?? "The scenario failed.",
          type: "StepFailure",
          text: failures.map { LocatedMessage($0).plainText }.joined(separator: "\n\n"))
      case .error:
        let errorMessage = scenario.errorMessage ?? "The scenario did not finish."
        let blocks =
          scenario.failures.map { LocatedMessage($0).plainText }
          + [LocatedMessage(location: scenario.location, message: errorMessage, sourceLine: nil).plainText]
        child = element(
          "error", message: errorMessage.firstLine, type: "ScenarioError",
          text: blocks.joined(separator: "\n\n"))
      }
      var children = child
      if let notes = scenario.notes, !notes.isEmpty {
        // What was noted without failing, as the test case's output.
        let text = notes.map { "\(relative($0.location.file)):\($0.location.line):\($0.location.column): note: \($0.message)" }
        children = (children ?? "") + "      <system-out>" + XMLText.content(text.joined(separator: "\n\n")) + "</system-out>\n"
      }
      cases.append(
        testCase(
          name: names.claim(scenario.name), classname: classname,
          file: scenario.location.file, line: scenario.location.line, time: scenario.duration,
          child: children))
    }
    return cases
  }

  private func testCase(name: String, classname: String, file: String, line: Int, time: Double, child: String?)
    -> String
  {
    var xml = "    <testcase"
    xml += attributes([
      ("name", name), ("classname", classname), ("file", relative(file)), ("line", "\(max(line, 0))"),
      ("time", formatSeconds(time)),
    ])
    guard let child else { return xml + "/>\n" }
    return xml + ">\n" + child + "    </testcase>\n"
  }

  private func element(_ name: String, message: String, type: String, text: String) -> String {
    "      <\(name)" + attributes([("message", message), ("type", type)]) + ">"
      + XMLText.content(text) + "</\(name)>\n"
  }

  private func attributes(_ pairs: [(String, String)]) -> String {
    pairs.map { " \($0.0)=\"\(XMLText.attribute($0.1))\"" }.joined()
  }

  private func relative(_ file: String) -> String {
    guard let workingDirectory else { return file }
    return RelativePath.make(file, relativeTo: workingDirectory, currentDirectory: currentDirectory)
  }

  /// A message's first line, without a trailing ` …` or `:`, and ` (and N more)`.
  private static func summary(_ message: String, more: Int) -> String {
    StepFailure(location: FileLocation(file: "", line: 0, column: 0), message: message).summary + Self.more(more)
  }

  private static func more(_ count: Int) -> String {
    count > 0 ? " (and \(count) more)" : ""
  }

  /// `2025-01-02T03:04:05Z`.
  static func timestamp(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: date)
  }
}

// MARK: - Counting

extension JUnitReporter {
  /// The numbers a `testsuite` element carries.
  private struct Counts {
    var files = 0
    var tests = 0
    var failures = 0
    var errors = 0
    var skipped = 0

    package init() {}

    package init(_ suite: SuiteResult) {
      files = 1
      tests = suite.scenarios.count + (suite.errors.isEmpty ? 0 : 1)
      failures = suite.scenarios.count { $0.outcome == .failed }
      errors = suite.scenarios.count { $0.outcome == .error } + (suite.errors.isEmpty ? 0 : 1)
      skipped = suite.scenarios.count { $0.outcome == .skipped }
    }

    static func + (lhs: Counts, rhs: Counts) -> Counts {
      var sum = lhs
      sum.files += rhs.files
      sum.tests += rhs.tests
      sum.failures += rhs.failures
      sum.errors += rhs.errors
      sum.skipped += rhs.skipped
      return sum
    }
  }

  /// Test case names made unique within a suite: the first of equal names keeps it, the
  /// next ones get ` (2)`, ` (3)`…, skipping any suffixed name a test case already has.
  /// (`reducer-spec doc` names them alike to find a scenario's result.)
  package struct UniqueNames {
    /// Every name before duplicates are told apart.
    let originals: Set<String>
    private var claimed: Set<String> = []

    package init(originals: Set<String>) {
      self.originals = originals
    }

    package mutating func claim(_ name: String) -> String {
      if claimed.insert(name).inserted { return name }
      var number = 2
      while true {
        let candidate = "\(name) (\(number))"
        if !originals.contains(candidate), claimed.insert(candidate).inserted { return candidate }
        number += 1
      }
    }
  }
}
