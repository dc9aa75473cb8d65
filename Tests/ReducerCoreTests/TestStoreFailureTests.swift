import Clocks
import Dependencies
import ReducerCore
import TestSupport
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
        ReportedIssue(
          message: """
            A state change does not match expectation.

                \u{2007} Counter.State(
                −   count: 2,
                +   count: 1,
                \u{2007}   secret: 0
                \u{2007} )

            (Expected: −, Actual: +)
            """, line: line)
      ])
  }

  @Test func aFailedStepFailsTheTest() async {
    // Not collected: the failure goes to Swift Testing, where it must be an issue of this test.
    await withKnownIssue {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      await store.send(.increment)
    }
  }

  @Test func aStateChangeWithoutAnAssertion() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      line = #line + 1
      await store.send(.increment)
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            State was not expected to change, but a change occurred.

                \u{2007} Counter.State(
                −   count: 0,
                +   count: 1,
                \u{2007}   secret: 0
                \u{2007} )

            (Expected: −, Actual: +)
            """, line: line)
      ])
  }

  @Test func anAssertionThatChangesNothing() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      line = #line + 1
      await store.send(.setCount("ten")) { $0.count = 0 }
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            Expected state to change, but no change occurred.

            The trailing closure made no observable modifications to state. If no change to state is \
            expected, omit the trailing closure.
            """, line: line)
      ])
  }

  @Test func theStoreGoesOnFromTheActualState() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      await store.send(.increment) { $0.count = 5 }
      // The next step starts from count 1, the actual state, not from the expected 5.
      await store.send(.increment) { $0.count = 2 }
    }
    #expect(issues.count == 1)
  }

  @Test func anAssertionThatThrows() async {
    struct Oops: Error {}
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      line = #line + 1
      await store.send(.increment) { _ in throw Oops() }
    }
    #expect(issues == [ReportedIssue(message: "Threw error: Oops()", line: line)])
  }

  @Test func sendingBeforeReceiving() async {
    var lines: [UInt] = []
    let issues = await collectIssues {
      let store = TestStore(initialState: 0) { PingPong.reducer }
      await store.send(.ping)
      lines.append(#line + 1)
      await store.send(.ping)
      // As in TCA, the send still happens and the queue stays: both pongs are received, in
      // order. The send is checked from the state of the last step asserted (0) against the
      // state it left, which the first pong had already changed; the first pong then leaves
      // the state that the send was taken to leave.
      lines.append(#line + 1)
      await store.receive(.pong) { $0 = 1 }
      await store.receive(.pong) { $0 = 2 }
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            Must handle 1 received action before sending an action.

            Unhandled actions: [
              [0]: .pong
            ]
            """, line: lines[0]),
        ReportedIssue(
          message: """
            State was not expected to change, but a change occurred.

                − 0
                + 1

            (Expected: −, Actual: +)
            """, line: lines[0]),
        ReportedIssue(
          message: """
            Expected state to change, but no change occurred.

            The trailing closure made no observable modifications to state. If no change to state is \
            expected, omit the trailing closure.
            """, line: lines[1]),
      ])
  }

  @Test func actionsLeftAtTheEnd() async {
    var line: UInt = 0
    let issues = await collectIssues {
      line = #line + 1
      let store = TestStore(initialState: 0) { PingPong.reducer }
      await store.send(.pongs(2))
      store.completed()
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            The store received 2 unexpected actions.

              Unhandled actions:
                .pong
                .pong

            To fix, explicitly assert against these actions using "store.receive", skip these actions \
            by performing "await store.skipReceivedActions()", or consider using a non-exhaustive test \
            store: "store.exhaustivity = .off".
            """, line: line)
      ])
  }

  @Test func anEffectStillRunningAtTheEnd() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() } withDependencies: {
        $0.continuousClock = TestClock()
      }
      line = #line + 1
      await store.send(.incrementLater)
      store.completed()
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            An effect returned for this action is still running. It must complete before the end of \
            the test.

            To fix, inspect any effects the reducer returns for this action and ensure that all of \
            them complete by the end of the test. There are a few reasons why an effect may not have \
            completed:

            If using async/await in your effect, it may need a little bit of time to properly \
            finish. To fix you can simply perform "await store.finish()" at the end of your test.

            If an effect uses a clock (or scheduler, via "receive(on:)", "delay", "debounce", etc.), \
            make sure that you wait enough time for it to perform the effect. If you are using a test \
            clock/scheduler, advance it so that the effects may complete, or consider using an \
            immediate clock/scheduler to immediately perform the effect instead.

            If you are returning a long-living effect (timers, notifications, subjects, etc.), \
            then make sure those effects are torn down by marking the effect ".cancellable" and \
            returning a corresponding cancellation effect ("Effect.cancel") from another action, or, \
            if your effect is driven by a Combine subject, send it a completion.

            If you do not wish to assert on these effects, perform "await \
            store.skipInFlightEffects()", or consider using a non-exhaustive test store: \
            "store.exhaustivity = .off".
            """, line: line)
      ])
  }

  @Test func receivingWhenNothingCanArrive() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      line = #line + 1
      await store.receive(.incremented)
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            Expected to receive the following action, but didn't:

              Counter.Action.incremented
            """,
          line: line)
      ])
  }

  @Test func receivingACaseOrAMatchWhenNothingCanArrive() async {
    var lines: [UInt] = []
    let issues = await collectIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      lines.append(#line + 1)
      await store.receive(\.incremented)
      lines.append(#line + 1)
      await store.receive { $0 == .incremented }
      lines.append(#line + 1)
      await store.receive({ $0 == .incremented }, expecting: "an incremented action")
    }
    #expect(
      issues == [
        ReportedIssue(message: "Expected to receive an action matching case path, but didn't get one.", line: lines[0]),
        ReportedIssue(message: "Expected to receive an action matching predicate, but didn't get one.", line: lines[1]),
        ReportedIssue(message: "Expected to receive an incremented action, but didn't get one.", line: lines[2]),
      ])
  }

  @Test func receivingWhileAnEffectWaitsOnAClock() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() } withDependencies: {
        $0.continuousClock = TestClock()
      }
      await store.send(.incrementLater)
      line = #line + 1
      await store.receive(.incremented, timeout: .milliseconds(20)) { $0.count = 1 }
      await store.skipInFlightEffects()
    }
    // As in TCA: the wait that timed out, then the action that was not received.
    #expect(
      issues == [
        ReportedIssue(
          message: """
            Expected to receive an action, but received none after 0.02 seconds.

            There are effects in-flight. If the effect that delivers this action uses a \
            clock/scheduler (via "receive(on:)", "delay", "debounce", etc.), make sure that you \
            wait enough time for it to perform the effect. If you are using a test \
            clock/scheduler, advance it so that the effects may complete, or consider using \
            an immediate clock/scheduler to immediately perform the effect instead.

            If you are not yet using a clock/scheduler, or can not use a clock/scheduler, \
            try increasing the duration of this assertion's "timeout".
            """, line: line),
        ReportedIssue(
          message: """
            Expected to receive the following action, but didn't:

              Counter.Action.incremented
            """, line: line),
      ])
  }

  @Test func receivingWhileAnEffectWaitsOnAClockWithTheStoresTimeout() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() } withDependencies: {
        $0.continuousClock = TestClock()
      }
      store.exhaustivity = .off
      store.timeout = .zero
      await store.send(.incrementLater)
      line = #line + 1
      await store.receive(.incremented)
      await store.skipInFlightEffects()
    }
    #expect(
      issues.first
        == ReportedIssue(
          message: """
            Expected to receive a matching action, but received none.

            There are effects in-flight. If the effect that delivers this action uses a \
            clock/scheduler (via "receive(on:)", "delay", "debounce", etc.), make sure that you \
            wait enough time for it to perform the effect. If you are using a test \
            clock/scheduler, advance it so that the effects may complete, or consider using \
            an immediate clock/scheduler to immediately perform the effect instead.

            If you are not yet using a clock/scheduler, or can not use a clock/scheduler, \
            configure this assertion with an explicit "timeout".
            """, line: line))
    #expect(issues.count == 2)
  }

  @Test func receivingStopsWaitingWhenTheEffectsEndWithoutIt() async {
    var line: UInt = 0
    let clock = ContinuousClock()
    var waited = Duration.zero
    let issues = await collectIssues {
      let store = TestStore(initialState: 0) {
        Reduce<Int, PingPong.Action> { _, action in
          guard action == .ping else { return .none }
          return .run { _ in try await Task.sleep(for: .milliseconds(10)) }
        }
      }
      await store.send(.ping)
      line = #line + 1
      waited = await clock.measure { await store.receive(.pong, timeout: .seconds(30)) }
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            Expected to receive the following action, but didn't:

              PingPong.Action.pong
            """, line: line)
      ])
    #expect(waited < .seconds(20))
  }

  @Test func receivingAnotherAction() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: 0) { PingPong.reducer }
      await store.send(.ping)
      line = #line + 1
      await store.receive(.ping) { $0 = 1 }
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            Received unexpected action:

                − PingPong.Action.ping
                + PingPong.Action.pong

            (Expected: −, Received: +)
            """, line: line)
      ])
  }

  @Test func receivingAnotherCase() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: 0) { PingPong.reducer }
      await store.send(.ping)
      line = #line + 1
      await store.receive(\.pongs) { $0 = 1 }
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            Received unexpected action:

              PingPong.Action.pong
            """, line: line)
      ])
  }

  @Test func receivingWithAPredicate() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: 0) { PingPong.reducer }
      await store.send(.ping)
      line = #line + 1
      await store.receive({ $0 == .ping }) { $0 = 1 }
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            Received unexpected action:

              PingPong.Action.pong
            """, line: line)
      ])
  }

  @Test func receivingWithADescribedPredicate() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: 0) { PingPong.reducer }
      await store.send(.ping)
      line = #line + 1
      await store.receive({ $0 == .ping }, expecting: "a ping") { $0 = 1 }
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            Received unexpected action:

              PingPong.Action.pong

            (Expected a ping.)
            """, line: line)
      ])
  }

  @Test func receivingAnotherValueOfTheCase() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: 0) {
        Reduce<Int, PingPong.Action> { _, action in action == .ping ? .send(.pongs(2)) : .none }
      }
      await store.send(.ping)
      line = #line + 1
      await store.receive(\.pongs, 3)
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            Received unexpected action:

              − PingPong.Action.pongs(3)
              + PingPong.Action.pongs(2)

            (Expected: −, Actual: +)
            """, line: line)
      ])
  }

  @Test func receivingAnotherCaseThanTheValuesCase() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: 0) { PingPong.reducer }
      await store.send(.ping)
      line = #line + 1
      await store.receive(\.pongs, 3)
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            Received unexpected action:

              PingPong.Action.pong
            """, line: line)
      ])
  }

  @Test func aMismatchedReceiveIsOneFailureAndTheStoreGoesOn() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: 0) { PingPong.reducer }
      await store.send(.ping)
      line = #line + 1
      await store.receive(.ping)
      // The pong was taken, with the state it left.
      #expect(store.state == 1)
      await store.send(.ping)
      await store.receive(.pong) { $0 = 2 }
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            Received unexpected action:

                − PingPong.Action.ping
                + PingPong.Action.pong

            (Expected: −, Received: +)
            """, line: line)
      ])
  }

  @Test func skippingWhatIsNotThere() async {
    var lines: [UInt] = []
    let issues = await collectIssues {
      let store = TestStore(initialState: 0) { PingPong.reducer }
      lines.append(#line + 1)
      await store.skipReceivedActions()
      lines.append(#line + 1)
      await store.skipInFlightEffects()
      await store.skipReceivedActions(strict: false)
      await store.skipInFlightEffects(strict: false)
    }
    #expect(
      issues == [
        ReportedIssue(message: "There were no received actions to skip.", line: lines[0]),
        ReportedIssue(message: "There were no in-flight effects to skip.", line: lines[1]),
      ])
  }

  @Test func finishingTooLate() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() } withDependencies: {
        $0.continuousClock = TestClock()
      }
      await store.send(.incrementLater)
      line = #line + 1
      await store.finish(timeout: .milliseconds(20))
      await store.skipInFlightEffects()
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            Expected effects to finish, but there are still effects in-flight after 0.02 seconds.

            There are effects in-flight. If the effect that delivers this action uses a \
            clock/scheduler (via "receive(on:)", "delay", "debounce", etc.), make sure that you wait \
            enough time for it to perform the effect. If you are using a test \
            clock/scheduler, advance it so that the effects may complete, or consider using \
            an immediate clock/scheduler to immediately perform the effect instead.

            If you are not yet using a clock/scheduler, or can not use a clock/scheduler, \
            try increasing the duration of this assertion's "timeout".
            """, line: line)
      ])
  }

  @Test func anUnstubbedDependencyIsNamed() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      line = #line + 1
      await store.send(.incrementLater)
      await store.skipInFlightEffects(strict: false)
    }
    #expect(issues.first?.message.hasPrefix("Unimplemented: @Dependency(\\.continuousClock) …") == true)
    #expect(
      issues.first?.message == """
        Unimplemented: @Dependency(\\.continuousClock) …

        The reducer or one of its effects used this dependency, but the test did not override it. \
        Give it a value in the "withDependencies" closure of the test store.
        """)
    _ = line
  }

  @Test func anUnstubbedClientEndpointIsNamed() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      await store.send(.playNext)
    }
    #expect(issues.count >= 1)
    #expect(issues.first?.message.contains("GenerateRandom.generateRandomInt") == true)
  }

  // MARK: - Non-exhaustive

  @Test func offChecksOnlyWhatIsAsserted() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() } withDependencies: {
        $0.generateRandom.generateRandomInt = { _ in 7 }
      }
      store.exhaustivity = .off
      await store.send(.increment)
      await store.send(.playNext) { $0.secret = 7 }
      await store.send(.increment) { $0.count = 1 }
    }
    #expect(issues.isEmpty)
  }

  @Test func offStillFailsAWrongAssertion() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      store.exhaustivity = .off
      line = #line + 1
      await store.send(.increment) { $0.count = 3 }
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            A state change does not match expectation.

                \u{2007} Counter.State(
                −   count: 3,
                +   count: 1,
                \u{2007}   secret: 0
                \u{2007} )

            (Expected: −, Actual: +)
            """, line: line)
      ])
  }

  @Test func offSkipsReceivedActionsAndShowsThemWhenAsked() async {
    var lines: [UInt] = []
    let issues = await collectIssues {
      let store = TestStore(initialState: 0) { PingPong.reducer }
      store.exhaustivity = .off(showSkippedAssertions: true)
      await store.send(.pongThenPing)
      // The queue is pong, ping, pong (from ping): receiving ping skips the first pong.
      lines.append(#line + 1)
      await store.receive(.ping) { $0 = 1 }
      lines.append(#line + 1)
      await store.skipReceivedActions()
    }
    #expect(
      issues == [
        ReportedIssue(message: "Skipped receiving PingPong.Action.pong", line: lines[0], isExpected: true),
        ReportedIssue(message: "Skipped receiving PingPong.Action.pong", line: lines[1], isExpected: true),
      ])
  }

  @Test func offReceivesTheFirstMatchingAction() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: 0) { PingPong.reducer }
      store.exhaustivity = .off
      await store.send(.pongs(2))
      line = #line + 1
      await store.receive(.ping)
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            Expected to receive the following action, but didn't:

              PingPong.Action.ping
            """, line: line)
      ])
  }

  @Test func withExhaustivityRestoresTheSetting() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      _ = await store.withExhaustivity(.off) {
        await store.send(.increment)
      }
      #expect(store.exhaustivity == .on)
      await store.send(.increment)
    }
    #expect(issues.count == 1)
  }

  @Test func assertChecksTheCurrentState() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      store.exhaustivity = .off
      await store.send(.increment)
      store.assert { $0.count = 1 }
      line = #line + 1
      store.assert { $0.count = 2 }
    }
    #expect(issues.map(\.line) == [line])
  }
}
