import CasePaths
import Clocks
import ConcurrencyExtras
import Dependencies
import Foundation
import IdentifiedCollections
import ReducerCore
import TestSupport
import Testing

/// A feature whose effects cancel by identifier from inside their operations.
private struct Canceller: Reducer {
  struct State: Equatable, Identifiable {
    var id = 0
    var log: [String] = []
  }
  enum Action: Equatable {
    case cancelItself
    case startWork
    case workDone
    case cancelWork
    case cancelWorkFromEffect
    case startGuardedWork
    case startGuardedWorkAgain
    case guardedWorkDone(Int)
    case cancelGuardedWork
  }
  enum CancelID { case response, work, guarded }
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .cancelItself:
      return .run { send in
        Task.cancel(id: CancelID.response)
        try Task.checkCancellation()
        await send(.workDone)
      }
      .cancellable(id: CancelID.response)
    case .startWork:
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        await send(.workDone)
      }
      .cancellable(id: CancelID.work)
    case .workDone:
      state.log.append("done")
      return .none
    case .cancelWork:
      return .cancel(id: CancelID.work)
    case .cancelWorkFromEffect:
      return .run { _ in Task.cancel(id: CancelID.work) }
    case .startGuardedWork, .startGuardedWorkAgain:
      let run = action == .startGuardedWork ? 1 : 2
      return .run { [clock] send in
        try await withTaskCancellation(id: CancelID.guarded, cancelInFlight: true) {
          try await clock.sleep(for: .seconds(1))
        }
        await send(.guardedWorkDone(run))
      }
    case .guardedWorkDone(let run):
      state.log.append("guarded \(run)")
      return .none
    case .cancelGuardedWork:
      return .cancel(id: CancelID.guarded)
    }
  }
}

/// Two `Canceller`s in a list, and one of its own.
private struct CancellerList: Reducer {
  struct State: Equatable {
    var own = Canceller.State()
    var rows: IdentifiedArrayOf<Canceller.State> = []
  }
  @CasePathable
  enum Action: Equatable {
    case own(Canceller.Action)
    case rows(IdentifiedActionOf<Canceller>)
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.own, action: \.own) { Canceller() }
    Reduce { _, _ in .none }
      .forEach(\.rows, action: \.rows) { Canceller() }
  }
}

@MainActor
@Suite struct TaskCancellationTests {
  @Test func taskCancelInAnEffectCancelsTheEffectItself() async {
    let store = TestStore(initialState: Canceller.State()) { Canceller() } withDependencies: {
      $0.continuousClock = TestClock()
    }
    await store.send(.cancelItself)
  }

  @Test func taskCancelInAnEffectCancelsAnotherEffect() async {
    let clock = TestClock()
    let store = TestStore(initialState: Canceller.State()) { Canceller() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.startWork)
    await store.send(.cancelWorkFromEffect)
    await clock.advance(by: .seconds(2))
  }

  @Test func withTaskCancellationCancelsTheOperationInFlight() async {
    let clock = TestClock()
    let store = TestStore(initialState: Canceller.State()) { Canceller() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.startGuardedWork)
    await store.send(.startGuardedWorkAgain)
    // The first operation is cancelled and throws: its effect ends without sending.
    await clock.advance(by: .seconds(1))
    await store.receive(.guardedWorkDone(2)) { $0.log = ["guarded 2"] }
  }

  @Test func theCancelEffectCancelsAWithTaskCancellationOperation() async {
    let clock = TestClock()
    let store = TestStore(initialState: Canceller.State()) { Canceller() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.startGuardedWork)
    await store.send(.cancelGuardedWork)
    await clock.advance(by: .seconds(2))
  }

  @Test func taskCancelInAnElementConcernsThatElementOnly() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: CancellerList.State(rows: [Canceller.State(id: 1), Canceller.State(id: 2)])
    ) { CancellerList() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.own(.startWork))
    await store.send(.rows(.element(id: 1, action: .startWork)))
    await store.send(.rows(.element(id: 2, action: .startWork)))
    await store.send(.rows(.element(id: 1, action: .cancelWorkFromEffect)))
    await clock.advance(by: .seconds(1))
    await store.receive(.own(.workDone)) { $0.own.log = ["done"] }
    await store.receive(.rows(.element(id: 2, action: .workDone))) { $0.rows[id: 2]?.log = ["done"] }
  }

  @Test func withTaskCancellationOutsideAnEffect() async throws {
    let started = LockIsolated(false)
    let task = Task {
      try await withTaskCancellation(id: "outside") {
        started.setValue(true)
        try await Task.sleep(for: .seconds(60))
      }
    }
    while !started.value { await Task.yield() }
    Task.cancel(id: "outside")
    await #expect(throws: CancellationError.self) { try await task.value }
  }

  @Test func withTaskCancellationReturnsTheOperationsValue() async {
    let value = await withTaskCancellation(id: "value") { 42 }
    #expect(value == 42)
  }
}
