import CasePaths
import Clocks
import Dependencies
import Foundation
import IdentifiedCollections
import ReducerCore
import TestSupport
import Testing

// The deprecated case-path (`/Action.child`) forms of the navigation operators and of
// `TestStore.receive`, and the case subscripts of `PresentationState` and `StackState`.

/// A counter whose `.startTimer` ticks every second until cancelled, cancellable by `TimerID`.
private struct Ticker: Reducer {
  struct State: Equatable, Identifiable {
    var id = 0
    var ticks = 0
  }
  enum Action: Equatable {
    case startTimer
    case tick
    case stopTimer
    case close
  }
  enum TimerID { case timer }
  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .startTimer:
      return .run { send in
        for await _ in clock.timer(interval: .seconds(1)) { await send(.tick) }
      }
      .cancellable(id: TimerID.timer)
    case .tick:
      state.ticks += 1
      return .none
    case .stopTimer:
      return .cancel(id: TimerID.timer)
    case .close:
      return .run { _ in await dismiss() }
    }
  }
}

private struct OptionalParent: Reducer {
  struct State: Equatable {
    var child: Ticker.State?
    @PresentationState var sheet: Ticker.State?
    @PresentationState var alert: ReducerCore.AlertState<Action.Alert>?
  }
  enum Action: Equatable {
    case child(Ticker.Action)
    case sheet(PresentationAction<Ticker.Action>)
    case alert(PresentationAction<Alert>)
    case showChild
    case hideChild
    case showSheet
    case showAlert
    enum Alert: Equatable { case again, done }
  }

  @available(*, deprecated)
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .showChild:
        state.child = Ticker.State()
      case .hideChild:
        state.child = nil
      case .showSheet:
        state.sheet = Ticker.State()
      case .showAlert, .alert(.presented(.again)):
        state.alert = AlertState(
          title: "Again?", buttons: [ButtonState(label: "Again", action: .again), ButtonState(label: "Done", action: .done)])
      case .child, .sheet, .alert:
        break
      }
      return .none
    }
    .ifLet(\.child, action: /Action.child) { Ticker() }
    .ifLet(\.$sheet, action: /Action.sheet) { Ticker() }
    .ifLet(\.$alert, action: /Action.alert)
  }
}

private struct ListParent: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Ticker.State> = []
    var path = StackState<Ticker.State>()
  }
  enum Action: Equatable {
    case row(id: Int, action: Ticker.Action)
    case path(StackAction<Ticker.State, Ticker.Action>)
    case removeRow(Int)
  }

  @available(*, deprecated)
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .removeRow(let id) = action { state.rows.remove(id: id) }
      return .none
    }
    .forEach(\.rows, action: /Action.row(id:action:)) { Ticker() }
    .forEach(\.path, action: /Action.path) { Ticker() }
  }
}

private struct CaseParent: Reducer {
  enum State: Equatable {
    case first(Ticker.State)
    case second(Ticker.State)
  }
  enum Action: Equatable {
    case first(Ticker.Action)
    case second(Ticker.Action)
    case showSecond
  }

  @available(*, deprecated)
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .showSecond = action { state = .second(Ticker.State()) }
      return .none
    }
    .ifCaseLet(/State.first, action: /Action.first) { Ticker() }
    .ifCaseLet(/State.second, action: /Action.second) { Ticker() }
  }
}

private struct ScopeParent: Reducer {
  struct State: Equatable {
    var ticker = Ticker.State()
    var mode = Mode.counting(Ticker.State())
  }
  enum Mode: Equatable {
    case counting(Ticker.State)
    case idle
  }
  enum Action: Equatable {
    case ticker(Ticker.Action)
    case mode(Ticker.Action)
  }

  @available(*, deprecated)
  var body: some Reducer<State, Action> {
    Scope(state: \.ticker, action: /Action.ticker) { Ticker() }
    Scope(state: \.mode, action: /Action.mode) {
      Scope(state: /Mode.counting, action: AnyCasePath(embed: { $0 }, extract: { $0 })) { Ticker() }
    }
  }
}

