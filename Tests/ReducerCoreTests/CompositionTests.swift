import CasePaths
import Clocks
import ReducerCore
import TestSupport
import Testing

// MARK: - Fixtures (local to this file)

/// A counter child for a struct field.
private struct Tally: Reducer {
  struct State: Equatable {
    var count = 0
  }

  @CasePathable
  enum Action: Equatable {
    case increment
    case incrementLater
    case incremented
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .incrementLater:
      return .run { send in await send(.incremented) }
    case .incremented:
      state.count += 1
      return .none
    }
  }
}

private struct TallyParent: Reducer {
  struct State: Equatable {
    var tally = Tally.State()
    var parentCount = 0
  }

  @CasePathable
  enum Action: Equatable {
    case tally(Tally.Action)
    case parentIncrement
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.tally, action: \.tally) { Tally() }
    Reduce { state, action in
      switch action {
      case .tally:
        return .none
      case .parentIncrement:
        state.parentCount += 1
        return .none
      }
    }
  }
}

/// A login screen: `submit` marks the form submitted; the parent then moves on to `home`.
private struct Login: Reducer {
  struct State: Equatable {
    var email = ""
    var isSubmitted = false
  }

  @CasePathable
  enum Action: Equatable {
    case emailChanged(String)
    case submit
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .emailChanged(let email):
      state.email = email
      return .none
    case .submit:
      state.isSubmitted = true
      return .none
    }
  }
}

private struct Home: Reducer {
  struct State: Equatable {
    var email = ""
  }

  @CasePathable
  enum Action: Equatable {
    case logout
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    .none
  }
}

/// The parent of `Login` and `Home`, over an enum state.
private enum Session {
  @CasePathable
  enum State: Equatable {
    case login(Login.State)
    case home(Home.State)
  }

  @CasePathable
  enum Action: Equatable {
    case login(Login.Action)
    case home(Home.Action)
  }

  /// Moves between the cases. It sees the login state after the child handled `submit`: it
  /// moves on only when the form is submitted.
  static var core: Reduce<State, Action> {
    Reduce { state, action in
      switch action {
      case .login(.submit):
        if case .login(let login) = state, login.isSubmitted {
          state = .home(Home.State(email: login.email))
        }
        return .none
      case .home(.logout):
        state = .login(Login.State())
        return .none
      case .login, .home:
        return .none
      }
    }
  }

  /// With `Scope` over the cases, before the parent's logic.
  struct WithScopes: Reducer {
    var body: some Reducer<State, Action> {
      Scope(state: \.login, action: \.login) { Login() }
      Scope(state: \.home, action: \.home) { Home() }
      Session.core
    }
  }

  /// With `ifCaseLet`: the children run before the parent.
  struct WithIfCaseLet: Reducer {
    var body: some Reducer<State, Action> {
      Session.core
        .ifCaseLet(\.login, action: \.login) { Login() }
        .ifCaseLet(\.home, action: \.home) { Home() }
    }
  }
}

/// An enum state whose cases print on one line: `editing` has a child that counts.
private enum Mode {
  @CasePathable
  enum State: Equatable {
    case editing(Int)
    case viewing(Int)
  }

  @CasePathable
  enum Action: Equatable {
    case editing(Edit)
    case finish
  }

  enum Edit: Equatable {
    case bump
    case bumpLater
  }

  static var editor: Reduce<Int, Edit> {
    Reduce { count, _ in
      count += 1
      return .none
    }
  }

  /// `finish` moves from `editing` to `viewing`.
  static var switcher: Reduce<State, Action> {
    Reduce { state, action in
      if action == .finish, case .editing(let count) = state { state = .viewing(count) }
      return .none
    }
  }
}

private enum Step: Equatable {
  case go
  case done(String)
}

/// A body with `if`, `if`-`else`, `for` and `if #available`.
private struct Configurable: Reducer {
  typealias State = [String]
  typealias Action = Step

  var logs: Bool
  var useFirstBranch: Bool
  var steps: [String]

  var body: some Reducer<State, Action> {
    if logs {
      Reduce { state, action in
        if action == .go { state.append("log") }
        return .none
      }
    }
    if useFirstBranch {
      Reduce { state, action in
        if action == .go { state.append("if") }
        return .none
      }
    } else {
      Reduce { state, action in
        if action == .go { state.append("else") }
        return .none
      }
    }
    for step in steps {
      Reduce { state, action in
        guard action == .go else { return .none }
        state.append(step)
        return .send(.done(step))
      }
    }
    if #available(macOS 13, iOS 16, *) {
      Reduce { state, action in
        if action == .go { state.append("available") }
        return .none
      }
    }
  }
}

