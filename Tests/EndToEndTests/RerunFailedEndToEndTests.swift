import Foundation
import Testing

/// `reducer-spec --rerun-failed` and the record of the last run, `.reducer-spec/last-run.json`,
/// run for real (`reducer-spec-fixtures`) on copies of Tests/Fixtures/rerun in a temporary
/// directory: every run there writes its own record.
@Suite(.serialized) struct RerunFailedEndToEndTests {
  static var fixtures: URL { ReducerSpecEndToEndTests.fixtures }

  static func run(_ arguments: [String], in root: URL) async throws -> BuiltCommand.Run {
    try await BuiltCommand.run(arguments, executable: fixtures, directory: root)
  }

  static func record(_ root: URL) throws -> String {
    try RecordEndToEndTests.text(root, ".reducer-spec/last-run.json")
  }

  static func replace(_ root: URL, _ file: String, with fixture: String) throws {
    let destination = root.appendingPathComponent(file)
    try FileManager.default.removeItem(at: destination)
    try FileManager.default.copyItem(at: BuiltCommand.packageRoot.appendingPathComponent(fixture), to: destination)
  }

  /// What the command printed, times as `(TIME)` and the figure spaces that start a diff's
  /// unchanged lines as `·`.
  static func visible(_ run: BuiltCommand.Run) -> String {
    run.output.replacingOccurrences(of: "\u{2007}", with: "·")
  }

  static let failedTwice = """
    specs/tally.yaml
      ✗ Counting down (TIME)
        specs/tally.yaml:10:9: error: A state change does not match expectation.
              - send: decrement
                ^

            · Tally.State(
            −   count: 1,
            +   count: -1,
            ·   secret: 0,
            ·   query: "",
            ·   results: [],
            ·   isLoading: false
            · )

        (Expected: −, Actual: +)
      ✗ Setting the count to 8 (TIME)
        specs/tally.yaml:18:9: error: A state change does not match expectation.
              - send: { setCount: <text> }
                ^

            · Tally.State(
            −   count: 9,
            +   count: 8,
            ·   secret: 0,
            ·   query: "",
            ·   results: [],
            ·   isLoading: false
            · )

        (Expected: −, Actual: +)

    0 passed, 2 failed, 0 skipped

    """

  @Test func rerunFailedRunsWhatFailedUntilNothingDoes() async throws {
    let root = try RecordEndToEndTests.copies(["Tests/Fixtures/rerun/tally.yaml"])
    defer { try? FileManager.default.removeItem(at: root) }

    let none = try await Self.run(["--rerun-failed"], in: root)
    #expect(none.status == 0)
    #expect(none.stdout == "")
    #expect(none.stderr == "reducer-spec-fixtures: no record of a last run in .reducer-spec/last-run.json: nothing to rerun\n")
    #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent(".reducer-spec").path))

    let first = try await Self.run([], in: root)
    #expect(first.status == 1)
    #expect(first.stdout.hasSuffix("2 passed, 2 failed, 0 skipped\n"))
    #expect(
      try Self.record(root) == """
        {
          "version": 1,
          "scenarios": [
            {"file": "specs/tally.yaml", "scenario": 0, "name": "Counting up", "outcome": "passed"},
            {"file": "specs/tally.yaml", "scenario": 1, "name": "Counting down", "outcome": "failed"},
            {"file": "specs/tally.yaml", "scenario": 2, "row": 0, "name": "Setting the count to 7", "outcome": "passed"},
            {"file": "specs/tally.yaml", "scenario": 2, "row": 1, "name": "Setting the count to 8", "outcome": "failed"}
          ],
          "fileErrors": []
        }

        """)
    #expect(try RecordEndToEndTests.text(root, ".reducer-spec/.gitignore").hasSuffix("\n*\n"))

    // Only the two that failed, as often as they fail.
    for _ in 1...2 {
      let rerun = try await Self.run(["--rerun-failed"], in: root)
      #expect(rerun.status == 1)
      #expect(rerun.stderr == "")
      #expect(Self.visible(rerun) == Self.failedTwice)
    }

    // With the other selections: what failed, and of that what they select.
    let listed = try await Self.run(["--rerun-failed", "--list"], in: root)
    #expect(listed.status == 0)
    #expect(listed.stdout == "specs/tally.yaml › Counting down\nspecs/tally.yaml › Setting the count to 8\n")
    let filtered = try await Self.run(["--rerun-failed", "--list", "--filter", "Setting"], in: root)
    #expect(filtered.stdout == "specs/tally.yaml › Setting the count to 8\n")
    let sharded = try await Self.run(["--rerun-failed", "--list", "--shard", "2/2"], in: root)
    #expect(sharded.stdout == "specs/tally.yaml › Setting the count to 8\n")