@MainActor
@Suite struct CasePathNavigationTests {
  @Test func ifLetWithACasePathRunsTheChildAndCancelsItsEffectsWhenItGoesAway() async {
    let clock = TestClock()
    let store = TestStore(initialState: OptionalParent.State()) { OptionalParent() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.showChild) { $0.child = Ticker.State() }
    await store.send(.child(.startTimer))
    await clock.advance(by: .seconds(1))
    await store.receive(.child(.tick)) { $0.child?.ticks = 1 }
    await store.send(.hideChild) { $0.child = nil }
    await clock.advance(by: .seconds(5))
  }

  @Test func ifLetOnAPresentationWithACasePathDismissesTheChild() async {
    let clock = TestClock()
    let store = TestStore(initialState: OptionalParent.State()) { OptionalParent() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.showSheet) { $0.sheet = Ticker.State() }
    await store.send(.sheet(.presented(.startTimer)))
    await clock.advance(by: .seconds(1))
    await store.receive(.sheet(.presented(.tick))) { $0.sheet?.ticks = 1 }
    await store.send(.sheet(.presented(.close)))
    await store.receive(.sheet(.dismiss)) { $0.sheet = nil }
  }

  @Test func anAlertPresentedAgainFromItsOwnButtonStaysPresented() async {
    let store = TestStore(initialState: OptionalParent.State()) { OptionalParent() }
    let again = ReducerCore.AlertState<OptionalParent.Action.Alert>(
      title: "Again?", buttons: [ButtonState(label: "Again", action: .again), ButtonState(label: "Done", action: .done)])
    await store.send(.showAlert) { $0.alert = again }
    // The new alert equals the one it replaces (alerts compare by content), and stays.
    await store.send(.alert(.presented(.again)))
    #expect(store.state.alert == again)
    await store.send(.alert(.presented(.done))) { $0.alert = nil }
  }

  @Test func forEachWithACasePathRunsTheRowAndCancelsARemovedRowsEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: ListParent.State(rows: [Ticker.State(id: 1)])) { ListParent() }
    withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.row(id: 1, action: .startTimer))
    await clock.advance(by: .seconds(1))
    await store.receive(.row(id: 1, action: .tick)) { $0.rows[id: 1]?.ticks = 1 }
    await store.send(.removeRow(1)) { $0.rows = [] }
    await clock.advance(by: .seconds(5))
  }

  @Test func forEachOnAStackWithACasePathPushesRunsAndPops() async {
    let clock = TestClock()
    let store = TestStore(initialState: ListParent.State()) { ListParent() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.path(.push(id: 0, state: Ticker.State()))) { $0.path[id: 0] = Ticker.State() }
    await store.send(.path(.element(id: 0, action: .startTimer)))
    await clock.advance(by: .seconds(1))
    await store.receive(.path(.element(id: 0, action: .tick))) { $0.path[id: 0]?.ticks = 1 }
    await store.send(.path(.element(id: 0, action: .close)))
    await store.receive(.path(.popFrom(id: 0))) { $0.path = StackState() }
  }

  @Test func ifCaseLetWithCasePathsCancelsTheEffectsOfTheCaseLeft() async {
    let clock = TestClock()
    let store = TestStore(initialState: CaseParent.State.first(Ticker.State())) { CaseParent() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.first(.startTimer))
    await clock.advance(by: .seconds(1))
    await store.receive(.first(.tick)) { $0 = .first(Ticker.State(ticks: 1)) }
    await store.send(.showSecond) { $0 = .second(Ticker.State()) }
    await clock.advance(by: .seconds(5))
  }

  @Test func scopeWithCasePaths() async {
    let store = TestStore(initialState: ScopeParent.State()) { ScopeParent() }
    await store.send(.ticker(.tick)) { $0.ticker.ticks = 1 }
    await store.send(.mode(.tick)) { $0.mode = .counting(Ticker.State(ticks: 1)) }
  }

  @Test func receiveWithACasePath() async {
    let store = TestStore(initialState: OptionalParent.State(child: Ticker.State())) { OptionalParent() }
    withDependencies: {
      $0.continuousClock = ImmediateClock()
    }
    await store.send(.child(.startTimer))
    await store.receive(/OptionalParent.Action.child) { $0.child?.ticks = 1 }
    await store.send(.child(.stopTimer))
  }

  @Test func receiveWithACasePathOfAnotherCase() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: OptionalParent.State(child: Ticker.State())) { OptionalParent() }
      withDependencies: {
        $0.continuousClock = ImmediateClock()
      }
      await store.send(.child(.startTimer))
      await store.receive(/OptionalParent.Action.sheet) { $0.child?.ticks = 1 }
      await store.send(.child(.stopTimer))
    }
    #expect(
      issues.map(\.message) == [
        """
        Received unexpected action:

          OptionalParent.Action.child(.tick)
        """
      ])
  }
}

