import Foundation
import TestSupport
import Testing
@testable import SpecRunner

/// The console report, line for line.
@Suite struct ConsoleReporterTests {
  private let green = "\u{1B}[32m"
  private let red = "\u{1B}[31m"
  private let yellow = "\u{1B}[33m"
  private let reset = "\u{1B}[0m"

  private func output(_ run: RunResult, color: Bool = false) throws -> LineCollector {
    let lines = LineCollector()
    try run.replay(into: ConsoleReporter(color: color, sink: lines.append))
    return lines
  }

  @Test func linesLoseTrailingSpacesAndTabsOnly() {
    #expect("  ✓ counts (0.001s)".withoutTrailingWhitespace == "  ✓ counts (0.001s)")
    #expect("a \t \t".withoutTrailingWhitespace == "a")
    #expect("   ".withoutTrailingWhitespace == "")
    #expect("".withoutTrailingWhitespace == "")
    #expect("a\n".withoutTrailingWhitespace == "a\n")
    #expect("a\u{A0}".withoutTrailingWhitespace == "a\u{A0}")  // a no-break space stays
    // A space with a combining mark is another character than a space: it stays.
    #expect("a \u{301}".withoutTrailingWhitespace == "a \u{301}")
    #expect("é ".withoutTrailingWhitespace == "é")
  }