    // Fixed: the rerun passes, and records it.
    try Self.replace(root, "specs/tally.yaml", with: "Tests/Fixtures/rerun/tally-fixed.yaml")
    let fixed = try await Self.run(["--rerun-failed"], in: root)
    #expect(fixed.status == 0)
    #expect(fixed.stderr == "")
    #expect(
      fixed.output == """
        specs/tally.yaml
          ✓ Counting down (TIME)
          ✓ Setting the count to 8 (TIME)

        2 passed, 0 failed, 0 skipped

        """)
    #expect(try !Self.record(root).contains("failed"))

    let nothing = try await Self.run(["--rerun-failed"], in: root)
    #expect(nothing.status == 0)
    #expect(nothing.stdout == "")
    #expect(nothing.stderr == "reducer-spec-fixtures: nothing failed in the last run (.reducer-spec/last-run.json): nothing to rerun\n")
  }

  @Test func aFileThatCouldNotRunRunsAgainAndAStoppedRunRecordsWhatFinished() async throws {
    let root = try RecordEndToEndTests.copies(["Tests/Fixtures/rerun/tally.yaml"])
    defer { try? FileManager.default.removeItem(at: root) }
    try Data("feature: Nope\nscenarios: []\n".utf8).write(to: root.appendingPathComponent("specs/broken.yaml"))

    let stopped = try await Self.run(["--jobs", "1", "--fail-fast"], in: root)
    #expect(stopped.status == 1)
    #expect(stopped.stdout.hasSuffix("1 passed, 1 failed, 0 skipped\n"))
    #expect(
      try Self.record(root) == """
        {
          "version": 1,
          "scenarios": [
            {"file": "specs/tally.yaml", "scenario": 0, "name": "Counting up", "outcome": "passed"},
            {"file": "specs/tally.yaml", "scenario": 1, "name": "Counting down", "outcome": "failed"}
          ],
          "fileErrors": [
            "specs/broken.yaml"
          ]
        }

        """)

    // The file that could not run, and the failure; a path that holds neither runs nothing.
    let listed = try await Self.run(["--rerun-failed", "--list"], in: root)
    #expect(listed.status == 1, "the broken file still cannot run")
    #expect(listed.stdout == "specs/tally.yaml › Counting down\n")
    #expect(listed.stderr.hasPrefix("specs/broken.yaml:1:10: error: unknown feature `Nope`"))
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("other"), withIntermediateDirectories: true)
    try Self.replace(root, "specs/tally.yaml", with: "Tests/Fixtures/rerun/tally-fixed.yaml")
    try FileManager.default.copyItem(
      at: root.appendingPathComponent("specs/tally.yaml"), to: root.appendingPathComponent("other/tally.yaml"))
    let elsewhere = try await Self.run(["--rerun-failed", "other"], in: root)
    #expect(elsewhere.status == 0)
    #expect(elsewhere.stdout == "")
    #expect(
      elsewhere.stderr
        == "reducer-spec-fixtures: nothing that failed in the last run (.reducer-spec/last-run.json) is in the given paths: nothing to rerun\n")

    // Fixed, the file's scenarios run and replace its error.
    try Data("feature: Tally\nscenarios:\n  - name: Now it runs\n    steps:\n      - send: increment\n        state: { count: 1 }\n".utf8)
      .write(to: root.appendingPathComponent("specs/broken.yaml"))
    let rerun = try await Self.run(["--rerun-failed"], in: root)
    #expect(rerun.status == 0)
    #expect(
      rerun.output == """
        specs/broken.yaml
          ✓ Now it runs (TIME)

        specs/tally.yaml
          ✓ Counting down (TIME)

        2 passed, 0 failed, 0 skipped

        """)
    #expect(try Self.record(root).hasSuffix("\"fileErrors\": []\n}\n"))
    let nothing = try await Self.run(["--rerun-failed"], in: root)
    #expect(nothing.stderr == "reducer-spec-fixtures: nothing failed in the last run (.reducer-spec/last-run.json): nothing to rerun\n")
  }

  @Test func anUnreadableRecordStopsRerunFailedAndARunReplacesIt() async throws {
    let root = try RecordEndToEndTests.copies(["Tests/Fixtures/rerun/tally-fixed.yaml"])
    defer { try? FileManager.default.removeItem(at: root) }
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent(".reducer-spec"), withIntermediateDirectories: true)
    let path = root.appendingPathComponent(".reducer-spec/last-run.json")
    try Data(#"{"version": 2}"#.utf8).write(to: path)

    let rerun = try await Self.run(["--rerun-failed"], in: root)
    #expect(rerun.status == 1)
    #expect(rerun.stdout == "")
    #expect(
      rerun.stderr == """
        reducer-spec-fixtures: error: cannot read .reducer-spec/last-run.json: it is version 2 of the format, and this \
        reducer-spec reads version 1; run without --rerun-failed to write a new record

        """)

    let noRecord = try await Self.run(["--no-record"], in: root)
    #expect(noRecord.status == 0)
    #expect(try Self.record(root) == #"{"version": 2}"#)

    let run = try await Self.run([], in: root)
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(try Self.record(root).contains(#""name": "Counting down", "outcome": "passed""#))
  }
}
