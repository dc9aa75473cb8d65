import Clocks
import Dependencies
import ReducerCore
import Testing

/// Every message a TestStore can report, word for word, at the line of the step.
@MainActor
@Suite struct TestStoreFailureTests {
  @Test func aStateChangeThatDoesNotMatch() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      line = #line + 1
      await store.send(.increment) { $0.count = 2 }
    }
    #expect(
      issues == [
        Reported(
          message: """
            A state change does not match expectation: …

                \u{2007} Counter.State(
                −   count: 2,
                +   count: 1,
                \u{2007}   secret: 0
                \u{2007} )

            (Expected: −, Actual: +)
            """, line: line)
      ])
  }
}

