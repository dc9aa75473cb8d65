import CasePaths
import CustomDump
import Dependencies
import Foundation
import ReducerCore
import TestSupport
import Testing

/// A feature whose alert's "Retry" button presents a new alert, and whose destination is an
/// alert or a counter.
private struct Retrying: Reducer {
  struct State: Equatable {
    @PresentationState var alert: ReducerCore.AlertState<Action.Alert>?
    @PresentationState var destination: Destination.State?
    var attempts = 0
  }
  @CasePathable
  enum Action: Equatable {
    case alert(PresentationAction<Alert>)
    case destination(PresentationAction<Destination.Action>)
    case failed
    case showDestinationAlert
    enum Alert: Equatable { case retry, cancel }
  }

  @CasePathable
  enum Destination {
    @CasePathable
    enum State: Equatable {
      case alert(ReducerCore.AlertState<Retrying.Action.Alert>)
      case counter(Int)
    }
    @CasePathable
    enum Action: Equatable {
      case alert(Retrying.Action.Alert)
      case counter(Int)
    }
  }

  static func failure(_ attempts: Int) -> ReducerCore.AlertState<Action.Alert> {
    AlertState(
      title: "Attempt \(attempts) failed",
      buttons: [ButtonState(label: "Retry", action: .retry), ButtonState(label: "Cancel", role: .cancel, action: .cancel)])
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .failed, .alert(.presented(.retry)):
        state.attempts += 1
        state.alert = Self.failure(state.attempts)
      case .showDestinationAlert, .destination(.presented(.alert(.retry))):
        state.attempts += 1
        state.destination = .alert(Self.failure(state.attempts))
      case .alert, .destination:
        break
      }
      return .none
    }
    .ifLet(\.$alert, action: \.alert)
    .ifLet(\.$destination, action: \.destination) {
      Scope(state: \.counter, action: \.counter) { Reduce { state, action in state += action; return .none } }
    }
  }
}

/// A feature that presents a timer and can cancel the timer's effect from the parent, or
/// dismiss it from a reducer outside `ifLet` (before or after it).
private struct TimerHost: Reducer {
  struct State: Equatable {
    @PresentationState var timer: Timer.State?
    var timers = StackState<Timer.State>()
  }
  @CasePathable
  enum Action: Equatable {
    case timer(PresentationAction<Timer.Action>)
    case timers(StackAction<Timer.State, Timer.Action>)
    case stopFromParent
    case dismissBefore
    case dismissAfter
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if action == .dismissBefore {
        state.timer = nil
        state.timers.removeAll()
      }
      return action == .stopFromParent ? .cancel(id: Timer.CancelID.ticking) : .none
    }
    .ifLet(\.$timer, action: \.timer) { Timer() }
    .forEach(\.timers, action: \.timers) { Timer() }
    Reduce { state, action in
      if action == .dismissAfter {
        state.timer = nil
        state.timers.removeAll()
      }
      return .none
    }
  }

  struct Timer: Reducer {
    struct State: Equatable {}
    enum Action: Equatable { case start, stop }
    enum CancelID { case ticking }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .start: return .run { _ in try await Task.never() }.cancellable(id: CancelID.ticking)
      case .stop: return .cancel(id: CancelID.ticking)
      }
    }
  }
}

/// A stack of counters.
private struct Counters: Reducer {
  struct State: Equatable {
    var path = StackState<Int>()
  }
  @CasePathable
  enum Action: Equatable {
    case path(StackAction<Int, Int>)
  }

  var body: some Reducer<State, Action> {
    Reduce { _, _ in .none }
      .forEach(\.path, action: \.path) { Reduce { state, action in state += action; return .none } }
  }
}

