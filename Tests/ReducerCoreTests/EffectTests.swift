import CasePaths
import Clocks
import Dependencies
import ReducerCore
import TestSupport
import Testing

// MARK: - Fixtures (local to this file)

private struct EffectsFailure: Error, Equatable {
  var message: String
}

/// Holds an effect until the test opens it.
final class WorkGate: Sendable {
  private let stream: AsyncStream<Void>
  private let continuation: AsyncStream<Void>.Continuation

  init() {
    (stream, continuation) = AsyncStream.makeStream()
  }

  func open() { continuation.finish() }
  func wait() async { for await _ in stream {} }
}

extension DependencyValues {
  fileprivate var workGate: WorkGate {
    get { self[WorkGateKey.self] }
    set { self[WorkGateKey.self] = newValue }
  }
}

private enum WorkGateKey: DependencyKey {
  static let liveValue = WorkGate()
}

/// One action per kind of effect; every effect that ends up sending writes to `log`.
private struct EffectsFeature: Reducer {
  struct State: Equatable {
    var log: [String] = []
    var query = ""
  }

  @CasePathable
  enum Action: Equatable {
    case sendAtOnce
    case runSeveral
    case mergeSendAndRuns
    case mergeSlowAndFast
    case concatenateTwoSleeps
    case startTimer
    case stopTimer
    case startJob(Int)
    case stopJobWithNone
    case textChanged(String)
    case search(String)
    case runThrowingWithCatch
    case work
    case logged(String)
  }

  enum CancelID: Hashable, Sendable { case timer, job, search }

  @Dependency(\.workGate) var workGate
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .sendAtOnce:
      return .send(.logged("sent"))

    case .runSeveral:
      return .run { send in
        await send(.logged("one"))
        await send(.logged("two"))
        await send(.logged("three"))
      }

    case .mergeSendAndRuns:
      return .merge(
        .send(.logged("send")),
        .run { send in await send(.logged("run 1")) },
        .run { send in await send(.logged("run 2")) }
      )

    case .mergeSlowAndFast:
      return .merge(
        .run { [clock] send in
          try await clock.sleep(for: .seconds(2))
          await send(.logged("slow"))
        },
        .run { [clock] send in
          try await clock.sleep(for: .seconds(1))
          await send(.logged("fast"))
        }
      )

    case .concatenateTwoSleeps:
      return .concatenate(
        .run { [clock] send in
          try await clock.sleep(for: .seconds(1))
          await send(.logged("first"))
        },
        .run { [clock] send in
          try await clock.sleep(for: .seconds(1))
          await send(.logged("second"))
        }
      )

    case .startTimer:
      return .run { [clock] send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.logged("tick"))
        }
      }
      .cancellable(id: CancelID.timer)

    case .stopTimer:
      return .cancel(id: CancelID.timer)

    case .startJob(let number):
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        await send(.logged("job \(number)"))
      }
      .cancellable(id: CancelID.job, cancelInFlight: true)

    case .stopJobWithNone:
      return Effect<Action>.none.cancellable(id: CancelID.job, cancelInFlight: true)

    case .textChanged(let text):
      state.query = text
      return .run { send in await send(.search(text)) }
        .debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)

    case .search(let query):
      state.log.append("search \(query)")
      return .none

    case .runThrowingWithCatch:
      return .run { _ in
        throw EffectsFailure(message: "offline")
      } catch: { error, send in
        await send(.logged("caught \((error as? EffectsFailure)?.message ?? "?")"))
      }

    case .work:
      // Held until the test opens its gate, not by a clock: shows that `finish` waits for
      // the effect, whatever the machine's load (a real-time sleep could end before the test
      // looked, when parallel tests keep the main executor busy).
      return .run { [workGate] send in
        await workGate.wait()
        await send(.logged("worked"))
      }

    case .logged(let entry):
      state.log.append(entry)
      return .none
    }
  }
}

/// A child whose effects use every kind of effect, run through `Scope` (and so `Effect.map`).
private struct EffectsChild: Reducer {
  struct State: Equatable {
    var events: [String] = []
  }

  @CasePathable
  enum Action: Equatable {
    case start
    case stop
    case ready
    case tick
  }

