import Foundation
import Testing

/// Presentation and its dismissal, and `finish:` with actions still to be received, run by
/// `reducer-spec` as a process on the example features (Contacts, Todos) and the specs of
/// Tests/Fixtures/navigation: the exact console output of each failure.
@Suite(.serialized) struct NavigationEndToEndTests {
  @Test func aWrongPresentedStateAnUnmatchedDismissAndAnUnmatchedFinish() async throws {
    let run = try await ReducerSpecEndToEndTests.run(
      ["Tests/Fixtures/navigation"], executable: ReducerSpecEndToEndTests.examples)
    #expect(run.status == 1)
    #expect(
      ReducerSpecEndToEndTests.readable(run.stdout) == #"""
        Tests/Fixtures/navigation/contacts.yaml
          ✗ The sheet is presented with another contact than the spec says (TIME)
            Tests/Fixtures/navigation/contacts.yaml:8:9: error: A state change does not match expectation.
                  - send: addButtonTapped
                    ^

                · Contacts.State(
                ·   contacts: [],
                ·   _destination: .addContact(
                ·     AddContact.State(
                ·       contact: Contact(
                ·         id: UUID(00000000-0000-0000-0000-000000000000),
                −         name: "Blob"
                +         name: ""
                ·       )
                ·     )
                ·   ),
                ·   path: [:]
                · )

            (Expected: −, Actual: +)
          ✗ Saving is written without the dismiss that follows (TIME)
            Tests/Fixtures/navigation/contacts.yaml:12:5: error: The store received 1 unexpected action.
              - name: Saving is written without the dismiss that follows
                ^

              Unhandled actions:
                .destination(.dismiss)

            To fix, receive these actions with "receive:" steps, skip them with "skipReceivedActions: true", or check less with "exhaustivity: off".

        Tests/Fixtures/navigation/finish.yaml
          ✗ The sort arrives before finish, and nothing receives it (TIME)
            Tests/Fixtures/navigation/finish.yaml:15:9: error: The store received 1 unexpected action.
                  - finish: true
                    ^

              Unhandled actions:
                .sortCompletedTodos

            To fix, receive these actions with "receive:" steps, skip them with "skipReceivedActions: true", or check less with "exhaustivity: off".

            Tests/Fixtures/navigation/finish.yaml:6:5: error: The store received 1 unexpected action.
              - name: The sort arrives before finish, and nothing receives it
                ^

              Unhandled actions:
                .sortCompletedTodos

            To fix, receive these actions with "receive:" steps, skip them with "skipReceivedActions: true", or check less with "exhaustivity: off".

        0 passed, 3 failed, 0 skipped

        """#)
    #expect(run.stderr == "")
  }
}