@CasePathable
private enum Child: Equatable {
  case int(Int)
  case text(String)
  case none
}

@MainActor
@Suite struct CaseSubscriptTests {
  @Test func presentationStateCaseModifiesAndDismisses() {
    var child = PresentationState<Child>(wrappedValue: .int(42))
    child[case: /Child.int]? += 1
    #expect(child.wrappedValue == .int(43))
    child[case: /Child.int] = nil
    #expect(child.wrappedValue == nil)
  }

  @Test func presentationStateOtherCaseIsReported() async {
    var child = PresentationState<Child>(wrappedValue: .int(42))
    let issues = await collectIssues {
      child[case: /Child.text]?.append("!")
      child[case: /Child.text] = nil
    }
    #expect(issues.map(\.message) == [#"Can't modify unrelated case "int""#, #"Can't modify unrelated case "int""#])
    #expect(child.wrappedValue == .int(42))
  }

  @Test func presentationStateCaseWhenNothingOrACaseWithoutValueIsPresented() async {
    var absent = PresentationState<Child>(wrappedValue: nil)
    var none = PresentationState<Child>(wrappedValue: Child.none)
    let issues = await collectIssues {
      absent[case: /Child.int] = 1
      none[case: /Child.int] = 1
    }
    #expect(issues.map(\.message) == [#"Can't modify unrelated case"#, #"Can't modify unrelated case "none""#])
    #expect(absent.wrappedValue == nil)
    #expect(none.wrappedValue == Child.none)
  }

  @Test func caseKeyPathSubscriptsReportAnUnrelatedCase() async {
    var child = PresentationState<Child>(wrappedValue: .int(42))
    var path = withDependencies { $0.stackElementID = .incrementing } operation: {
      StackState<Child>([.text("a")])
    }
    let issues = await collectIssues {
      child[case: \.text]?.append("!")
      path[id: 0, case: \.int]? += 1
    }
    #expect(issues.map(\.message) == [#"Can't modify unrelated case "int""#, #"Can't modify unrelated case "text""#])
    child[case: \.int]? += 1
    path[id: 0, case: \.text]?.append("!")
    #expect(child.wrappedValue == .int(43))
    #expect(Array(path) == [.text("a!")])
    child[case: \.int] = nil
    #expect(child.wrappedValue == nil)
  }

  @Test func stackStateCaseModifiesAndRemoves() {
    var path = withDependencies { $0.stackElementID = .incrementing } operation: {
      StackState<Child>([.int(1), .text("a")])
    }
    path[id: 0, case: /Child.int]? += 1
    #expect(path[id: 0] == .int(2))
    path[id: 1, case: /Child.text] = nil
    #expect(Array(path) == [.int(2)])
  }

  @Test func stackStateOtherCaseIsReported() async {
    var path = withDependencies { $0.stackElementID = .incrementing } operation: {
      StackState<Child>([.int(1)])
    }
    let issues = await collectIssues {
      path[id: 0, case: /Child.text]?.append("!")
    }
    #expect(issues.map(\.message) == [#"Can't modify unrelated case "int""#])
    #expect(Array(path) == [.int(1)])
  }
}
