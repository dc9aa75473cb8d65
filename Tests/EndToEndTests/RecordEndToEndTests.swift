import Foundation
import Testing

/// `reducer-spec record` run for real (`reducer-spec-fixtures record`) on copies of the
/// specs of Tests/Fixtures/record and Tests/Fixtures/specs in a temporary directory.
@Suite(.serialized) struct RecordEndToEndTests {
  static var fixtures: URL { ReducerSpecEndToEndTests.fixtures }

  /// A temporary directory with copies of fixture files in `specs/`.
  static func copies(_ files: [String]) throws -> URL {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID().uuidString)")
    let specs = root.appendingPathComponent("specs")
    try FileManager.default.createDirectory(at: specs, withIntermediateDirectories: true)
    for file in files {
      let source = BuiltCommand.packageRoot.appendingPathComponent(file)
      try FileManager.default.copyItem(at: source, to: specs.appendingPathComponent(source.lastPathComponent))
    }
    return root
  }

  static func text(_ root: URL, _ file: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
  }

  static let wrongDiff = """
    --- a/specs/wrong.yaml
    +++ b/specs/wrong.yaml
    @@ -7,21 +7,23 @@
         steps:
           # The first tap.
           - send: increment
    -        state: { count: 2 }   # a guess
    +        state: { count: 1 }   # a guess
           - send: increment
    +        state: { count: 2 }
           - send: decrement
             state:
               count: 1
    -          query: nothing
     
       - name: A search
         dependencies:
           searchClient.search: { returns: [a, b] }
         steps:
           - send: { search: swift }
    -        state: { query: swift }
    +        state: { query: swift, isLoading: true }
           # The answer.
           - receive: .response.success
    +        state: { results: [a, b], isLoading: false }
    +      - receive: logged
           - send: increment
             state: { count: 1 }
     

    """

  /// A Redux feature is recorded as a reducer's is: the state each step leaves, and what the
  /// middlewares' tasks dispatched, as `receive:` steps with the action's type name.
  @Test func aReduxSpecIsRecordedWithWhatTheMiddlewaresDispatched() async throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root.appendingPathComponent("specs"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    let draft = """
      feature: ReduxArchive
      dependencies:
        storedArchiveDataRepository.getAllObjectsFromRealm: { returns: [{ id: 2 }] }
        requestArchiveRepository.getArchiveResponse: { returns: { result: [{ id: 2, category: 洋食, dishName: グラタン }] } }
      scenarios:
        - name: A keyword, then a failure
          steps:
            - send: { RequestArchiveWithInputTextAction: { inputText: a } }
              state: { archiveState.inputText: a, archiveState.isLoading: true }
            - send: FailureArchiveAction

      """
    try draft.write(to: root.appendingPathComponent("specs/archive.yaml"), atomically: true, encoding: .utf8)
    let run = try await BuiltCommand.run(
      ["record", "specs/archive.yaml"], executable: ReducerSpecEndToEndTests.examples, directory: root)
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(
      try Self.text(root, "specs/archive.yaml") == """
        feature: ReduxArchive
        dependencies:
          storedArchiveDataRepository.getAllObjectsFromRealm: { returns: [{ id: 2 }] }
          requestArchiveRepository.getArchiveResponse: { returns: { result: [{ id: 2, category: 洋食, dishName: グラタン }] } }
        scenarios:
          - name: A keyword, then a failure
            steps:
              - send: { RequestArchiveWithInputTextAction: { inputText: a } }
                state: { archiveState.inputText: a, archiveState.isLoading: true }
              - receive: { SuccessArchiveAction: { archiveSceneEntities: [{ id: 2, photoUrl: "", category: 洋食, dishName: グラタン, shopName: "", introduction: "" }], storedIds: [2] } }
                state:
                  archiveState:
                    inputText: a
                    selectedCategory: ""
                    archiveCellViewObjects:
                      - id: 2
                        photoUrl: ""
                        category: 洋食
                        dishName: グラタン
                        shopName: ""
                        introduction: ""
                        isStored: true
                    isLoading: false
                    isError: false
              - send: FailureArchiveAction
                state:
                  archiveState:
                    inputText: a
                    selectedCategory: ""
                    archiveCellViewObjects:
                      - id: 2
                        photoUrl: ""
                        category: 洋食
                        dishName: グラタン
                        shopName: ""
                        introduction: ""
                        isStored: true
                    isLoading: false
                    isError: true

        """)
    let rerun = try await BuiltCommand.run(["specs/archive.yaml"], executable: ReducerSpecEndToEndTests.examples, directory: root)
    #expect(rerun.status == 0, "\(rerun.stdout)")
  }

  /// Characters of more than one byte before what is rewritten (found by the `rewrite` fuzz
  /// target: the rewriter wrote into the wrong bytes, `count: 1unt: 5 }`).
  @Test func aFileWithCharactersOfSeveralBytesIsRewrittenInTheRightPlace() async throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root.appendingPathComponent("specs"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    let text = """
      # Zählen … one tap at a time ☃
      feature: Tally
      dependencies:
        searchClient.log: { returns: null }
      scenarios:
        - name: Zählt hoch — one tap   # ünïcödé
          steps:
            - send: increment
              state: { count: 5 }   # a guess: ☃

      """
    for (name, bytes) in [("plain.yaml", Array(text.utf8)), ("marked.yaml", [0xEF, 0xBB, 0xBF] + Array(text.utf8))] {
      try Data(bytes).write(to: root.appendingPathComponent("specs/" + name))
      let run = try await BuiltCommand.run(["record", "specs/" + name], executable: Self.fixtures, directory: root)
      #expect(run.status == 0)
      #expect(run.stdout == """
        --- a/specs/\(name)
        +++ b/specs/\(name)
        @@ -6,4 +6,4 @@
           - name: Zählt hoch — one tap   # ünïcödé
             steps:
               - send: increment
        -        state: { count: 5 }   # a guess: ☃
        +        state: { count: 1 }   # a guess: ☃
        Recorded 1 scenario in 1 file; 1 file changed.

        """)
      let written = try Data(contentsOf: root.appendingPathComponent("specs/" + name))
      #expect(Array(written) == Array(bytes.prefix(bytes.count - 37)) + Array("state: { count: 1 }   # a guess: ☃\n".utf8))
    }
  }

  /// An action that arrives during an `advance:` is recorded where it arrived: the advance
  /// is split at that time, and the split spec runs.
  @Test func anActionThatArrivesDuringAnAdvanceSplitsIt() async throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root.appendingPathComponent("specs"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    let text = """
      feature: Tally
      scenarios:
        - name: A slow search
          dependencies:
            searchClient.search: { returns: [a], after: 300ms }
            searchClient.log: { returns: null }
          steps:
            - send: { search: swift }
              state: { query: swift, isLoading: true }
            - advance: 1s
            - send: increment
              state: { count: 1 }

      """
    try Data(text.utf8).write(to: root.appendingPathComponent("specs/slow.yaml"))
    let run = try await BuiltCommand.run(["record", "specs/slow.yaml"], executable: Self.fixtures, directory: root)
    #expect(run.status == 0)
    #expect(
      try Self.text(root, "specs/slow.yaml") == """
        feature: Tally
        scenarios:
          - name: A slow search
            dependencies:
              searchClient.search: { returns: [a], after: 300ms }
              searchClient.log: { returns: null }
            steps:
              - send: { search: swift }
                state: { query: swift, isLoading: true }
              - advance: 300ms
              - receive: { response: { success: [a] } }
                state: { results: [a], isLoading: false }
              - receive: logged
              - advance: 700ms
              - send: increment
                state: { count: 1 }

        """)
    let again = try await BuiltCommand.run(["specs/slow.yaml"], executable: Self.fixtures, directory: root)
    #expect(again.status == 0)

    // Actions that arrived before the advance began go before it.
    try Data(text.replacingOccurrences(of: "{ returns: [a], after: 300ms }", with: "{ returns: [a] }").utf8)
      .write(to: root.appendingPathComponent("specs/early.yaml"))
    let early = try await BuiltCommand.run(["record", "specs/early.yaml"], executable: Self.fixtures, directory: root)
    #expect(early.status == 0)
    #expect(
      try Self.text(root, "specs/early.yaml").hasSuffix("""
              - send: { search: swift }
                state: { query: swift, isLoading: true }
              - receive: { response: { success: [a] } }
                state: { results: [a], isLoading: false }
              - receive: logged
              - advance: 1s
              - send: increment
                state: { count: 1 }

        """))

    // A flow-style step is not split: the actions go after it.
    try Data(text.replacingOccurrences(of: "- advance: 1s", with: "- { advance: 1s }").utf8)
      .write(to: root.appendingPathComponent("specs/flow.yaml"))
    let flow = try await BuiltCommand.run(["record", "specs/flow.yaml"], executable: Self.fixtures, directory: root)
    #expect(flow.status == 0)
    #expect(
      try Self.text(root, "specs/flow.yaml").hasSuffix("""
              - { advance: 1s }
              - receive: { response: { success: [a] } }
                state: { results: [a], isLoading: false }
              - receive: logged
              - send: increment
                state: { count: 1 }

        """))
  }

  @Test func wrongExpectationsBecomeAPassingSpecWithItsComments() async throws {
    let root = try Self.copies(["Tests/Fixtures/record/wrong.yaml"])
    defer { try? FileManager.default.removeItem(at: root) }
    let run = try await BuiltCommand.run(["record", "specs/wrong.yaml"], executable: Self.fixtures, directory: root)
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(run.stdout == Self.wrongDiff + "Recorded 3 scenarios in 1 file; 1 file changed.\n")
    #expect(
      try Self.text(root, "specs/wrong.yaml") == """
        # Expectations written before the code: `reducer-spec record` fixes them.
        feature: Tally
        dependencies:
          searchClient.log: { returns: null }
        scenarios:
          - name: Counting up   # one tap at a time
            steps:
              # The first tap.
              - send: increment
                state: { count: 1 }   # a guess
              - send: increment
                state: { count: 2 }
              - send: decrement
                state:
                  count: 1

          - name: A search
            dependencies:
              searchClient.search: { returns: [a, b] }
            steps:
              - send: { search: swift }
                state: { query: swift, isLoading: true }
              # The answer.
              - receive: .response.success
                state: { results: [a, b], isLoading: false }
              - receive: logged
              - send: increment
                state: { count: 1 }

          - name: Nothing to record
            steps:
              - send: decrement
                state: { count: -1 }

        """)
    let check = try await BuiltCommand.run(["specs/wrong.yaml"], executable: Self.fixtures, directory: root)
    #expect(check.status == 0)
    #expect(check.stdout.hasSuffix("3 passed, 0 failed, 0 skipped\n"), "\(check.stdout)")

    // Recording the recorded spec again changes nothing.
    let again = try await BuiltCommand.run(["record", "specs/wrong.yaml"], executable: Self.fixtures, directory: root)
    #expect(again.status == 0)
    #expect(again.stdout == "Recorded 3 scenarios in 1 file; no changes.\n")
  }

  @Test func recordingAPassingSpecChangesNothing() async throws {
    let root = try Self.copies(["Tests/Fixtures/specs/passing.yaml"])
    defer { try? FileManager.default.removeItem(at: root) }
    let before = try Data(contentsOf: root.appendingPathComponent("specs/passing.yaml"))
    let run = try await BuiltCommand.run(["record", "specs"], executable: Self.fixtures, directory: root)
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(run.stdout == "Recorded 4 scenarios in 1 file; no changes.\n")
    #expect(try Data(contentsOf: root.appendingPathComponent("specs/passing.yaml")) == before)
  }

  @Test func withCISetNothingIsWrittenAndTheRecordFails() async throws {
    let root = try Self.copies(["Tests/Fixtures/record/wrong.yaml"])
    defer { try? FileManager.default.removeItem(at: root) }
    let before = try Self.text(root, "specs/wrong.yaml")
    let run = try await BuiltCommand.run(
      ["record", "specs/wrong.yaml"], environment: ["CI": "true"], executable: Self.fixtures, directory: root)
    #expect(run.status == 1)
    #expect(
      run.stdout == Self.wrongDiff
        + "Recorded 3 scenarios in 1 file; 1 file would change, but CI is set: nothing was written.\n")
    #expect(try Self.text(root, "specs/wrong.yaml") == before)

    // `CI=false` is not CI.
    let local = try await BuiltCommand.run(
      ["record", "specs/wrong.yaml"], environment: ["CI": "false"], executable: Self.fixtures, directory: root)
    #expect(local.status == 0)
    #expect(try Self.text(root, "specs/wrong.yaml") != before)
  }

  @Test func theFilterChoosesTheScenarios() async throws {
    let root = try Self.copies(["Tests/Fixtures/record/wrong.yaml"])
    defer { try? FileManager.default.removeItem(at: root) }
    let run = try await BuiltCommand.run(
      ["record", "specs", "--filter", "wrong.yaml › Counting"], executable: Self.fixtures, directory: root)
    #expect(run.status == 0)
    #expect(run.stdout.hasSuffix("Recorded 1 scenario in 1 file; 1 file changed.\n"))
    let text = try Self.text(root, "specs/wrong.yaml")
    #expect(text.contains("state: { count: 1 }   # a guess"))
    #expect(text.contains("state: { query: swift }\n"))
  }

  /// Each file is recorded by a worker of the pool that runs a run's scenarios: a reducer
  /// that traps ends its file's recording, is reported as a run reports a crash, and the
  /// other files are recorded.
  @Test func aTrapLeavesItsFileAsItIsAndTheOthersAreRecorded() async throws {
    let root = try Self.copies(["Tests/Fixtures/specs/misbehaving.yaml", "Tests/Fixtures/record/wrong.yaml"])
    defer { try? FileManager.default.removeItem(at: root) }
    let before = try Self.text(root, "specs/misbehaving.yaml")
    let run = try await BuiltCommand.run(["record", "specs"], executable: Self.fixtures, directory: root)
    #expect(run.status == 1)
    // The crash as a run reports it, after all that the worker wrote to standard error (its
    // stack trace too), which goes there as a run's does.
    #expect(
      run.stderr.hasSuffix("""
        specs/misbehaving.yaml: error: the worker crashed with signal \(WorkerPoolEndToEndTests.trapSignal) in the step at specs/misbehaving.yaml:9:9; the file was left as it is
        The worker's last lines on standard error:
          Swift/ContiguousArrayBuffer.swift:692: Fatal error: Index out of range

        """), "\(run.stderr)")
    #expect(
      run.stderr.hasPrefix("""
        ── output while recording specs/misbehaving.yaml ──
        Swift/ContiguousArrayBuffer.swift:692: Fatal error: Index out of range

        """), "\(run.stderr)")
    #expect(
      run.stdout == Self.wrongDiff
        + "Recorded 3 scenarios in 1 file; 1 file changed. 1 file with errors was left as it is.\n")
    #expect(try Self.text(root, "specs/misbehaving.yaml") == before)
  }

  /// A scenario that never ends is stopped after `--timeout`, as in a run: its file is left
  /// as it is, and the other files are recorded.
  @Test func aScenarioPastTheTimeoutLeavesItsFileAsItIs() async throws {
    let root = try Self.copies(["Tests/Fixtures/specs/forever.yaml", "Tests/Fixtures/record/wrong.yaml"])
    defer { try? FileManager.default.removeItem(at: root) }
    let before = try Self.text(root, "specs/forever.yaml")
    let run = try await BuiltCommand.run(
      ["record", "--timeout", "1s", "specs"], executable: Self.fixtures, directory: root)
    #expect(run.status == 1)
    #expect(
      run.stderr == """
        specs/forever.yaml: error: the scenario timed out after 1s in the step at specs/forever.yaml:17:9; the file was left as it is

        """)
    #expect(
      run.stdout == Self.wrongDiff
        + "Recorded 3 scenarios in 1 file; 1 file changed. 1 file with errors was left as it is.\n")
    #expect(try Self.text(root, "specs/forever.yaml") == before)
    // Stopped after the timeout and its grace, not after the default 10s.
    #expect(run.duration < 8)

    // The scenarios that end are recorded.
    let filtered = try await BuiltCommand.run(
      ["record", "--timeout", "1s", "specs/forever.yaml", "--filter", "A timer"], executable: Self.fixtures,
      directory: root)
    #expect(filtered.stderr == "")
    #expect(filtered.stdout == "Recorded 2 scenarios in 1 file; no changes.\n")
    #expect(filtered.status == 0)
  }

  @Test func aFileWithErrorsIsReportedAndLeftAsItIs() async throws {
    let root = try Self.copies(["Tests/Fixtures/invalid/unknown-key.yaml", "Tests/Fixtures/specs/passing.yaml"])
    defer { try? FileManager.default.removeItem(at: root) }
    let before = try Self.text(root, "specs/unknown-key.yaml")
    let run = try await BuiltCommand.run(["record", "specs"], executable: Self.fixtures, directory: root)
    #expect(run.status == 1)
    #expect(run.stderr == "specs/unknown-key.yaml:6:9: error: unknown key `stat` in a step; did you mean `state`?\n")
    #expect(run.stdout == "Recorded 4 scenarios in 1 file; no changes. 1 file with errors was left as it is.\n")
    #expect(try Self.text(root, "specs/unknown-key.yaml") == before)
  }

  /// `--timeout` and `--color` are the same options as a run's.
  @Test func helpDocumentsTheTimeout() async throws {
    let run = try await BuiltCommand.run(["record", "--help"], executable: Self.fixtures)
    #expect(run.status == 0)
    #expect(
      run.stdout.contains(
        "USAGE: reducer-spec-fixtures record [<path> ...] [--filter <text>] [--timeout <duration>] [--color <mode>]\n"))
    #expect(
      run.stdout.contains("""
          --timeout <duration>    How long one scenario may take before its worker is
                                  stopped: 300ms, 1.5s, 2m, or seconds. (default: 10s)
        """))
  }

  @Test func usageErrors() async throws {
    let root = try Self.copies([])
    defer { try? FileManager.default.removeItem(at: root) }
    let run = try await BuiltCommand.run(["record", "nope.yaml"], executable: Self.fixtures, directory: root)
    #expect(run.status == 64)
    #expect(
      run.stderr == """
        Error: no such file or directory: 'nope.yaml'
        Usage: reducer-spec-fixtures record [<path> ...] [--filter <text>] [--timeout <duration>] [--color <mode>]
          See 'reducer-spec-fixtures record --help' for more information.

        """)

    for timeout in ["0", "5x", "-1s"] {
      let bad = try await BuiltCommand.run(["record", "--timeout=\(timeout)"], executable: Self.fixtures, directory: root)
      #expect(bad.status == 64)
      #expect(
        bad.stderr == """
          Error: --timeout expects a duration longer than zero, like 300ms, 1.5s, 2m or 10 (seconds); got '\(timeout)'
          Usage: reducer-spec-fixtures record [<path> ...] [--filter <text>] [--timeout <duration>] [--color <mode>]
            See 'reducer-spec-fixtures record --help' for more information.

          """)
      #expect(bad.stdout == "")
    }
  }
}