private struct NoBody: Reducer {
  typealias State = Int
  typealias Action = Step

  var body: some Reducer<State, Action> {}
}

/// A form with bindings.
private struct Profile: Reducer {
  struct State: Equatable {
    var name = ""
    var isSubscribed = false
    var greeting = ""
    var nameChanges = 0
  }

  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
    case clear

    var binding: BindingAction<State>? {
      if case .binding(let action) = self { return action }
      return nil
    }
  }

  var body: some Reducer<State, Action> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding(\.name):
        // Runs after BindingReducer: the new name is already in the state.
        state.greeting = "Hello, \(state.name)!"
        state.nameChanges += 1
        return .none
      case .binding:
        return .none
      case .clear:
        state = State()
        return .none
      }
    }
  }
}

/// Runs a test body with the issues it reports collected, and expects none.
///
/// The test target does not link IssueReportingTestSupport, so on Linux an issue that a
/// `TestStore` reports is only printed, and does not fail the test. Create the store inside
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
@Suite struct CompositionTests {
  // MARK: Scope over a struct field

  @Test func scopeOverAFieldRunsTheChildOnThatField() async {
    await expectNoIssues {
      let store = TestStore(initialState: TallyParent.State()) { TallyParent() }
      await store.send(.tally(.increment)) { $0.tally.count = 1 }
      await store.send(\.tally.increment) { $0.tally.count = 2 }
      // A parent action does not reach the child.
      await store.send(.parentIncrement) { $0.parentCount = 1 }
    }
  }

  @Test func scopeOverAFieldSendsTheChildEffectsActionsAsParentActions() async {
    await expectNoIssues {
      let store = TestStore(initialState: TallyParent.State()) { TallyParent() }
      await store.send(.tally(.incrementLater))
      await store.receive(.tally(.incremented)) { $0.tally.count = 1 }
      await store.send(.tally(.incrementLater))
      await store.receive(\.tally.incremented) { $0.tally.count = 2 }
    }
  }

  // MARK: Scope and ifCaseLet over an enum state

  @Test func scopeOverAnEnumCaseRunsTheChildWhileInThatCase() async {
    await expectNoIssues {
      let store = TestStore(initialState: Session.State.login(Login.State())) { Session.WithScopes() }
      await store.send(.login(.emailChanged("blob@example.com"))) {
        $0 = .login(Login.State(email: "blob@example.com"))
      }
      await store.send(.login(.submit)) {
        $0 = .home(Home.State(email: "blob@example.com"))
      }
      await store.send(.home(.logout)) {
        $0 = .login(Login.State())
      }
    }
  }

  @Test func ifCaseLetRunsTheChildBeforeTheParent() async {
    await expectNoIssues {
      let store = TestStore(initialState: Session.State.login(Login.State(email: "blob@example.com"))) {
        Session.WithIfCaseLet()
      }
      // The parent moves to `home` only if the child already set `isSubmitted`.
      await store.send(.login(.submit)) {
        $0 = .home(Home.State(email: "blob@example.com"))
      }
      await store.send(.home(.logout)) {
        $0 = .login(Login.State())
      }
    }
  }