  enum CancelID: Hashable, Sendable { case long }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .merge(
        .send(.ready),
        .run { send in await send(.tick) },
        .run { [clock] send in
          try await clock.sleep(for: .seconds(60))
          await send(.tick)
        }
        .cancellable(id: CancelID.long)
      )
    case .stop:
      return .cancel(id: CancelID.long)
    case .ready:
      state.events.append("ready")
      return .none
    case .tick:
      state.events.append("tick")
      return .none
    }
  }
}

private struct EffectsParent: Reducer {
  struct State: Equatable {
    var child = EffectsChild.State()
    var childActionsSeen = 0
  }

  @CasePathable
  enum Action: Equatable {
    case child(EffectsChild.Action)
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: \.child) { EffectsChild() }
    Reduce { state, action in
      switch action {
      case .child:
        state.childActionsSeen += 1
        return .none
      }
    }
  }
}

/// `start(count, yields)` merges `count` `.run` effects; effect `i` yields `yields(i)` times,
/// then sends `value(i)`.
private struct ManyEffects: Reducer {
  typealias State = [Int]

  enum Action: Equatable {
    case start(count: Int, yieldsFactor: Int)
    case value(Int)
  }

  func reduce(into state: inout [Int], action: Action) -> Effect<Action> {
    switch action {
    case .start(let count, let factor):
      return .merge(
        (0..<count).map { index in
          Effect<Action>.run { send in
            for _ in 0..<((index * factor) % 5) { await Task.yield() }
            await send(.value(index))
          }
        })
    case .value(let index):
      state.append(index)
      return .none
    }
  }
}

/// An effect that yields `count` times, then sends back.
private struct YieldingEffect: Reducer {
  typealias State = Int
  enum Action: Equatable {
    case start(yields: Int)
    case done
  }

  func reduce(into state: inout Int, action: Action) -> Effect<Action> {
    switch action {
    case .start(let yields):
      return .run { send in
        for _ in 0..<yields {
          await Task.yield()
          if Task.isCancelled { return }
        }
        await send(.done)
      }
    case .done:
      state += 1
      return .none
    }
  }
}

private enum ThrowingAction: Equatable { case go }

/// Runs a test body with the issues it reports collected, and expects none.
///
/// The test target does not link IssueReportingTestSupport, so on Linux an issue that a
/// `TestStore` reports (a wrong state, an unreceived action, an effect still running when the
/// store is deinitialized) is only printed, and does not fail the test. Create the store inside
/// `body`, so that its end-of-test checks run inside too.
@MainActor
private func expectNoIssues(
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: @MainActor () async -> Void
) async {
  let issues = await collectIssues(body)
  #expect(issues == [], sourceLocation: sourceLocation)
}

// MARK: - Tests

@MainActor
@Suite struct EffectTests {
  // MARK: .send

  @Test func sendDeliversItsActionAtOnceWithoutATask() async {
    await expectNoIssues {
      let store = TestStore(initialState: EffectsFeature.State()) { EffectsFeature() }
      await store.send(.sendAtOnce)
      // The action was already processed during `send`, and no effect is in flight; as in
      // TCA, `state` changes when the action is received.
      #expect(store.receivedActions.map(\.action) == [.logged("sent")])
      #expect(store.state.log == [])
      #expect(store.effectsInFlight.isEmpty)
      await store.receive(.logged("sent"), timeout: .zero) { $0.log = ["sent"] }
    }
  }

  // MARK: .run

  @Test func runSendsSeveralActionsInOrder() async {
    await expectNoIssues {
      let store = TestStore(initialState: EffectsFeature.State()) { EffectsFeature() }
      await store.send(.runSeveral)
      await store.receive(.logged("one")) { $0.log = ["one"] }
      await store.receive(.logged("two")) { $0.log = ["one", "two"] }
      await store.receive(.logged("three")) { $0.log = ["one", "two", "three"] }
    }
  }

