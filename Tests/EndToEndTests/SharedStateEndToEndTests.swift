import Foundation
import Testing

/// Shared state (`@Shared`) in specs, run by `reducer-spec` as a process on the example
/// feature ReadingList and the specs of Tests/Fixtures/shared: each scenario's own storages,
/// a shared change left unasserted, a `shared:` value that does not fit its key, and what
/// `features` says of the keys.
@Suite(.serialized) struct SharedStateEndToEndTests {
  @Test func aSharedChangeLeftUnassertedAndASeedOfTheWrongType() async throws {
    let run = try await ReducerSpecEndToEndTests.run(
      ["Tests/Fixtures/shared"], executable: ReducerSpecEndToEndTests.examples)
    #expect(run.status == 1)
    #expect(
      ReducerSpecEndToEndTests.readable(run.stdout) == #"""
        Tests/Fixtures/shared/seeds.yaml
          ✗ A user default seeded with a value of the wrong type (TIME)
            Tests/Fixtures/shared/seeds.yaml:3:33: error: `shared.appStorage.hidesReadBooks`: expected Bool for Bool, found the string "sometimes"
              appStorage: { hidesReadBooks: sometimes }
                                            ^

        Tests/Fixtures/shared/unasserted.yaml
          ✓ A scenario that toggles a user default (TIME)
          ✗ The next scenario starts from an empty storage, and forgets to assert (TIME)
            Tests/Fixtures/shared/unasserted.yaml:9:9: error: State was not expected to change, but a change occurred.
                  - send: hidesReadBooksToggled
                    ^

                · ReadingList.State(
                ·   _books: [],
                −   _hidesReadBooks: false,
                +   _hidesReadBooks: true,
                ·   _editor: nil
                · )

            (Expected: −, Actual: +)

        1 passed, 2 failed, 0 skipped

        """#)
  }

  @Test func featuresListsTheSharedKeysAndWhereSharedSeedsThem() async throws {
    let run = try await ReducerSpecEndToEndTests.run(
      ["features", "ReadingList"], executable: ReducerSpecEndToEndTests.examples)
    #expect(run.status == 0)
    #expect(
      run.stdout.contains(
        """

        Shared state (fields kept under a key; seed their values with `shared:`):
          books: fileStorage reading-list.json
          hidesReadBooks: appStorage hidesReadBooks

        """))
  }

  /// `record` writes the shared changes of each `send:`, read before and after the step.
  @Test func recordWritesTheSharedChangesOfEachSend() async throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root.appendingPathComponent("specs"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    try """
      feature: ReadingList
      dependencies:
        uuid: incrementing
      scenarios:
        - name: A book typed on the sheet
          steps:
            - send: addBookButtonTapped
            - send: { editor: { presented: { titleChanged: Dune } } }
            - send: hidesReadBooksToggled
              state: { hidesReadBooks: false }

      """.write(to: root.appendingPathComponent("specs/reading.yaml"), atomically: true, encoding: .utf8)
    let run = try await BuiltCommand.run(
      ["record", "specs/reading.yaml"], executable: ReducerSpecEndToEndTests.examples, directory: root)
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(
      try String(contentsOf: root.appendingPathComponent("specs/reading.yaml"), encoding: .utf8) == """
        feature: ReadingList
        dependencies:
          uuid: incrementing
        scenarios:
          - name: A book typed on the sheet
            steps:
              - send: addBookButtonTapped
                state:
                  books: [{ id: 0, title: "", isFinished: false }]
                  editor: { book: { id: 0, title: "", isFinished: false } }
              - send: { editor: { presented: { titleChanged: Dune } } }
                state:
                  books: [{ id: 0, title: Dune, isFinished: false }]
                  editor: { book: { id: 0, title: Dune, isFinished: false } }
              - send: hidesReadBooksToggled
                state: { hidesReadBooks: true }

        """)
    let rerun = try await BuiltCommand.run(
      ["specs/reading.yaml"], executable: ReducerSpecEndToEndTests.examples, directory: root)
    #expect(rerun.status == 0, "\(rerun.stdout)")
  }
}
