import Foundation
import TestSupport
import Testing
@testable import SpecRunner

/// The JUnit XML file, character for character, and its validation against the schema.
@Suite struct JUnitReporterTests {
  /// 2025-01-02T03:04:05Z.
  private static let start = Date(timeIntervalSince1970: 1_735_787_045)

  private func reporter(path: String = "unused.xml", relativeTo: String? = nil) -> JUnitReporter {
    JUnitReporter(path: path, relativeTo: relativeTo, currentDirectory: "/repo", now: { Self.start })
  }

  private func document(_ run: RunResult, relativeTo: String? = nil) -> String {
    reporter(relativeTo: relativeTo).document(for: run)
  }

  @Test func everyOutcome() {
    #expect(
      document(ReporterFixtures.everyOutcome) == """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="reducer-spec" tests="5" failures="1" errors="2" skipped="1" time="1.750" timestamp="2025-01-02T03:04:05Z">
          <testsuite name="specs/counter.yaml" file="specs/counter.yaml" tests="3" failures="1" errors="0" skipped="1" time="0.032" timestamp="2025-01-02T03:04:05Z">
            <testcase name="Incrementing counts up" classname="Counter" file="specs/counter.yaml" line="5" time="0.012"/>
            <testcase name="Decrementing stops at zero" classname="Counter" file="specs/counter.yaml" line="10" time="0.020">
              <failure message="A state change does not match expectation." type="StepFailure">specs/counter.yaml:14:9: error: A state change does not match expectation.
              - send: decrement
                ^

            \u{2007} Counter.State(
            −   count: 0
            +   count: -1
            \u{2007} )

        (Expected: −, Actual: +)</failure>
            </testcase>
            <testcase name="Resetting" classname="Counter" file="specs/counter.yaml" line="20" time="0.000">
              <skipped message="not written yet"/>
            </testcase>
          </testsuite>
          <testsuite name="specs/search.yaml" file="specs/search.yaml" tests="1" failures="0" errors="1" skipped="0" time="1.500" timestamp="2025-01-02T03:04:05Z">
            <testcase name="Searching for swift" classname="RepositorySearch" file="specs/search.yaml" line="12" time="1.500">
              <error message="The worker stopped with signal 11 (SIGSEGV). It wrote:" type="ScenarioError">specs/search.yaml:12:9: error: The worker stopped with signal 11 (SIGSEGV). It wrote:
        Fatal error: Unexpectedly found nil while unwrapping an Optional value

        Current stack trace:</error>
            </testcase>
          </testsuite>
          <testsuite name="specs/broken.yaml" file="specs/broken.yaml" tests="1" failures="0" errors="1" skipped="0" time="0.000" timestamp="2025-01-02T03:04:05Z">
            <testcase name="specs/broken.yaml" classname="specs/broken.yaml" file="specs/broken.yaml" line="1" time="0.000">
              <error message="unknown feature &quot;Nope&quot;; the registered features are Counter, RepositorySearch" type="SpecFileError">specs/broken.yaml:1:10: error: unknown feature "Nope"; the registered features are Counter, RepositorySearch
        feature: Nope
                 ^</error>
            </testcase>
          </testsuite>
        </testsuites>

        """)
  }

  @Test func severalFailuresAndAnErrorAfterFailures() {
    let file = "specs/counter.yaml"
    func failure(_ line: Int, _ message: String) -> StepFailure {
      StepFailure(location: FileLocation(file: file, line: line, column: 7), message: message)
    }
    let failed = ScenarioResult(
      id: ScenarioID(file: file, scenario: 0), name: "Two failures",
      location: FileLocation(file: file, line: 3, column: 11), tags: [], outcome: .failed, duration: 0.25,
      failures: [failure(5, "Unhandled actions: …\n\n  .increment"), failure(6, "Another one:")])
    let crashed = ScenarioResult(
      id: ScenarioID(file: file, scenario: 1), name: "Then a timeout",
      location: FileLocation(file: file, line: 8, column: 11), tags: [], outcome: .error, duration: 5,
      failures: [failure(9, "First this")], errorMessage: "The scenario ran past its timeout of 5 seconds.")
    let run = RunResult(suites: [SuiteResult(file: file, scenarios: [failed, crashed])], duration: 5.25)
    #expect(
      document(run) == """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="reducer-spec" tests="2" failures="1" errors="1" skipped="0" time="5.250" timestamp="2025-01-02T03:04:05Z">
          <testsuite name="specs/counter.yaml" file="specs/counter.yaml" tests="2" failures="1" errors="1" skipped="0" time="5.250" timestamp="2025-01-02T03:04:05Z">
            <testcase name="Two failures" classname="specs/counter.yaml" file="specs/counter.yaml" line="3" time="0.250">
              <failure message="Unhandled actions (and 1 more)" type="StepFailure">specs/counter.yaml:5:7: error: Unhandled actions: …

          .increment

        specs/counter.yaml:6:7: error: Another one:</failure>
            </testcase>
            <testcase name="Then a timeout" classname="specs/counter.yaml" file="specs/counter.yaml" line="8" time="5.000">
              <error message="The scenario ran past its timeout of 5 seconds." type="ScenarioError">specs/counter.yaml:9:7: error: First this

        specs/counter.yaml:8:11: error: The scenario ran past its timeout of 5 seconds.</error>
            </testcase>
          </testsuite>
        </testsuites>

        """)
  }

  @Test func escapingAnsiAndForbiddenCharacters() {
    let file = "specs/a&b.yaml"
    let name = #"Tom & "Jerry's" <friends>"#
    let failed = ScenarioResult(
      id: ScenarioID(file: file, scenario: 0), name: name, location: FileLocation(file: file, line: 2, column: 11),
      tags: [], outcome: .failed, duration: 0.001,
      failures: [
        StepFailure(
          location: FileLocation(file: file, line: 3, column: 5),
          message: "Colours \u{1B}[1;31mred\u{1B}[0m, a NUL \u{0}, a SOH \u{1}, a lone \u{1B}, \u{FFFF} & <tags>\n\r\nlast\tline",
          sourceLine: "    - send: \"<&>\"")
      ])
    let skipped = ScenarioResult(
      id: ScenarioID(file: file, scenario: 1), name: "Skipped", location: FileLocation(file: file, line: 9, column: 11),
      tags: [], outcome: .skipped, duration: 0, skipReason: "line one\nline two\tafter a tab\rafter a CR 'quoted'")
    let run = RunResult(suites: [SuiteResult(file: file, scenarios: [failed, skipped])], duration: 0.001)
    #expect(
      document(run) == #"""
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="reducer-spec" tests="2" failures="1" errors="0" skipped="1" time="0.001" timestamp="2025-01-02T03:04:05Z">
          <testsuite name="specs/a&amp;b.yaml" file="specs/a&amp;b.yaml" tests="2" failures="1" errors="0" skipped="1" time="0.001" timestamp="2025-01-02T03:04:05Z">
            <testcase name="Tom &amp; &quot;Jerry&apos;s&quot; &lt;friends&gt;" classname="specs/a&amp;b.yaml" file="specs/a&amp;b.yaml" line="2" time="0.001">
              <failure message="Colours red, a NUL \u{0}, a SOH \u{1}, a lone \u{1B}, \u{FFFF} &amp; &lt;tags&gt;" type="StepFailure">specs/a&amp;b.yaml:3:5: error: Colours red, a NUL \u{0}, a SOH \u{1}, a lone \u{1B}, \u{FFFF} &amp; &lt;tags&gt;
            - send: "&lt;&amp;&gt;"
            ^

        last	line</failure>
            </testcase>
            <testcase name="Skipped" classname="specs/a&amp;b.yaml" file="specs/a&amp;b.yaml" line="9" time="0.000">
              <skipped message="line one&#10;line two&#9;after a tab&#13;after a CR &apos;quoted&apos;"/>
            </testcase>
          </testsuite>
        </testsuites>

        """#)
  }

  @Test func carriageReturnsInTextAreKept() {
    #expect(XMLText.content("a\rb\r\nc") == "a&#13;b&#13;\nc")
    #expect(XMLText.attribute("a\rb\r\nc") == "a&#13;b&#13;&#10;c")
  }

  @Test func equalNamesInAFileAreToldApart() {
    let file = "specs/names.yaml"
    let names = ["Adds", "Adds", "Adds (2)", "Adds", "Other"]
    let scenarios = names.enumerated().map { index, name in
      ScenarioResult(
        id: ScenarioID(file: file, scenario: index), name: name,
        location: FileLocation(file: file, line: index + 1, column: 11), tags: [], outcome: .passed, duration: 0)
    }
    let other = SuiteResult(file: "specs/other.yaml", feature: "Other", scenarios: [scenarios[0]])
    let run = RunResult(suites: [SuiteResult(file: file, feature: "Names", scenarios: scenarios), other], duration: 0)
    #expect(
      document(run) == """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="reducer-spec" tests="6" failures="0" errors="0" skipped="0" time="0.000" timestamp="2025-01-02T03:04:05Z">
          <testsuite name="specs/names.yaml" file="specs/names.yaml" tests="5" failures="0" errors="0" skipped="0" time="0.000" timestamp="2025-01-02T03:04:05Z">
            <testcase name="Adds" classname="Names" file="specs/names.yaml" line="1" time="0.000"/>
            <testcase name="Adds (3)" classname="Names" file="specs/names.yaml" line="2" time="0.000"/>
            <testcase name="Adds (2)" classname="Names" file="specs/names.yaml" line="3" time="0.000"/>
            <testcase name="Adds (4)" classname="Names" file="specs/names.yaml" line="4" time="0.000"/>
            <testcase name="Other" classname="Names" file="specs/names.yaml" line="5" time="0.000"/>
          </testsuite>
          <testsuite name="specs/other.yaml" file="specs/other.yaml" tests="1" failures="0" errors="0" skipped="0" time="0.000" timestamp="2025-01-02T03:04:05Z">
            <testcase name="Adds" classname="Other" file="specs/names.yaml" line="1" time="0.000"/>
          </testsuite>
        </testsuites>

        """)
  }

  @Test func anEmptyRun() {
    #expect(
      document(RunResult(suites: [], duration: 0.0004)) == """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="reducer-spec" tests="0" failures="0" errors="0" skipped="0" time="0.000" timestamp="2025-01-02T03:04:05Z"/>

        """)
  }

  @Test func fileAttributesRelativeToAWorkingDirectory() {
    let file = "/repo/specs/counter.yaml"
    let scenario = ScenarioResult(
      id: ScenarioID(file: file, scenario: 0), name: "Passes", location: FileLocation(file: file, line: 4, column: 11),
      tags: [], outcome: .passed, duration: 0.5)
    let run = RunResult(suites: [SuiteResult(file: file, feature: "Counter", scenarios: [scenario])], duration: 0.5)
    #expect(
      document(run, relativeTo: "/repo") == """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="reducer-spec" tests="1" failures="0" errors="0" skipped="0" time="0.500" timestamp="2025-01-02T03:04:05Z">
          <testsuite name="/repo/specs/counter.yaml" file="specs/counter.yaml" tests="1" failures="0" errors="0" skipped="0" time="0.500" timestamp="2025-01-02T03:04:05Z">
            <testcase name="Passes" classname="Counter" file="specs/counter.yaml" line="4" time="0.500"/>
          </testsuite>
        </testsuites>

        """)
  }

  @Test func theTimestampIsTheRunsStart() {
    var now = Self.start
    let reporter = JUnitReporter(path: "unused.xml", relativeTo: nil, currentDirectory: "/", now: { now })
    now = Self.start.addingTimeInterval(3600)
    reporter.runStarted(RunPlan(files: [], jobs: 1))
    now = Self.start.addingTimeInterval(7200)
    #expect(reporter.document(for: RunResult(suites: [], duration: 0)).contains(#"timestamp="2025-01-02T04:04:05Z""#))
  }

  @Test func runFinishedWritesTheFileCreatingItsDirectories() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reducer-spec-junit-\(UUID())")
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("nested/deeper/report.xml").path
    let reporter = reporter(path: path)
    try ReporterFixtures.everyOutcome.replay(into: reporter)
    let written = try String(contentsOfFile: path, encoding: .utf8)
    #expect(written == reporter.document(for: ReporterFixtures.everyOutcome))
    // A second run replaces the file.
    try ReporterFixtures.allPassing.replay(into: reporter)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == reporter.document(for: ReporterFixtures.allPassing))
  }

  @Test func anUnwritablePathThrowsWhy() throws {
    let file = try TemporaryFile([], name: "a-file")
    // A directory cannot be created under a regular file.
    let reporter = reporter(path: file.path + "/nested/report.xml")
    #expect {
      try ReporterFixtures.allPassing.replay(into: reporter)
    } throws: { error in
      "\(error)" == "cannot write the JUnit report to \(file.path)/nested/report.xml: \(file.path) is not a directory"
    }
  }

  @Test func aFileThatCannotBeReplacedIsLeftAsItWas() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reducer-spec-junit-\(UUID())")
    defer { try? FileManager.default.removeItem(at: directory) }
    // The report's path is a directory: nothing can be renamed over it.
    let path = directory.appendingPathComponent("report.xml").path
    try FileManager.default.createDirectory(atPath: path + "/inside", withIntermediateDirectories: true)
    let reporter = reporter(path: path)
    #expect {
      try ReporterFixtures.allPassing.replay(into: reporter)
    } throws: { error in
      "\(error)" == "cannot write the JUnit report to \(path): cannot replace it: is a directory"
    }
    // No temporary file is left beside it.
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["report.xml"])
  }

  @Test func theSpoolGivesBackWhatItWasGivenOnDiskOrInMemory() throws {
    let onDisk = SpoolFile()
    // TMPDIR cannot hold a file: the text stays in memory.
    let inMemory = SpoolFile(directory: "/nonexistent-\(UUID())")
    #expect(onDisk.isOnDisk)
    #expect(!inMemory.isOnDisk)
    // A file that takes no text, as on a full disk: the spool keeps the rest in memory.
    let full = SpoolFile(descriptor: open("/dev/full", O_RDWR))
    let piece = String(repeating: "x", count: 999) + "\n"
    for spool in [onDisk, inMemory, full] {
      for _ in 0..<200 { spool.append(piece) }
      var back: [UInt8] = []
      try spool.read { back += $0 }
      #expect(String(decoding: back, as: UTF8.self) == String(repeating: piece, count: 200))
      // Any part of it, across the end of what went to the file.
      #expect(try spool.read(65_000..<131_072) == Array(Array(String(repeating: piece, count: 200).utf8)[65_000..<131_072]))
    }
    #expect(!full.isOnDisk)
  }

  /// A spool whose file cannot be read back, or has lost part of what was written to it,
  /// says so rather than giving back other text.
  @Test func aSpoolThatCannotBeReadBackSaysWhy() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("spool-\(UUID())").path
    defer { unlink(path) }
    let piece = String(repeating: "x", count: 999) + "\n"
    // Opened for writing only: the text goes out, and reading it back fails.
    let writeOnly = SpoolFile(descriptor: open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600))
    for _ in 0..<100 { writeOnly.append(piece) }
    #expect(writeOnly.isOnDisk)
    do {
      try writeOnly.read { _ in }
      Issue.record("a write-only spool was read back")
    } catch {
      #expect("\(error)" == "cannot read back a temporary file: bad file descriptor")
    }
    // Cut short behind the spool's back, once all of its text went to the file (66,000
    // bytes: one write, past the buffer's 65,536).
    let cut = SpoolFile(descriptor: open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600))
    for _ in 0..<66 { cut.append(piece) }
    #expect(truncate(path, 1000) == 0)
    do {
      _ = try cut.read(0..<66_000)
      Issue.record("a spool cut short was read back")
    } catch {
      #expect("\(error)" == "cannot read back a temporary file: it ended early")
    }
  }

  @Test func aLargeRunIsSpooledAndWrittenWhole() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reducer-spec-junit-\(UUID())")
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("report.xml").path
    // Well over the spool's buffer, so that most of it goes through the temporary file.
    let suites = (0..<400).map { file in
      SuiteResult(
        file: "specs/f\(file).yaml", feature: "Counter",
        scenarios: ReporterFixtures.everyOutcome.suites[0].scenarios.map { scenario in
          var scenario = scenario
          scenario.id.file = "specs/f\(file).yaml"
          return scenario
        })
    }
    let run = RunResult(suites: suites, duration: 12)
    let reporter = reporter(path: path)
    try run.replay(into: reporter)
    let written = try String(contentsOfFile: path, encoding: .utf8)
    #expect(written.utf8.count > 4 * SpoolFile.flushSize)
    #expect(written == reporter.document(for: run))
  }

  // MARK: - Validation

  /// `xmllint` on the PATH, if any.
  static let xmllint: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/xmllint" }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }()

  /// The schema, from the repository's fixtures.
  static let schema = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/junit-10-file-line.xsd").path

  @Test func theSchemaFixtureIsThere() {
    #expect(FileManager.default.fileExists(atPath: Self.schema))
  }

  @Test(
    .enabled(
      if: ContinuousIntegration.runs(whenFound: xmllint != nil),
      "xmllint is not on the PATH (Debian: libxml2-utils), so the JUnit files were NOT validated against the XSD"),
    arguments: ["everyOutcome", "escaping", "names", "empty", "relative"])
  func validatesAgainstTheSchema(_ run: String) async throws {
    let xml: String
    switch run {
    case "everyOutcome": xml = document(ReporterFixtures.everyOutcome)
    case "escaping":
      var scenario = ReporterFixtures.failing
      scenario.name = "<&\"'>\u{0}\u{1}\u{1B}[31m\u{FFFE}\n\r\t"
      scenario.failures[0].message += "\u{0}\u{7}\u{1B}[0m\u{FFFF}]]>"
      scenario.failures.append(scenario.failures[0])
      var skipped = ReporterFixtures.skipped
      skipped.skipReason = "\u{1}\n<&>"
      xml = document(
        RunResult(suites: [SuiteResult(file: "<&>\u{1}.yaml", scenarios: [scenario, skipped])], duration: 0.1))
    case "names":
      xml = document(
        RunResult(
          suites: [
            SuiteResult(
              file: "a.yaml", feature: "A",
              scenarios: [ReporterFixtures.passing, ReporterFixtures.passing, ReporterFixtures.crashed]),
            SuiteResult(file: "b.yaml", errors: [ReporterFixtures.fileError, ReporterFixtures.fileError]),
          ], duration: 1234.5678, wasInterrupted: true))
    case "empty": xml = document(RunResult(suites: [], duration: 0))
    default: xml = document(ReporterFixtures.everyOutcome, relativeTo: "/elsewhere")
    }
    guard let xmllint = Self.xmllint else { throw MissingTool("xmllint", debianPackage: "libxml2-utils") }
    let file = try TemporaryFile(Array(xml.utf8), name: "junit.xml")
    // On a thread of its own: waiting for xmllint must not hold a thread that tasks need.
    let arguments = ["--noout", "--schema", Self.schema, file.path]
    let result = try await withCheckedThrowingContinuation { continuation in
      Thread { continuation.resume(with: Result { try Self.run(xmllint, arguments) }) }.start()
    }
    #expect(result.status == 0, "\(result.output)\n\(xml)")
    #expect(result.output.contains("validates"))
  }

  private static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }
}