@MainActor
@Suite struct PresentationBehaviourTests {
  @Test func anActionForAMissingStackElement() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: Counters.State()) { Counters() }
      await store.send(.path(.element(id: 3, action: 1)))
    }
    #expect(
      issues.map(\.message) == [
        """
        A "forEach" at "ReducerCoreTests/PresentationBehaviourTests.swift:127" received an action for a missing element.

          Action:
            Int

        This is generally considered an application logic error, and can happen for a few reasons:

        A parent reducer removed an element with this ID before this reducer ran. This reducer \
        must run before any other reducer removes an element, which ensures that element \
        reducers can handle their actions while their state is still available.

        An in-flight effect emitted this action when state contained no element at this ID. \
        While it may be perfectly reasonable to ignore this action, consider canceling the \
        associated effect before an element is removed, especially if it is a long-living effect.

        This action was sent to the store while its state contained no element at this ID. To \
        fix this make sure that actions for this reducer can only be sent from a store when \
        its state contains an element at this id. In SwiftUI applications, use \
        "NavigationStack.init(path:)" with a binding to a store.
        """
      ])
  }

  @Test func anAlertReplacedFromItsOwnButtonStaysPresented() async {
    let store = TestStore(initialState: Retrying.State()) { Retrying() }
    await store.send(.failed) {
      $0.attempts = 1
      $0.alert = Retrying.failure(1)
    }
    await store.send(.alert(.presented(.retry))) {
      $0.attempts = 2
      $0.alert = Retrying.failure(2)
    }
    await store.send(.alert(.presented(.cancel))) { $0.alert = nil }
  }

  @Test func anAlertReplacedByAnEqualOneStaysPresented() async {
    let store = TestStore(initialState: Retrying.State(attempts: 1)) { Retrying() }
    await store.send(.failed) {
      $0.attempts = 2
      $0.alert = Retrying.failure(2)
    }
    // The new alert has the same content as the one it replaces, and is another alert.
    store.exhaustivity = .off
    await store.send(.alert(.presented(.retry)))
    store.exhaustivity = .on
    #expect(store.state.alert == Retrying.failure(3))
  }

  @Test func anAlertInADestinationReplacedFromItsOwnButtonStaysPresented() async {
    let store = TestStore(initialState: Retrying.State()) { Retrying() }
    await store.send(.showDestinationAlert) {
      $0.attempts = 1
      $0.destination = .alert(Retrying.failure(1))
    }
    await store.send(.destination(.presented(.alert(.retry)))) {
      $0.attempts = 2
      $0.destination = .alert(Retrying.failure(2))
    }
    await store.send(.destination(.presented(.alert(.cancel)))) { $0.destination = nil }
  }

  @Test func alertsAreEqualByTheirContent() {
    let first = Retrying.failure(1)
    let second = Retrying.failure(1)
    #expect(first == second)
    #expect(first.id != second.id)
    #expect(first.map { $0 }.id == first.id)
    var dump = ""
    customDump(first, to: &dump)
    #expect(
      dump == """
        AlertState(
          title: "Attempt 1 failed",
          message: nil,
          buttons: [
            [0]: ButtonState(
              label: "Retry",
              role: nil,
              action: .retry
            ),
            [1]: ButtonState(
              label: "Cancel",
              role: .cancel,
              action: .cancel
            )
          ]
        )
        """)
  }

  @Test func aParentCancelsItsChildrensEffectsByTheirIdentifier() async {
    let store = TestStore(initialState: TimerHost.State(timer: TimerHost.Timer.State())) { TimerHost() }
    await store.send(.timer(.presented(.start)))
    await store.send(.timers(.push(id: 0, state: TimerHost.Timer.State()))) { $0.timers[id: 0] = TimerHost.Timer.State() }
    await store.send(.timers(.element(id: 0, action: .start)))
    #expect(store.effectsInFlight.count == 2)
    await store.send(.stopFromParent)
    #expect(store.effectsInFlight.isEmpty)
  }

  @Test func aChildCannotCancelItsSiblingsEffects() async {
    let store = TestStore(initialState: TimerHost.State(timer: TimerHost.Timer.State())) { TimerHost() }
    await store.send(.timer(.presented(.start)))
    await store.send(.timers(.push(id: 0, state: TimerHost.Timer.State()))) { $0.timers[id: 0] = TimerHost.Timer.State() }
    await store.send(.timers(.element(id: 0, action: .stop)))
    #expect(store.effectsInFlight.count == 1)
    await store.send(.timer(.presented(.stop)))
    #expect(store.effectsInFlight.isEmpty)
  }

  @Test func aChildDismissedBeforeIfLetRunsHasItsEffectsCancelled() async {
    let store = TestStore(initialState: TimerHost.State(timer: TimerHost.Timer.State())) { TimerHost() }
    await store.send(.timer(.presented(.start)))
    await store.send(.timers(.push(id: 0, state: TimerHost.Timer.State()))) { $0.timers[id: 0] = TimerHost.Timer.State() }
    await store.send(.timers(.element(id: 0, action: .start)))
    await store.send(.dismissBefore) {
      $0.timer = nil
      $0.timers = StackState()
    }
    #expect(store.effectsInFlight.isEmpty)
  }

  @Test func aChildDismissedAfterIfLetRanHasItsEffectsCancelledByTheNextAction() async {
    let store = TestStore(initialState: TimerHost.State(timer: TimerHost.Timer.State())) { TimerHost() }
    await store.send(.timer(.presented(.start)))
    await store.send(.timers(.push(id: 0, state: TimerHost.Timer.State()))) { $0.timers[id: 0] = TimerHost.Timer.State() }
    await store.send(.timers(.element(id: 0, action: .start)))
    await store.send(.dismissAfter) {
      $0.timer = nil
      $0.timers = StackState()
    }
    #expect(store.effectsInFlight.count == 2)
    await store.send(.dismissAfter)
    #expect(store.effectsInFlight.isEmpty)
  }

  @Test func anAlertInADestinationStaysForAnActionOfAnotherCase() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: Retrying.State(destination: .alert(Retrying.failure(1)))) { Retrying() }
      await store.send(.destination(.presented(.counter(1))))
      #expect(store.state.destination == .alert(Retrying.failure(1)))
    }
    #expect(issues.count == 1)
  }

  @Test func anIssueNamesALocalTypeWithoutItsUnnamedContext() async {
    struct Local: Reducer {
      struct State: Equatable { @PresentationState var child: Int? }
      enum Action: Equatable { case child(PresentationAction<Int>) }
      @available(*, deprecated)
      var body: some Reducer<State, Action> {
        EmptyReducer().ifLet(\.$child, action: /Action.child) { EmptyReducer() }
      }
    }
    let issues = await collectIssues {
      let store = TestStore(initialState: Local.State()) { Local() }
      await store.send(.child(.dismiss))
    }
    #expect(
      issues.first?.message.split(separator: "\n").dropFirst(2).first
        == "    PresentationBehaviourTests.Local.Action.child(.dismiss)")
  }
}