  @Test func aPassingRun() throws {
    #expect(
      try output(ReporterFixtures.allPassing).text == """
        specs/counter.yaml
          ✓ Incrementing counts up (0.012s)

        1 passed, 0 failed, 0 skipped
        """)
  }

  @Test func everyOutcome() throws {
    let lines = try output(ReporterFixtures.everyOutcome)
    #expect(
      lines.text == """
        specs/counter.yaml
          ✓ Incrementing counts up (0.012s)
          ✗ Decrementing stops at zero (0.020s)
            specs/counter.yaml:14:9: error: A state change does not match expectation.
                  - send: decrement
                    ^

                \u{2007} Counter.State(
                −   count: 0
                +   count: -1
                \u{2007} )

            (Expected: −, Actual: +)
          - Resetting (skipped: not written yet)

        specs/search.yaml
          ✗ Searching for swift (1.500s)
            specs/search.yaml:12:9: error: The worker stopped with signal 11 (SIGSEGV). It wrote:
            Fatal error: Unexpectedly found nil while unwrapping an Optional value

            Current stack trace:

        specs/broken.yaml
          ✗ specs/broken.yaml:1:10: error: unknown feature "Nope"; the registered features are Counter, RepositorySearch
            feature: Nope
                     ^

        1 file could not run.
        1 passed, 2 failed, 1 skipped
        """)
    #expect(!lines.text.utf8.contains(0x1B))
    #expect(lines.lines.allSatisfy { !$0.hasSuffix(" ") && !$0.hasSuffix("\t") && !$0.contains("\n") })
  }

  @Test func severalFailuresTabsInTheSourceLineAndAFailureWithoutOne() throws {
    let file = "specs/tabs.yaml"
    let scenario = ScenarioResult(
      id: ScenarioID(file: file, scenario: 0), name: "Name\nover two lines",
      location: FileLocation(file: file, line: 2, column: 9), tags: [], outcome: .failed, duration: 1.0004,
      failures: [
        StepFailure(
          location: FileLocation(file: file, line: 4, column: 12),
          message: "Expected \"é\" here.   ", sourceLine: "\t- send:\t\"é\" # note   "),
        StepFailure(location: FileLocation(file: file, line: 0, column: 0), message: "Unhandled effects: 1"),
        StepFailure(
          location: FileLocation(file: file, line: 9, column: 3), message: "Past the end of the line",
          sourceLine: "ab"),
      ])
    let run = RunResult(suites: [SuiteResult(file: file, scenarios: [scenario])], duration: 2)
    let lines = try output(run)
    #expect(
      lines.text == """
        specs/tabs.yaml
          ✗ Name over two lines (1.000s)
            specs/tabs.yaml:4:12: error: Expected "é" here.
            \t- send:\t"é" # note
            \t       \t  ^

            specs/tabs.yaml: error: Unhandled effects: 1

            specs/tabs.yaml:9:3: error: Past the end of the line
            ab
              ^

        0 passed, 1 failed, 0 skipped
        """)
  }

  @Test func anInterruptedRun() throws {
    var run = ReporterFixtures.allPassing
    run.wasInterrupted = true
    #expect(
      try output(run).text == """
        specs/counter.yaml
          ✓ Incrementing counts up (0.012s)

        The run was interrupted: these are the results of the scenarios that had finished.
        1 passed, 0 failed, 0 skipped
        """)
  }

  @Test func twoFilesThatCouldNotRunAndNothingElse() throws {
    let other = SpecFileError(
      file: "specs/empty.yaml", location: FileLocation(file: "specs/empty.yaml", line: 0, column: 0),
      message: "The file is empty.")
    let run = RunResult(
      suites: [
        SuiteResult(file: ReporterFixtures.brokenFile, errors: [ReporterFixtures.fileError]),
        SuiteResult(file: "specs/empty.yaml", errors: [other]),
      ], duration: 0.1, wasInterrupted: true)
    #expect(
      try output(run).text == """
        specs/broken.yaml
          ✗ specs/broken.yaml:1:10: error: unknown feature "Nope"; the registered features are Counter, RepositorySearch
            feature: Nope
                     ^

        specs/empty.yaml
          ✗ specs/empty.yaml: error: The file is empty.

        2 files could not run.
        The run was interrupted: these are the results of the scenarios that had finished.
        0 passed, 0 failed, 0 skipped
        """)
  }

  @Test func anEmptyRunPrintsOnlyTheSummary() throws {
    #expect(try output(RunResult(suites: [], duration: 0)).lines == ["0 passed, 0 failed, 0 skipped"])
  }

  @Test func skippedWithoutAReason() throws {
    var scenario = ReporterFixtures.skipped
    scenario.skipReason = nil
    let run = RunResult(suites: [SuiteResult(file: ReporterFixtures.counterFile, scenarios: [scenario])], duration: 0)
    #expect(
      try output(run).text == """
        specs/counter.yaml
          - Resetting (skipped)

        0 passed, 0 failed, 1 skipped
        """)
  }

  @Test func inColour() throws {
    let run = RunResult(
      suites: [
        SuiteResult(
          file: ReporterFixtures.counterFile, feature: "Counter",
          scenarios: [ReporterFixtures.passing, ReporterFixtures.failing, ReporterFixtures.skipped]),
        SuiteResult(file: ReporterFixtures.brokenFile, errors: [ReporterFixtures.fileError]),
      ], duration: 1)
    #expect(
      try output(run, color: true).text == """
        specs/counter.yaml
          \(green)✓\(reset) Incrementing counts up (0.012s)
          \(red)✗\(reset) Decrementing stops at zero (0.020s)
            specs/counter.yaml:14:9: \(red)error:\(reset) A state change does not match expectation.
                  - send: decrement
                    ^

                \u{2007} Counter.State(
                \(red)−   count: 0\(reset)
                \(green)+   count: -1\(reset)
                \u{2007} )

            (Expected: −, Actual: +)
          \(yellow)- Resetting (skipped: not written yet)\(reset)

        specs/broken.yaml
          \(red)✗\(reset) specs/broken.yaml:1:10: \(red)error:\(reset) unknown feature "Nope"; the registered features are Counter, RepositorySearch
            feature: Nope
                     ^

        \(red)1 file could not run.\(reset)
        \(red)1 passed, 1 failed, 1 skipped\(reset)
        """)
  }

  @Test func aSuccessfulSummaryInColourIsGreen() throws {
    var run = ReporterFixtures.allPassing
    #expect(try output(run, color: true).lines.last == "\(green)1 passed, 0 failed, 0 skipped\(reset)")
    run.wasInterrupted = true
    #expect(
      try output(run, color: true).lines.suffix(2) == [
        "\(yellow)The run was interrupted: these are the results of the scenarios that had finished.\(reset)",
        "\(red)1 passed, 0 failed, 0 skipped\(reset)",
      ])
  }

  @Test(
    arguments: [
      // mode, is a terminal, environment, colour
      (ColorMode.auto, true, [:], true),
      (.auto, false, [:], false),
      (.auto, true, ["NO_COLOR": "1"], false),
      (.auto, true, ["NO_COLOR": "anything"], false),
      (.auto, true, ["NO_COLOR": ""], true),
      (.auto, true, ["TERM": "dumb"], false),
      (.auto, true, ["TERM": "xterm-256color"], true),
      (.always, false, [:], true),
      (.always, false, ["NO_COLOR": "1"], false),
      (.never, true, [:], false),
      (.never, true, ["NO_COLOR": ""], false),
    ] as [(ColorMode, Bool, [String: String], Bool)])
  func whetherToUseColour(mode: ColorMode, isTerminal: Bool, environment: [String: String], expected: Bool) {
    #expect(ConsoleReporter.shouldUseColor(mode: mode, isTerminal: isTerminal, environment: environment) == expected)
  }

  @Test func noColorMeansNotASingleEscapeByte() throws {
    let color = ConsoleReporter.shouldUseColor(mode: .auto, isTerminal: true, environment: ["NO_COLOR": "1"])
    let lines = try output(ReporterFixtures.everyOutcome, color: color)
    #expect(!lines.text.unicodeScalars.contains("\u{1B}"))
  }

  @Test(arguments: [false, true])
  func linesGivenAsBytesAreTheLinesGivenAsStrings(color: Bool) throws {
    // The command takes a passing scenario's line as bytes; it must be the line the string
    // sink gets, in its place among the others.
    var odd = ReporterFixtures.passing
    odd.name = "Zählt\nweiter ✓ \u{2028}bis 3"
    odd.duration = 1234.5678
    var run = ReporterFixtures.everyOutcome
    run.suites[0].scenarios += [odd, ReporterFixtures.passing]
    let expected = try output(run, color: color).lines
    var lines: [String] = []
    let reporter = ConsoleReporter(
      color: color, isCheck: false, sink: { lines.append($0) },
      lineBytes: { lines.append("bytes: " + String(decoding: $0, as: UTF8.self)) })
    try run.replay(into: reporter)
    #expect(lines.filter { $0.hasPrefix("bytes: ") }.count == 3)
    #expect(lines.map { $0.hasPrefix("bytes: ") ? String($0.dropFirst(7)) : $0 } == expected)
    #expect(expected.contains("  \(color ? green + "✓" + reset : "✓") Zählt weiter ✓  bis 3 (1234.568s)"))
  }

  @Test func aLineBreakAnywhereInANameBecomesASpace() throws {
    // Names are checked eight bytes at a time: a break at every place of names of every
    // length up to three words, and of every kind.
    for breaker in ["\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}"] {
      for length in 1...24 {
        for place in 0..<length {
          var scenario = ReporterFixtures.passing
          scenario.name = String(repeating: "a", count: place) + breaker + String(repeating: "b", count: length - place)
          let run = RunResult(suites: [SuiteResult(file: ReporterFixtures.counterFile, scenarios: [scenario])], duration: 1)
          let expected = "  ✓ " + String(repeating: "a", count: place) + " " + String(repeating: "b", count: length - place) + " (0.012s)"
          #expect(try output(run).lines[1] == expected, "\(length) \(place) \(breaker.unicodeScalars.first!.value)")
        }
      }
    }
    // Names without a break stay as they are, whatever their bytes.
    for name in ["Zählt weiter", "tab\there", "\u{7F}del", String(repeating: "é", count: 9)] {
      var scenario = ReporterFixtures.passing
      scenario.name = name
      let run = RunResult(suites: [SuiteResult(file: ReporterFixtures.counterFile, scenarios: [scenario])], duration: 1)
      #expect(try output(run).lines[1] == "  ✓ \(name) (0.012s)")
    }
  }

  @Test func colorModesAreTheFlagsValues() {
    #expect(ColorMode.allCases.map(\.rawValue) == ["auto", "always", "never"])
  }
}