  @Test func scopeReportsAChildActionThatArrivesInAnotherCase() async {
    let scopeLine: UInt = #line + 3
    let issues = await collectIssues {
      let store = TestStore<Mode.State, Mode.Action>(initialState: .viewing(3)) {
        Scope(state: \.editing, action: \.editing) { Mode.editor }
      }
      // ReportedIssue, and the state is left alone.
      await store.send(.editing(.bump))
      #expect(store.state == .viewing(3))
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            A "Scope" at "ReducerCoreTests/CompositionTests.swift:\(scopeLine)" received a child action when \
            child state was set to a different case.

              Action:
                Mode.Action.editing(.bump)
              State:
                Mode.State.viewing

            This is generally considered an application logic error, and can happen for a few \
            reasons:

            A parent reducer set "Mode.State" to a different case before the \
            scoped reducer ran. Child reducers must run before any parent reducer sets child state \
            to a different case. This ensures that child reducers can handle their actions while \
            their state is still available. Consider using "Reducer.ifCaseLet" to embed this \
            child reducer in the parent reducer that change its state to ensure the child reducer \
            runs first.

            An in-flight effect emitted this action when child state was unavailable. While it may \
            be perfectly reasonable to ignore this action, consider canceling the associated effect \
            before child state changes to another case, especially if it is a long-living effect.

            This action was sent to the store while state was another case. Make sure that actions \
            for this reducer can only be sent from a store when state is set to the appropriate \
            case. In SwiftUI applications, use "SwitchStore".
            """,
          line: scopeLine)
      ])
  }

  @Test func ifCaseLetReportsAChildActionThatArrivesInAnotherCase() async {
    let ifCaseLetLine: UInt = #line + 4
    let issues = await collectIssues {
      let store = TestStore<Mode.State, Mode.Action>(initialState: .editing(1)) {
        Mode.switcher
          .ifCaseLet(\.editing, action: \.editing) { Mode.editor }
      }
      await store.send(.editing(.bump)) { $0 = .editing(2) }
      await store.send(.finish) { $0 = .viewing(2) }
      // The child is not run; the parent still is (`finish` in `viewing` does nothing).
      await store.send(.editing(.bump))
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            An "ifCaseLet" at "ReducerCoreTests/CompositionTests.swift:\(ifCaseLetLine)" received a child \
            action when child state was set to a different case.

              Action:
                Mode.Action.editing(.bump)
              State:
                Mode.State.viewing(2)

            This is generally considered an application logic error, and can happen for a few reasons:

            A parent reducer set "Mode.State" to a different case before this \
            reducer ran. This reducer must run before any other reducer sets child state to a \
            different case. This ensures that child reducers can handle their actions while their \
            state is still available.

            An in-flight effect emitted this action when child state was unavailable. While it may \
            be perfectly reasonable to ignore this action, consider canceling the associated effect \
            before child state changes to another case, especially if it is a long-living effect.

            This action was sent to the store while state was another case. Make sure that actions \
            for this reducer can only be sent from a store when state is set to the appropriate \
            case. In SwiftUI applications, use "SwitchStore".
            """,
          line: ifCaseLetLine)
      ])
  }

  @Test
  func ifCaseLetCancelsTheChildsEffectsWhenTheStateLeavesTheCase() async {
    let clock = TestClock()
    await expectNoIssues {
      let store = TestStore<Mode.State, Mode.Action>(initialState: .editing(0)) {
        Mode.switcher
          .ifCaseLet(\.editing, action: \.editing) {
            Reduce<Int, Mode.Edit> { count, action in
              switch action {
              case .bump:
                count += 1
                return .none
              case .bumpLater:
                return .run { send in
                  try await clock.sleep(for: .seconds(1))
                  await send(.bump)
                }
              }
            }
          }
      }
      await store.send(.editing(.bumpLater))
      await store.send(.finish) { $0 = .viewing(0) }
      #expect(store.effectsInFlight.isEmpty)
      await clock.advance(by: .seconds(1))
      await store.skipReceivedActions(strict: false)
    }
  }

  @Test
  func scopeIssueNamesTheCasesOfTheStateAndTheAction() async {
    let scopeLine: UInt = #line + 3
    let issues = await collectIssues {
      let store = TestStore<Session.State, Session.Action>(initialState: .home(Home.State(email: "blob@example.com"))) {
        Scope(state: \.login, action: \.login) { Login() }
      }
      await store.send(.login(.emailChanged("x")))
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            A "Scope" at "ReducerCoreTests/CompositionTests.swift:\(scopeLine)" received a child action when \
            child state was set to a different case.

              Action:
                Session.Action.login(.emailChanged)
              State:
                Session.State.home

            This is generally considered an application logic error, and can happen for a few \
            reasons:

            A parent reducer set "Session.State" to a different case before the \
            scoped reducer ran. Child reducers must run before any parent reducer sets child state \
            to a different case. This ensures that child reducers can handle their actions while \
            their state is still available. Consider using "Reducer.ifCaseLet" to embed this \
            child reducer in the parent reducer that change its state to ensure the child reducer \
            runs first.

            An in-flight effect emitted this action when child state was unavailable. While it may \
            be perfectly reasonable to ignore this action, consider canceling the associated effect \
            before child state changes to another case, especially if it is a long-living effect.

            This action was sent to the store while state was another case. Make sure that actions \
            for this reducer can only be sent from a store when state is set to the appropriate \
            case. In SwiftUI applications, use "SwitchStore".
            """,
          line: scopeLine)
      ])
  }

  // MARK: CombineReducers

  @Test func combineReducersRunsItsReducersInOrderAndMergesTheirEffects() async {
    await expectNoIssues {
      let store = TestStore<Int, Step>(initialState: 1) {
        CombineReducers {
          Reduce<Int, Step> { state, action in
            guard action == .go else { return .none }
            state += 1
            return .send(.done("first"))
          }
          Reduce<Int, Step> { state, action in
            guard action == .go else { return .none }
            state *= 10
            return .send(.done("second"))
          }
        }
      }
      // (1 + 1) * 10, not 1 * 10 + 1.
      await store.send(.go) { $0 = 20 }
      await store.receive(.done("first"))
      await store.receive(.done("second"))
    }
  }

  // MARK: ReducerBuilder

  @Test func builderIncludesTheIfBranchAndEveryForIteration() async {
    await expectNoIssues {
      let store = TestStore(initialState: [String]()) {
        Configurable(logs: true, useFirstBranch: true, steps: ["a", "b"])
      }
      await store.send(.go) { $0 = ["log", "if", "a", "b", "available"] }
      await store.receive(.done("a"))
      await store.receive(.done("b"))
    }
  }

  @Test func builderSkipsAFalseIfAndTakesTheElseBranch() async {
    await expectNoIssues {
      let store = TestStore(initialState: [String]()) {
        Configurable(logs: false, useFirstBranch: false, steps: [])
      }
      await store.send(.go) { $0 = ["else", "available"] }
    }
  }

  @Test func anEmptyBodyDoesNothing() async {
    await expectNoIssues {
      let store = TestStore(initialState: 3) { NoBody() }
      await store.send(.go)
      #expect(store.state == 3)
      #expect(store.effectsInFlight.isEmpty)
    }
  }

  // MARK: BindingReducer

  @Test func bindingReducerSetsTheFieldBeforeTheReducersAfterIt() async {
    await expectNoIssues {
      let store = TestStore(initialState: Profile.State()) { Profile() }
      await store.send(.binding(.set(\.name, "Blob"))) {
        $0.name = "Blob"
        $0.greeting = "Hello, Blob!"
        $0.nameChanges = 1
      }
      await store.send(.set(\.isSubscribed, true)) {
        $0.isSubscribed = true
      }
      await store.send(.clear) { $0 = Profile.State() }
    }
  }

  @Test func bindingActionsCompareTheirFieldAndValue() {
    typealias Binding = BindingAction<Profile.State>
    #expect(Binding.set(\.name, "Blob") == .set(\.name, "Blob"))
    #expect(Binding.set(\.name, "Blob") != .set(\.name, "Blob Jr."))
    #expect(Binding.set(\.name, "Blob") != .set(\.greeting, "Blob"))
    #expect(Binding.set(\.name, "Blob").keyPath == \Profile.State.name)
    #expect(\Profile.State.name ~= Binding.set(\.name, "Blob"))
    #expect(!(\Profile.State.greeting ~= Binding.set(\.name, "Blob")))
  }

  @Test func bindingActionApplyChangesOnlyItsField() {
    var state = Profile.State(name: "Blob", isSubscribed: false, greeting: "hi", nameChanges: 3)
    BindingAction<Profile.State>.set(\.isSubscribed, true).apply(to: &state)
    #expect(state == Profile.State(name: "Blob", isSubscribed: true, greeting: "hi", nameChanges: 3))
  }

  // MARK: EmptyReducer

  @Test func emptyReducerChangesNothingAndStartsNothing() async {
    await expectNoIssues {
      let store = TestStore(initialState: 7) { EmptyReducer<Int, Step>() }
      await store.send(.go)
      #expect(store.state == 7)
      #expect(store.effectsInFlight.isEmpty)
    }
  }

  @Test func emptyReducerInABodyLeavesTheOthersAlone() async {
    await expectNoIssues {
      let store = TestStore<Int, Step>(initialState: 1) {
        CombineReducers {
          EmptyReducer()
          Reduce<Int, Step> { state, action in
            if action == .go { state += 1 }
            return .none
          }
          EmptyReducer()
        }
      }
      await store.send(.go) { $0 = 2 }
    }
  }
}
