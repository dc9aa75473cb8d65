import ConcurrencyExtras
import Dependencies
import Foundation
import ReducerCore
import TestSupport
import Testing

/// What `store.state` is at each step: the state as of the last step asserted. An action that
/// an effect sends changes it when a `receive` (or a skip) takes the action, not when the
/// effect sends it.
@MainActor
@Suite struct TestStoreStateTests {
  /// `start` counts, and sends `first`, `second` and `third` at once; each of those counts.
  enum Steps {
    enum Action: Equatable { case start, first, second, third }

    static var reducer: Reduce<Int, Action> {
      Reduce { count, action in
        count += 1
        return action == .start ? .merge(.send(.first), .send(.second), .send(.third)) : .none
      }
    }
  }

  @Test func theStateIsThatOfTheLastAssertedStep() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: 0) { Steps.reducer }
      await store.send(.start) {
        // In the closure: the state the step starts from.
        #expect(store.state == 0)
        $0 = 1
      }
      #expect(store.state == 1)
      await store.receive(.first) {
        #expect(store.state == 1)
        $0 = 2
      }
      #expect(store.state == 2)
      await store.receive(.second) { $0 = 3 }
      #expect(store.state == 3)
      await store.receive(.third) { $0 = 4 }
      #expect(store.state == 4)
    }
    #expect(issues == [])
  }

  @Test func assertChecksTheStateBeforeTheActionsNotYetReceived() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: 0) { Steps.reducer }
      await store.send(.start) { $0 = 1 }
      store.assert { $0 = 1 }
      line = #line + 1
      store.assert { $0 = 4 }
      await store.skipReceivedActions()
      store.assert { $0 = 4 }
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            A state change does not match expectation.

                − 4
                + 1

            (Expected: −, Actual: +)
            """, line: line)
      ])
  }

  @Test func skippingReceivedActionsMovesTheStateOn() async {
    for exhaustivity in [Exhaustivity.on, .off, .off(showSkippedAssertions: true)] {
      let issues = await collectIssues {
        let store = TestStore(initialState: 0) { Steps.reducer }
        store.exhaustivity = exhaustivity
        await store.send(.start) { $0 = 1 }
        #expect(store.state == 1)
        await store.skipReceivedActions(strict: false)
        #expect(store.state == 4)
      }
      // With `showSkippedAssertions`, the skipped actions are noted (expected issues).
      #expect(issues.allSatisfy { $0.isExpected })
    }
  }

  @Test func aNonExhaustiveReceiveMovesTheStateToTheActionItTakes() async {
    let store = TestStore(initialState: 0) { Steps.reducer }
    store.exhaustivity = .off
    await store.send(.start)
    #expect(store.state == 1)
    // `first` is skipped: the state is the one `second` left.
    await store.receive(.second) { $0 = 3 }
    #expect(store.state == 3)
  }

  @Test func aNonExhaustiveSendSkipsTheActionsNotReceived() async {
    let store = TestStore(initialState: 0) { Steps.reducer }
    store.exhaustivity = .off
    await store.send(.start)
    #expect(store.state == 1)
    await store.send(.start)
    #expect(store.state == 5)
    await store.skipReceivedActions()
    #expect(store.state == 8)
  }

  @Test func assertionClosuresUseTheStoresDependencies() async {
    struct Stamp: Reducer {
      struct State: Equatable {
        var date: Date?
        var count = 0
      }
      enum Action: Equatable { case stamp, stamped }
      @Dependency(\.date.now) var now
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .stamp:
          state.date = now
          return .send(.stamped)
        case .stamped:
          state.count += 1
          return .none
        }
      }
    }
    let issues = await collectIssues {
      let store = TestStore(initialState: Stamp.State()) { Stamp() } withDependencies: {
        $0.date = .constant(Date(timeIntervalSince1970: 1_000_000))
      }
      await store.send(.stamp) {
        @Dependency(\.date.now) var now
        $0.date = now
      }
      await store.receive(.stamped) {
        @Dependency(\.date.now) var now
        #expect(now == Date(timeIntervalSince1970: 1_000_000))
        $0.count = 1
      }
      store.assert {
        @Dependency(\.date.now) var now
        $0.date = now
      }
    }
    #expect(issues == [])
  }

  @available(*, deprecated)
  @Test func xctModifyNeedsNoChangeWhenTheStoreIsNotExhaustive() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: Optional(1)) {
        Reduce<Int?, Bool> { _, send in send ? .send(false) : .none }
      }
      store.exhaustivity = .off
      await store.send(true) { XCTModify(&$0) { _ in } }
      await store.receive(false) { XCTModify(&$0) { _ in } }
      store.exhaustivity = .on
      line = #line + 1
      await store.send(false) { XCTModify(&$0) { _ in } }
    }
    // Exhaustive, the unchanged value is reported, and so is the closure that changed nothing.
    #expect(
      issues.map(\.message) == [
        #"XCTModify: Expected "Int" value to be modified but it was unchanged."#,
        """
        Expected state to change, but no change occurred.

        The trailing closure made no observable modifications to state. If no change to state is \
        expected, omit the trailing closure.
        """,
      ])
    #expect(issues.last?.line == line)
  }

  @available(*, deprecated)
  @Test func skippedAssertionsReportWhatTheClosureReportsAsExpected() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: Int?.none) {
        Reduce<Int?, Bool> { state, _ in
          state = 1
          return .none
        }
      }
      store.exhaustivity = .off(showSkippedAssertions: true)
      // From the actual state (1) the closure holds; from the state before (nil) it cannot
      // modify the value: both what it reports and the difference are expected issues.
      await store.send(true) { XCTModify(&$0) { $0 = 1 } }
    }
    #expect(issues.allSatisfy { $0.isExpected })
    #expect(issues.map(\.message).first?.hasPrefix(#"XCTModify: Expected to extract value of type "Int""#) == true)
    #expect(
      issues.map(\.message).last == """
        A state change does not match expectation.

            − nil
            + 1

        (Expected: −, Actual: +)
        """)
  }
}

/// What `TestStoreTask` covers: the effects the action started, and, as in TCA, the effects
/// started for the actions those sent.
@MainActor
@Suite struct TestStoreTaskTests {
  /// `open` starts an effect that sends `opened`, whose effect runs until cancelled and sends
  /// `listening` first; `listening` starts one more that runs until cancelled.
  enum Chain {
    enum Action: Equatable { case open, opened, listening }

    static var reducer: Reduce<Int, Action> {
      Reduce { _, action in
        switch action {
        case .open:
          return .run { send in await send(.opened) }
        case .opened:
          return .merge(
            .run { _ in try await Task.never() },
            .run { send in await send(.listening) })
        case .listening:
          return .run { _ in try await Task.never() }
        }
      }
    }
  }

  @Test func cancellingTheTaskCancelsTheEffectsOfTheActionsItsEffectsSent() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: 0) { Chain.reducer }
      let task = await store.send(.open)
      await store.receive(.opened)
      await store.receive(.listening)
      #expect(store.effectsInFlight.count == 1)
      await task.cancel()
      #expect(store.effectsInFlight.isEmpty)
      #expect(task.isCancelled)
      store.completed()
    }
    #expect(issues == [])
  }

  @Test func finishingTheTaskWaitsForTheEffectsOfTheActionsItsEffectsSent() async {
    let finished = LockIsolated(false)
    let issues = await collectIssues {
      let store = TestStore(initialState: 0) {
        Reduce<Int, Bool> { _, start in
          start
            ? .send(false)
            : .run { _ in
              try await Task.sleep(for: .milliseconds(20))
              finished.setValue(true)
            }
        }
      }
      let task = await store.send(true)
      await store.receive(false)
      await task.finish(timeout: .seconds(60))
      #expect(finished.value)
    }
    #expect(issues == [])
  }
}

/// A feature that dismisses itself while it is the root of a test store: as in TCA, the store
/// is dismissed, its effects are cancelled, and nothing can be sent to it afterwards.
@MainActor
@Suite struct TestStoreDismissalTests {
  struct Sheet: Reducer {
    enum Action { case onAppear, closeButtonTapped }
    @Dependency(\.dismiss) var dismiss

    func reduce(into state: inout Int, action: Action) -> Effect<Action> {
      switch action {
      case .onAppear:
        return .run { _ in try await Task.never() }
      case .closeButtonTapped:
        return .run { _ in await dismiss() }
      }
    }
  }

  @Test func dismissingTheRootDismissesTheStoreAndCancelsItsEffects() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: 0) { Sheet() }
      await store.send(.onAppear)
      #expect(!store.isDismissed)
      await store.send(.closeButtonTapped)
      #expect(store.isDismissed)
      #expect(store.effectsInFlight.isEmpty)
      line = #line + 1
      await store.send(.onAppear)
      store.completed()
    }
    #expect(issues == [ReportedIssue(message: "Can't send action to dismissed test store.", line: line)])
  }
}

/// A test's own `uncheckedUseMainSerialExecutor = true` outlives the test stores it makes.
/// In a process of its own: the setting is global, and other tests' stores run meanwhile.
@Suite struct MainSerialExecutorSettingTests {
  @Test func aStoreLeavesTheMainSerialExecutorAsTheTestSetIt() async {
    await #expect(processExitsWith: .success) {
      let kept = await MainActor.run {
        uncheckedUseMainSerialExecutor = true
        var store: TestStore<Int, Bool>? = TestStore(initialState: 0) { EmptyReducer() }
        _ = store
        store = nil
        return uncheckedUseMainSerialExecutor
      }
      let cleared = await MainActor.run {
        uncheckedUseMainSerialExecutor = false
        var store: TestStore<Int, Bool>? = TestStore(initialState: 0) { EmptyReducer() }
        let whileAlive = uncheckedUseMainSerialExecutor
        _ = store
        store = nil
        return whileAlive && !uncheckedUseMainSerialExecutor
      }
      exit(kept && cleared ? 0 : 1)
    }
  }
}