  @Test func runWithCatchHandsTheErrorToTheHandler() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: EffectsFeature.State()) { EffectsFeature() }
      await store.send(.runThrowingWithCatch)
      await store.receive(.logged("caught offline")) { $0.log = ["caught offline"] }
    }
    #expect(issues == [])
  }

  @Test func runThatThrowsWithoutCatchReportsAnIssueAtTheLineThatCreatedIt() async {
    let runLine: UInt = #line + 4
    let issues = await collectIssues {
      let store = TestStore(initialState: 0) {
        Reduce<Int, ThrowingAction> { _, _ in
          .run { _ in throw EffectsFailure(message: "offline") }
        }
      }
      let task = await store.send(.go)
      await task.finish()
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            An "Effect.run" returned from "ReducerCoreTests/EffectTests.swift:\(runLine)" threw an \
            unhandled error.

                EffectsFailure(message: "offline")

            All non-cancellation errors must be explicitly handled via the "catch" parameter on \
            "Effect.run", or via a "do" block.
            """,
          line: runLine)
      ])
  }

  @Test func runThatThrowsCancellationErrorEndsQuietly() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: 0) {
        Reduce<Int, ThrowingAction> { _, _ in
          .run { _ in throw CancellationError() }
        }
      }
      let task = await store.send(.go)
      await task.finish()
    }
    #expect(issues == [])
  }

  // MARK: .merge

  @Test func mergeRunsSendFirstThenRunsInTheOrderGiven() async {
    await expectNoIssues {
      let store = TestStore(initialState: EffectsFeature.State()) { EffectsFeature() }
      await store.send(.mergeSendAndRuns)
      await store.receive(.logged("send")) { $0.log = ["send"] }
      await store.receive(.logged("run 1")) { $0.log = ["send", "run 1"] }
      await store.receive(.logged("run 2")) { $0.log = ["send", "run 1", "run 2"] }
    }
  }

  @Test func mergeRunsItsEffectsAtTheSameTime() async {
    await expectNoIssues {
      let clock = TestClock()
      let store = TestStore(initialState: EffectsFeature.State()) {
        EffectsFeature()
      } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.mergeSlowAndFast)
      #expect(store.effectsInFlight.count == 1)
      // Both sleeps started together: after one second the fast one is done, after two the slow one.
      await clock.advance(by: .seconds(1))
      await store.receive(.logged("fast")) { $0.log = ["fast"] }
      await clock.advance(by: .seconds(1))
      await store.receive(.logged("slow")) { $0.log = ["fast", "slow"] }
      #expect(store.effectsInFlight.isEmpty)
    }
  }

  // MARK: .concatenate

  @Test func concatenateStartsTheSecondEffectOnlyAfterTheFirstFinishes() async {
    await expectNoIssues {
      let clock = TestClock()
      let store = TestStore(initialState: EffectsFeature.State()) {
        EffectsFeature()
      } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.concatenateTwoSleeps)
      await clock.advance(by: .seconds(1))
      await store.receive(.logged("first")) { $0.log = ["first"] }
      // The second effect's one-second sleep started when the first finished, at t = 1s:
      // had both started at once, "second" would have arrived with "first".
      #expect(store.state.log == ["first"])
      await clock.advance(by: .milliseconds(999))
      #expect(store.state.log == ["first"])
      await clock.advance(by: .milliseconds(1))
      await store.receive(.logged("second")) { $0.log = ["first", "second"] }
      #expect(store.effectsInFlight.isEmpty)
    }
  }

  @Test func concatenateOfSendsDeliversThemInOrder() async {
    await expectNoIssues {
      let store = TestStore(initialState: 0) { PingPong.reducer }
      await store.send(.pongThenPing)
      await store.receive(.pong) { $0 = 1 }
      await store.receive(.ping)
      await store.receive(.pong) { $0 = 2 }
    }
  }

  // MARK: .cancellable, .cancel

  @Test func cancelStopsACancellableEffect() async {
    await expectNoIssues {
      let clock = TestClock()
      let store = TestStore(initialState: EffectsFeature.State()) {
        EffectsFeature()
      } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.startTimer)
      await clock.advance(by: .seconds(1))
      await store.receive(.logged("tick")) { $0.log = ["tick"] }
      await clock.advance(by: .seconds(1))
      await store.receive(.logged("tick")) { $0.log = ["tick", "tick"] }
      #expect(store.effectsInFlight.count == 1)
      await store.send(.stopTimer)
      #expect(store.effectsInFlight.isEmpty)
      await clock.advance(by: .seconds(5))
      #expect(store.state.log == ["tick", "tick"])
    }
  }

  @Test func cancelInFlightCancelsTheRunningEffectWhenASecondStarts() async {
    await expectNoIssues {
      let clock = TestClock()
      let store = TestStore(initialState: EffectsFeature.State()) {
        EffectsFeature()
      } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.startJob(1))
      await clock.advance(by: .milliseconds(500))
      await store.send(.startJob(2))
      #expect(store.effectsInFlight.count == 1)
      // t = 1s: job 1 would have finished now, had it not been cancelled.
      await clock.advance(by: .milliseconds(500))
      #expect(store.state.log == [])
      await clock.advance(by: .milliseconds(500))
      await store.receive(.logged("job 2")) { $0.log = ["job 2"] }
    }
  }

  @Test func noneMadeCancellableWithCancelInFlightCancelsTheRunningEffect() async {
    await expectNoIssues {
      let clock = TestClock()
      let store = TestStore(initialState: EffectsFeature.State()) {
        EffectsFeature()
      } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.startJob(1))
      #expect(store.effectsInFlight.count == 1)
      await store.send(.stopJobWithNone)
      #expect(store.effectsInFlight.isEmpty)
      await clock.advance(by: .seconds(2))
      #expect(store.state.log == [])
    }
  }

  // MARK: .debounce

  @Test func debounceSendsOnlyTheLastOfThreeQuickChanges() async {
    await expectNoIssues {
      let clock = TestClock()
      let store = TestStore(initialState: EffectsFeature.State()) {
        EffectsFeature()
      } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.textChanged("s")) { $0.query = "s" }
      await clock.advance(by: .milliseconds(100))
      await store.send(.textChanged("sw")) { $0.query = "sw" }
      await clock.advance(by: .milliseconds(100))
      await store.send(.textChanged("swi")) { $0.query = "swi" }
      #expect(store.effectsInFlight.count == 1)
      await clock.advance(by: .milliseconds(300))
      await store.receive(.search("swi")) { $0.log = ["search swi"] }
      #expect(store.effectsInFlight.isEmpty)
    }
  }

  @Test func debounceSendsNothingBeforeTheWindowHasPassed() async {
    await expectNoIssues {
      let clock = TestClock()
      let store = TestStore(initialState: EffectsFeature.State()) {
        EffectsFeature()
      } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.textChanged("swift")) { $0.query = "swift" }
      await clock.advance(by: .milliseconds(299))
      #expect(store.state.log == [])
      #expect(store.effectsInFlight.count == 1)
      await clock.advance(by: .milliseconds(1))
      await store.receive(.search("swift")) { $0.log = ["search swift"] }
    }
  }

  @Test func debounceWindowRestartsWithEachChange() async {
    await expectNoIssues {
      let clock = TestClock()
      let store = TestStore(initialState: EffectsFeature.State()) {
        EffectsFeature()
      } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.textChanged("s")) { $0.query = "s" }
      await clock.advance(by: .milliseconds(200))
      await store.send(.textChanged("sw")) { $0.query = "sw" }
      // 300ms after the first change, but only 100ms after the second: nothing yet.
      await clock.advance(by: .milliseconds(100))
      #expect(store.state.log == [])
      await clock.advance(by: .milliseconds(200))
      await store.receive(.search("sw")) { $0.log = ["search sw"] }
    }
  }

  // MARK: .map (through Scope)

  @Test func mapThroughScopeEmbedsEveryKindOfChildEffect() async {
    await expectNoIssues {
      let clock = TestClock()
      let store = TestStore(initialState: EffectsParent.State()) {
        EffectsParent()
      } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.child(.start)) { $0.childActionsSeen = 1 }
      // `.send` (mapped) arrives at once, then the `.run` (mapped).
      await store.receive(.child(.ready)) {
        $0.child.events = ["ready"]
        $0.childActionsSeen = 2
      }
      await store.receive(.child(.tick)) {
        $0.child.events = ["ready", "tick"]
        $0.childActionsSeen = 3
      }
      #expect(store.effectsInFlight.count == 1)
      // The mapped `.cancel(id:)` cancels the mapped `.cancellable` one.
      await store.send(.child(.stop)) { $0.childActionsSeen = 4 }
      #expect(store.effectsInFlight.isEmpty)
      await clock.advance(by: .seconds(60))
      #expect(store.state.child.events == ["ready", "tick"])
    }
  }

  // MARK: TestStoreTask

  @Test func testStoreTaskCancelStopsTheEffectsOfThatSend() async {
    await expectNoIssues {
      let clock = TestClock()
      let store = TestStore(initialState: EffectsFeature.State()) {
        EffectsFeature()
      } withDependencies: {
        $0.continuousClock = clock
      }
      let task = await store.send(.startTimer)
      #expect(!task.isCancelled)
      await task.cancel()
      #expect(task.isCancelled)
      #expect(store.effectsInFlight.isEmpty)
      await clock.advance(by: .seconds(3))
      #expect(store.state.log == [])
    }
  }

  @Test func testStoreTaskCancelLeavesOtherEffectsRunning() async {
    await expectNoIssues {
      let clock = TestClock()
      let store = TestStore(initialState: EffectsFeature.State()) {
        EffectsFeature()
      } withDependencies: {
        $0.continuousClock = clock
      }
      let timer = await store.send(.startTimer)
      await store.send(.startJob(1))
      #expect(store.effectsInFlight.count == 2)
      await timer.cancel()
      #expect(store.effectsInFlight.count == 1)
      await clock.advance(by: .seconds(1))
      await store.receive(.logged("job 1")) { $0.log = ["job 1"] }
    }
  }

  @Test func testStoreTaskFinishWaitsForTheEffect() async {
    await expectNoIssues {
      let gate = WorkGate()
      let store = TestStore(initialState: EffectsFeature.State()) { EffectsFeature() } withDependencies: {
        $0.workGate = gate
      }
      let task = await store.send(.work)
      #expect(store.state.log == [])
      #expect(store.effectsInFlight.count == 1)
      gate.open()
      await task.finish(timeout: .seconds(60))
      #expect(store.effectsInFlight.isEmpty)
      #expect(store.receivedActions.map(\.action) == [.logged("worked")])
      await store.receive(.logged("worked")) { $0.log = ["worked"] }
    }
  }

  @Test
  func testStoreTaskIsNotCancelledWhenItsEffectFinishesOnItsOwn() async {
    await expectNoIssues {
      let gate = WorkGate()
      let store = TestStore(initialState: EffectsFeature.State()) { EffectsFeature() } withDependencies: {
        $0.workGate = gate
      }
      let task = await store.send(.work)
      #expect(!task.isCancelled)
      gate.open()
      await task.finish(timeout: .seconds(60))
      #expect(!task.isCancelled)
      await store.receive(.logged("worked")) { $0.log = ["worked"] }
    }
  }

  @Test func storeFinishWaitsForEveryEffect() async {
    await expectNoIssues {
      let gate = WorkGate()
      let store = TestStore(initialState: EffectsFeature.State()) { EffectsFeature() } withDependencies: {
        $0.workGate = gate
      }
      await store.send(.work)
      #expect(store.effectsInFlight.count == 1)
      gate.open()
      await store.finish(timeout: .seconds(60))
      #expect(store.effectsInFlight.isEmpty)
      #expect(store.receivedActions.map(\.action) == [.logged("worked")])
      await store.receive(.logged("worked")) { $0.log = ["worked"] }
    }
  }

  // MARK: Skipping

  @Test func skipInFlightEffectsCancelsThemSoTheTestCanEnd() async {
    await expectNoIssues {
      let clock = TestClock()
      let store = TestStore(initialState: EffectsFeature.State()) {
        EffectsFeature()
      } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.startTimer)
      #expect(store.effectsInFlight.map(\.action) == ["EffectsFeature.Action.startTimer"])
      await store.skipInFlightEffects()
      #expect(store.effectsInFlight.isEmpty)
      await clock.advance(by: .seconds(2))
      #expect(store.state.log == [])
    }
  }

  @Test func skipReceivedActionsLetsTheNextSendGoAhead() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: EffectsFeature.State()) { EffectsFeature() }
      await store.send(.runSeveral)
      await store.skipReceivedActions()
      // The skipped actions still ran through the reducer.
      #expect(store.state.log == ["one", "two", "three"])
      await store.send(.sendAtOnce)
      await store.receive(.logged("sent")) { $0.log = ["one", "two", "three", "sent"] }
    }
    #expect(issues == [])
  }

  // MARK: Determinism

  @Test func fiftyMergedRunEffectsArriveInTheOrderTheyWereMergedEveryTime() async {
    await expectNoIssues {
      for _ in 0..<20 {
        let store = TestStore(initialState: [Int]()) { ManyEffects() }
        await store.send(.start(count: 50, yieldsFactor: 0))
        for index in 0..<50 {
          await store.receive(.value(index)) { $0.append(index) }
        }
        #expect(store.state == Array(0..<50))
      }
    }
  }

  @Test func fiftyMergedRunEffectsThatYieldArriveInTheSameOrderEveryTime() async {
    await expectNoIssues {
      var firstOrder: [Int]?
      for _ in 0..<20 {
        let store = TestStore(initialState: [Int]()) { ManyEffects() }
        await store.send(.start(count: 50, yieldsFactor: 7))
        // Waits for every effect without asserting the queue, which `finish` does when exhaustive.
        await store.withExhaustivity(.off) { await store.finish() }
        let order = store.receivedActions.compactMap { item -> Int? in
          guard case .value(let index) = item.action else { return nil }
          return index
        }
        #expect(order.sorted() == Array(0..<50))
        if let firstOrder {
          #expect(order == firstOrder)
        } else {
          firstOrder = order
        }
        var expected: [Int] = []
        for index in order {
          expected.append(index)
          await store.receive(.value(index)) { [expected] in $0 = expected }
        }
      }
      // The yields do reorder the effects (so the comparison above is not trivial).
      #expect(firstOrder != nil && firstOrder != Array(0..<50))
    }
  }

  // MARK: How long `send` lets effects run

  @Test func sendReturnsOnceAnEffectThatYieldsFortyTimesHasSentAndFinished() async {
    await expectNoIssues {
      let store = TestStore(initialState: 0) { YieldingEffect() }
      await store.send(.start(yields: 40))
      // A yield takes two turns of the main queue (its continuation, then the task): forty
      // are within the hundred turns that `send` waits.
      #expect(store.receivedActions.map(\.action) == [.done])
      #expect(store.effectsInFlight.isEmpty)
      await store.receive(.done) { $0 = 1 }
    }
  }

  @Test func sendReturnsAfterAHundredTurnsWhileAnEffectGoesOnYielding() async {
    await expectNoIssues {
      let store = TestStore(initialState: 0) { YieldingEffect() }
      let task = await store.send(.start(yields: 1_000))
      #expect(store.receivedActions.isEmpty)
      #expect(store.effectsInFlight.count == 1)
      // Waiting for the other 1,900 turns would take seconds under a sanitizer, with the
      // other tests' jobs on the same queue: the effect is cancelled instead.
      await task.cancel()
      #expect(store.effectsInFlight.isEmpty)
    }
  }
}

/// A step whose reducer returns `.none` starts nothing: the store skips describing the
/// action and listing effects, and the task it returns has nothing to wait for or cancel.
@MainActor
@Suite struct NoEffectStepTests {
  @Test func aStepWithoutEffectsReturnsAnIdleTask() async {
    await expectNoIssues {
      let store = TestStore(initialState: 0) { PingPong.reducer }
      let task = await store.send(.pong) { $0 = 1 }
      // As in TCA, a task with nothing to run counts as cancelled.
      #expect(task.isCancelled)
      await task.finish(timeout: .zero)
      await task.cancel()
      #expect(task.isCancelled)
      #expect(store.effectsInFlight.isEmpty)
      // An effect that sends at once still runs the reducer with the store's dependencies.
      await store.send(.ping)
      await store.receive(.pong) { $0 = 2 }
      #expect(store.effectsInFlight.isEmpty)
    }
  }
}
