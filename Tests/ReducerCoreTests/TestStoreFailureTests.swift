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
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: 0) { PingPong.reducer }
      await store.send(.ping)
      line = #line + 1
      await store.send(.ping)
      // As in TCA, the send still happens and the queue stays: both pongs are received, in order.
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
            """, line: line)
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
            An effect returned for this action is still running. It must complete before the end of the test.

              Action:
                Counter.Action.incrementLater

            To fix, make every effect that this action starts finish by the end of the test:

            • If an effect sleeps on a test clock, advance the clock (a spec step "advance:") far \
            enough for it to wake up, or use an immediate clock.

            • If an effect waits for a response held with "after:", advance the clock past it.

            • If an effect is long-living (a timer, a stream), make it cancellable and cancel it \
            from another action, or skip it explicitly with "skipInFlightEffects".

            • If an effect only needs a moment, wait for it with "finish".
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
          message:
            "Expected to receive an action, but received none. No effects are in flight, so none can arrive.",
          line: line)
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
    #expect(
      issues == [
        ReportedIssue(
          message: """
            Expected to receive an action, but received none after 0.02 seconds. 1 effect is still in \
            flight: an effect may need more time (a longer timeout), or an effect may be waiting on a \
            test clock that needs to advance.
            """, line: line)
      ])
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

            (Expected an action in the case of the case key path.)
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

            (Expected an action matching the predicate.)
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
            Expected to receive PingPong.Action.ping, but received none. The actions received that do not \
            match: [
              [0]: .pong,
              [1]: .pong
            ]
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
