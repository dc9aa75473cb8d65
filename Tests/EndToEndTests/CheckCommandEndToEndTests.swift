import Foundation
import TestSupport
import Testing

/// `reducer-spec check`, run for real with the fixture features: it reports what a run
/// would report about each file, runs nothing, and counts what it checked.
@Suite struct CheckCommandEndToEndTests {
  static func check(_ arguments: [String], environment: [String: String] = [:]) async throws -> BuiltCommand.Run {
    try await BuiltCommand.run(
      ["check"] + arguments, environment: environment, executable: ReducerSpecEndToEndTests.fixtures)
  }

  @Test func goodSpecsCheckOutWithoutRunning() async throws {
    // forever.yaml and misbehaving.yaml would hang and trap if they ran; failing.yaml would fail.
    let run = try await Self.check(["Tests/Fixtures/specs"])
    #expect(run.status == 0)
    #expect(
      run.stdout == """
        Tests/Fixtures/specs/passing.yaml
          - Not written yet (skipped: waiting for the design)

        Checked 5 files, 17 scenarios: no problems.

        """)
    #expect(run.stderr == "")
  }

  @Test func pathsThroughIdentifiedElementsAreChecked() async throws {
    let run = try await Self.check([
      "Tests/Fixtures/checklist/passing.yaml", "Tests/Fixtures/checklist/failing.yaml",
      "Tests/Fixtures/check/identified",
    ])
    #expect(run.status == 1)
    #expect(
      run.stdout == """
        Tests/Fixtures/check/identified/checklist.yaml
          ✗ Tests/Fixtures/check/identified/checklist.yaml:10:23: error: unknown key `isDon` in Checklist.Item; did you mean `isDone`?
                      items[id=0].isDon: true
                                  ^

        Checked 3 files, 9 scenarios: 1 problem in 1 file.

        """)
  }

  @Test func everyProblemIsReportedAsARunReportsIt() async throws {
    let checked = try await Self.check(["Tests/Fixtures/invalid"])
    let ran = try await ReducerSpecEndToEndTests.run(["Tests/Fixtures/invalid"])
    #expect(checked.status == 1)
    // The same blocks, word for word, at the same places; only the last lines differ.
    var runLines = ran.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(runLines.suffix(3) == ["10 files could not run.", "0 passed, 0 failed, 0 skipped", ""])
    runLines.removeLast(3)
    #expect(
      checked.stdout
        == runLines.joined(separator: "\n") + "\nChecked 10 files, 0 scenarios: 15 problems in 10 files.\n")
  }

  @Test func oneThreadOrTwoSayTheSame() async throws {
    // --jobs 1 reads and checks in this process. With 2, check starts a worker when there is
    // enough YAML for two (512 KB each): the files are copied with comments added, to 140 KB each.
    let paths = ["Tests/Fixtures/invalid", "Tests/Fixtures/specs", "Tests/Fixtures/check/paths"]
    let padded = try BuiltCommand.paddedCopy(of: paths, toBytes: 140_000)
    defer { try? FileManager.default.removeItem(at: padded) }
    func check(_ arguments: [String]) async throws -> BuiltCommand.Run {
      try await BuiltCommand.run(
        ["check"] + arguments + paths, executable: ReducerSpecEndToEndTests.fixtures, directory: padded)
    }
    let one = try await check(["--jobs", "1"])
    let two = try await check(["--jobs", "2"])
    #expect(one.status == 1)
    #expect(one.stdout.hasSuffix("Checked 17 files, 17 scenarios: 17 problems in 12 files.\n"))
    #expect(two.status == one.status)
    #expect(two.stdout == one.stdout)
    #expect(two.stderr == "")
    let oneJSON = try await check(["--jobs", "1", "--format", "json"]).stdout.split(separator: "\n")
    let twoJSON = try await check(["--jobs", "2", "--format", "json"]).stdout.split(separator: "\n")
    #expect(oneJSON.first == #"{"event":"runStarted","files":17,"jobs":1}"#)
    #expect(twoJSON.first == #"{"event":"runStarted","files":17,"jobs":2}"#)
    #expect(oneJSON.dropFirst().map { $0.replacing(/"duration":[0-9.e-]+/, with: "") } == twoJSON.dropFirst().map { $0.replacing(/"duration":[0-9.e-]+/, with: "") })
    // The same files as they are, 2.4 KB together: too little for a worker.
    let small = try await Self.check(["--jobs", "2", "--format", "json"] + paths).stdout.split(separator: "\n")
    #expect(small.first == #"{"event":"runStarted","files":17,"jobs":1}"#)

    let none = try await Self.check(["--jobs", "0", "Tests/Fixtures/specs"])
    #expect(none.status == 64)
    #expect(
      none.stderr == """
        Error: --jobs must be at least 1; got 0
        Usage: reducer-spec-fixtures check [<options>] [<path> ...]
          See 'reducer-spec-fixtures check --help' for more information.

        """)
  }

  @Test func goodAndBadFilesTogether() async throws {
    let run = try await Self.check([
      "Tests/Fixtures/specs/passing.yaml", "Tests/Fixtures/invalid/unknown-key.yaml",
      "Tests/Fixtures/invalid/malformed.yaml",
    ])
    #expect(run.status == 1)
    #expect(
      run.stdout == """
        Tests/Fixtures/invalid/malformed.yaml
          ✗ Tests/Fixtures/invalid/malformed.yaml:5:25: error: did not find expected ',' or ']' while parsing a flow sequence that starts at 5:15
                  - send: [increment
                                    ^

        Tests/Fixtures/invalid/unknown-key.yaml
          ✗ Tests/Fixtures/invalid/unknown-key.yaml:6:9: error: unknown key `stat` in a step; did you mean `state`?
                    stat: { count: 1 }
                    ^

        Tests/Fixtures/specs/passing.yaml
          - Not written yet (skipped: waiting for the design)

        Checked 3 files, 5 scenarios: 2 problems in 2 files.

        """)
  }

  @Test func jsonLinesAndJUnitAsARunWritesThem() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("check-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let junit = directory.appendingPathComponent("reports/check.xml").path
    let run = try await Self.check([
      "--format", "json", "--junit", junit, "Tests/Fixtures/specs/passing.yaml", "Tests/Fixtures/invalid/malformed.yaml",
    ])
    #expect(run.status == 1)
    let lines = run.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first == #"{"event":"runStarted","files":2,"jobs":1}"#)
    #expect(
      lines[1]
        == #"{"column":25,"event":"fileFailed","file":"Tests/Fixtures/invalid/malformed.yaml","line":5,"message":"did not find expected ',' or ']' while parsing a flow sequence that starts at 5:15","sourceLine":"      - send: [increment"}"#
    )
    #expect(
      lines.contains(
        #"{"duration":0,"event":"scenarioFinished","failures":0,"file":"Tests/Fixtures/specs/passing.yaml","id":"Tests/Fixtures/specs/passing.yaml#0","name":"Counting up and down","outcome":"passed"}"#
      ))
    #expect(lines.contains { $0.contains(#""outcome":"skipped","skipReason":"waiting for the design""#) })
    #expect(lines.last?.contains(#""event":"summary","exitStatus":1,"failed":0,"fileErrors":1"#) == true)
    #expect(lines.last?.contains(#""passed":4,"skipped":1"#) == true)

    let xml = try String(contentsOfFile: junit, encoding: .utf8)
    #expect(xml.contains(#"<testcase name="Counting up and down" classname="Tally""#))
    #expect(
      xml.contains(
        #"<error message="did not find expected &apos;,&apos; or &apos;]&apos; while parsing a flow sequence that starts at 5:15" type="SpecFileError">"#
      ))
    try await JUnitSchema.validate(junit)
  }

  @Test func aJUnitFileThatCannotBeWrittenIsAnError() async throws {
    let blocker = try TemporaryFile([], name: "reports")
    let run = try await Self.check(["--junit", blocker.path + "/check.xml", "Tests/Fixtures/specs/passing.yaml"])
    #expect(run.status == 1)
    #expect(run.stdout.hasSuffix("Checked 1 file, 5 scenarios: no problems.\n"))
    #expect(run.stderr == "Error: cannot write the JUnit report to \(blocker.path)/check.xml: \(blocker.path) is not a directory\n")
  }

  @Test func usageErrorsExit64() async throws {
    let missing = try await Self.check(["nope"])
    #expect(missing.status == 64)
    #expect(missing.stdout == "")
    #expect(
      missing.stderr == """
        Error: no such file or directory: 'nope'
        Usage: reducer-spec-fixtures check [<options>] [<path> ...]
          See 'reducer-spec-fixtures check --help' for more information.

        """)
    let format = try await Self.check(["--format", "xml"])
    #expect(format.status == 64)
    #expect(
      format.stderr.hasPrefix(
        "Error: The value 'xml' is invalid for '--format <format>'. Please provide one of 'console' and 'json'."))
    let help = try await Self.check(["--help"])
    #expect(help.status == 0)
    #expect(help.stdout.hasPrefix("OVERVIEW: Checks spec files without running them."))
  }

  @Test func stateFieldsAreCheckedAgainstTheStateTypeWithoutRunning() async throws {
    // A run finds these only when the step runs; check finds them along the whole path:
    // struct fields, elements of arrays, optionals, and an enum state's cases.
    let run = try await BuiltCommand.run(
      ["check", "Tests/Fixtures/check/paths"], executable: ReducerSpecEndToEndTests.examples)
    #expect(run.status == 1)
    #expect(
      run.stdout == """
        Tests/Fixtures/check/paths/repository-search.yaml
          ✗ Tests/Fixtures/check/paths/repository-search.yaml:7:11: error: unknown key `isLoadin` in RepositorySearch.State; did you mean `isLoading`?
                      isLoadin: true
                      ^
          ✗ Tests/Fixtures/check/paths/repository-search.yaml:8:27: error: unknown key `starz` in Repository; did you mean `stars`?
                      repositories[0].starz: 3
                                      ^
          ✗ Tests/Fixtures/check/paths/repository-search.yaml:9:17: error: unknown key `titel` in AlertState; did you mean `title`?
                      alert.titel: x
                            ^
          ✗ Tests/Fixtures/check/paths/repository-search.yaml:13:28: error: unknown key `acton` in AlertState.Button; did you mean `action`?
                      alert.buttons[0].acton: retry
                                       ^

        Tests/Fixtures/check/paths/tic-tac-toe.yaml
          ✗ Tests/Fixtures/check/paths/tic-tac-toe.yaml:7:17: error: unknown key `emal` in Login.State; did you mean `email`?
                      login.emal: a
                            ^
          ✗ Tests/Fixtures/check/paths/tic-tac-toe.yaml:8:11: error: unknown case `logn` in TicTacToe.State; did you mean `login`?
                      logn.email: a
                      ^

        Checked 2 files, 0 scenarios: 6 problems in 2 files.

        """)
  }

  @Test func withoutPathsItChecksTheSpecsDirectory() async throws {
    let run = try await BuiltCommand.run(["check"], executable: ReducerSpecEndToEndTests.examples)
    #expect(run.status == 0)
    #expect(run.stdout == "Checked 10 files, 78 scenarios: no problems.\n")
  }
}
