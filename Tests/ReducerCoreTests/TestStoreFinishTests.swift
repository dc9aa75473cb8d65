import CasePaths
import Clocks
import ReducerCore
import TestSupport
import Testing

/// TCA 1.25's finish and queue semantics, word for word.
@MainActor
@Suite struct TestStoreFinishTests {
  @Test func finishFailsWhileReceivedActionsAreUnhandled() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: 0) { PingPong.reducer }
      await store.send(.ping)
      line = #line + 1
      await store.finish()
      // The queue is kept, as in TCA: the action can still be received.
      await store.receive(.pong) { $0 = 1 }
      store.completed()
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            The store received 1 unexpected action.

              Unhandled actions:
                .pong

            To fix, explicitly assert against these actions using "store.receive", skip these actions \
            by performing "await store.skipReceivedActions()", or consider using a non-exhaustive test \
            store: "store.exhaustivity = .off".
            """, line: line)
      ])
  }

  @Test func finishWithNothingLeftPasses() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: 0) { PingPong.reducer }
      await store.send(.ping)
      await store.receive(.pong) { $0 = 1 }
      await store.finish()
    }
    #expect(issues == [])
  }

  @Test func finishWhenNotExhaustiveIgnoresTheQueue() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: 0) { PingPong.reducer }
      store.exhaustivity = .off
      await store.send(.ping)
      await store.finish()
    }
    #expect(issues == [])
  }

  @Test func finishingTooLateWithTheStoresTimeout() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() } withDependencies: {
        $0.continuousClock = TestClock()
      }
      store.timeout = .milliseconds(200)
      await store.send(.incrementLater)
      line = #line + 1
      await store.finish()
      await store.skipInFlightEffects()
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            Expected effects to finish, but there are still effects in-flight after 0.2 seconds.

            There are effects in-flight. If the effect that delivers this action uses a \
            clock/scheduler (via "receive(on:)", "delay", "debounce", etc.), make sure that you wait \
            enough time for it to perform the effect. If you are using a test \
            clock/scheduler, advance it so that the effects may complete, or consider using \
            an immediate clock/scheduler to immediately perform the effect instead.

            If you are not yet using a clock/scheduler, or can not use a clock/scheduler, \
            configure this assertion with an explicit "timeout".
            """, line: line)
      ])
  }

  @Test func aSendWithUnhandledActionsStillSendsAndKeepsTheQueue() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: 0) { PingPong.reducer }
      await store.send(.pongs(2))
      line = #line + 1
      await store.send(.ping)
      await store.receive(.pong) { $0 = 1 }
      await store.receive(.pong) { $0 = 2 }
      await store.receive(.pong) { $0 = 3 }
    }
    // As in TCA, the send is checked from the state of the last step asserted (0), and the
    // state it left includes the queued pongs.
    #expect(
      issues == [
        ReportedIssue(
          message: """
            Must handle 2 received actions before sending an action.

            Unhandled actions: [
              [0]: .pong,
              [1]: .pong
            ]
            """, line: line),
        ReportedIssue(
          message: """
            State was not expected to change, but a change occurred.

                − 0
                + 2

            (Expected: −, Actual: +)
            """, line: line),
      ])
  }

  @Test func anActionSentFromACompletedEffect() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: 0) { Leaky.reducer }
      line = #line + 1
      await store.send(.start)
      await store.finish()
      // The effect has completed; the send it escaped is used now.
      Leaky.escapedSend?(.leaked)
      await store.receive(.leaked) { $0 = 1 }
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            An action was sent from a completed effect.

              Action:
                Leaky.Action.leaked

              Effect returned from:
                Leaky.Action.start

            Avoid sending actions using the 'send' argument from 'Effect.run' after the effect has \
            completed. This can happen if you escape the 'send' argument in an unstructured context.

            To fix this, make sure that your 'run' closure does not return until you're done calling 'send'.
            """, line: line)
      ])
  }
}

/// `start` returns an effect that escapes its `send`, for a test to call after the effect has
/// completed.
@MainActor
enum Leaky {
  static var escapedSend: Send<Action>?

  @CasePathable
  enum Action: Equatable {
    case start
    case leaked
  }

  static var reducer: Reduce<Int, Action> {
    Reduce { state, action in
      switch action {
      case .start:
        return .run { send in
          await MainActor.run { escapedSend = send }
        }
      case .leaked:
        state += 1
        return .none
      }
    }
  }
}
