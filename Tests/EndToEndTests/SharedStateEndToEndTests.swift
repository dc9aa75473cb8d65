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
}
