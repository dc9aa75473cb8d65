import Foundation
import Testing

/// Identified elements, action paths, named tasks and streams, run by `reducer-spec` as a
/// process on the `Checklist` fixture feature (Tests/SpecFixtures/Checklist.swift) and the
/// specs of Tests/Fixtures/checklist: the exact console output of each failure and error.
@Suite(.serialized) struct CollectionsEndToEndTests {
  @Test func identifiedElementsTasksAndStreams() async throws {
    let run = try await ReducerSpecEndToEndTests.run(["Tests/Fixtures/checklist"])
    #expect(run.status == 1)
    #expect(
      ReducerSpecEndToEndTests.readable(run.stdout) == #"""
        Tests/Fixtures/checklist/failing.yaml
          ✗ A wrong item is asserted (TIME)
            Tests/Fixtures/checklist/failing.yaml:11:9: error: A state change does not match expectation.
                  - send:
                    ^

                · Checklist.State(
                ·   items: [
                ·     [0]: Checklist.Item(
                ·       id: UUID(00000000-0000-0000-0000-000000000000),
                ·       title: "Milk",
                −       isDone: true
                +       isDone: false
                ·     ),
                ·     [1]: Checklist.Item(
                ·       id: UUID(00000000-0000-0000-0000-000000000001),
                ·       title: "Eggs",
                −       isDone: false
                +       isDone: true
                ·     )
                ·   ],
                ·   screenshots: 0,
                ·   messages: [],
                ·   seconds: 0
                · )

            (Expected: −, Actual: +)
          ✗ An item that is not there (TIME)
            Tests/Fixtures/checklist/failing.yaml:21:16: error: cannot set `items[id=3].isDone`: `items` has no element with id 3; its ids are 0, 1
                      items[id=3].isDone: true
                           ^
          ✗ A screen that is never left (TIME)
            Tests/Fixtures/checklist/failing.yaml:25:9: error: An effect returned for this action is still running. It must complete before the end of the test.
                  - send: onAppear
                    ^

            To fix, make every effect that this action starts finish by the end of the scenario:

            • If an effect sleeps on a test clock, add an "advance:" step that moves the clock far enough for it to wake up.

            • If an effect waits for a response held with "after:", add an "advance:" step past it.

            • If an effect is long-living (a timer, a stream), cancel it with a later action, or name the send with "as:" and add a "cancel:" step for it.

            • If an effect only needs a moment, add a "finish: true" step.

            To leave the effects running unchecked, add a "skipInFlightEffects: true" step, or check less with "exhaustivity: off".

        Tests/Fixtures/checklist/invalid/emit-endpoint.yaml
          ✗ Tests/Fixtures/checklist/invalid/emit-endpoint.yaml:8:17: error: cannot emit into `searchClient.search`: it is not a stream (a stream endpoint returns an `AsyncStream`, is registered with `.stream(…)`, and is stubbed `{ stream: open }`); Tally has no stream endpoints
                  - emit: { searchClient.search: [swift] }
                            ^

        Tests/Fixtures/checklist/invalid/flow-key.yaml
          ✗ Tests/Fixtures/checklist/invalid/flow-key.yaml:6:23: error: did not find expected ',' or '}' while parsing a flow mapping that starts at 6:16; a key with `[` or `]` cannot be written plain in a flow mapping (`{ … }`): quote it, `"items[id=0].isDone": …`, or write the mapping in block style, one key per line
                    state: { items[id=0].isDone: true }
                                  ^

        Tests/Fixtures/checklist/invalid/unknown-task.yaml
          ✗ Tests/Fixtures/checklist/invalid/unknown-task.yaml:7:17: error: `cancel: timr` names no task: no earlier `send` has `as: timr`; did you mean `timer`?
                  - cancel: timr
                            ^
          ✗ Tests/Fixtures/checklist/invalid/unknown-task.yaml:8:17: error: `finish: screen` names no task: no earlier `send` has `as: screen`
                  - finish: screen
                            ^

        Tests/Fixtures/checklist/passing.yaml
          ✓ Items are found by their ids (TIME)
          ✓ Screenshots and messages arrive while the screen is shown (TIME)
          ✓ Closed streams end the effect (TIME)
          ✓ A timer runs until it is cancelled (TIME)
          ✓ A timer stopped by an action (TIME)
          ✓ Only what is asserted counts (TIME)
            Tests/Fixtures/checklist/passing.yaml:79:9: note: Skipped receiving Checklist.Action.tick
            Tests/Fixtures/checklist/passing.yaml:79:9: note: Skipped receiving Checklist.Action.tick
            Tests/Fixtures/checklist/passing.yaml:79:9: note: Skipped receiving Checklist.Action.tick

        3 files could not run.
        6 passed, 3 failed, 0 skipped

        """#)
  }
}
