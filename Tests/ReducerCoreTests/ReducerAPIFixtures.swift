import Foundation
import ReducerCore

// Features written as TCA's examples write them (what `@Reducer` expands to, spelled out), for
// ReducerAPITests.

/// 01-GettingStarted-Counter.
struct APICounter: Reducer {
  struct State: Equatable { var count = 0 }
  @CasePathable enum Action: Equatable { case decrementButtonTapped, incrementButtonTapped, startTimer, timerTicked }
  @Dependency(\.continuousClock) var clock
  private enum CancelID { case timer }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .decrementButtonTapped:
        state.count -= 1
        return .none
      case .incrementButtonTapped:
        state.count += 1
        return .none
      case .startTimer:
        return .run { send in
          for await _ in clock.timer(interval: .seconds(1)) {
            await send(.timerTicked, animation: .interpolatingSpring(stiffness: 3000, damping: 40))
          }
        }
        .cancellable(id: CancelID.timer, cancelInFlight: true)
      case .timerTicked:
        state.count += 1
        return .none
      }
    }
  }
}

/// 01-GettingStarted-OptionalState and 04-Navigation-NavigateAndLoad: an optional child.
struct OptionalBasics: Reducer {
  struct State: Equatable {
    var optionalCounter: APICounter.State?
  }
  @CasePathable enum Action: Equatable {
    case optionalCounter(APICounter.Action)
    case toggleCounterButtonTapped
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .toggleCounterButtonTapped:
        state.optionalCounter = state.optionalCounter == nil ? APICounter.State() : nil
        return .none
      case .optionalCounter(.incrementButtonTapped):
        // The child ran first: the parent sees its new count.
        if state.optionalCounter?.count == 3 { state.optionalCounter = nil }
        return .none
      case .optionalCounter:
        return .none
      }
    }
    .ifLet(\.optionalCounter, action: \.optionalCounter) {
      APICounter()
    }
  }
}

/// 04-Navigation-Lists-NavigateAndLoad: an `Identified` optional, its optional value scoped again.
struct NavigateAndLoadList: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Row> = []
    var selection: Identified<Row.ID, APICounter.State?>?

    struct Row: Equatable, Identifiable {
      var count: Int
      let id: UUID
    }
  }
  @CasePathable enum Action: Equatable {
    case counter(APICounter.Action)
    case setNavigation(selection: UUID?)
    case setNavigationSelectionDelayCompleted
  }
  @Dependency(\.continuousClock) var clock
  private enum CancelID { case load }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .counter:
        return .none
      case .setNavigation(selection: .some(let id)):
        state.selection = Identified(nil, id: id)
        return .run { send in
          try await self.clock.sleep(for: .seconds(1))
          await send(.setNavigationSelectionDelayCompleted)
        }
        .cancellable(id: CancelID.load, cancelInFlight: true)
      case .setNavigation(selection: .none):
        if let selection = state.selection, let count = selection.value?.count {
          state.rows[id: selection.id]?.count = count
        }
        state.selection = nil
        return .cancel(id: CancelID.load)
      case .setNavigationSelectionDelayCompleted:
        guard let id = state.selection?.id else { return .none }
        let count = state.rows[id: id]?.count ?? 0
        state.selection?.value = APICounter.State(count: count)
        return .none
      }
    }
    .ifLet(\.selection, action: \.counter) {
      EmptyReducer()
        .ifLet(\.value, action: \.self) {
          APICounter()
        }
    }
  }
}

/// An optional alert without `@Presents`, as 02-SharedState-Onboarding's `TopicsFeature` has
/// after the `@Presents` macro: `.ifLet(\.alert, action: \.alert)`.
struct Topics: Reducer {
  struct State: Equatable {
    var alert: AlertState<Action.Alert>?
    var topics: [String] = []
  }
  @CasePathable enum Action: Equatable {
    case alert(PresentationAction<Alert>)
    case doneButtonTapped
    @CasePathable enum Alert: Equatable { case retry }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .alert:
        return .none
      case .doneButtonTapped:
        state.alert = AlertState {
          TextState("Please choose at least one topic.")
        } actions: {
          ButtonState(action: .send(.retry, animation: .default)) { TextState("Retry") }
          ButtonState(role: .cancel) { TextState("Cancel") }
        }
        return .none
      }
    }
    .ifLet(\.alert, action: \.alert)
  }
}

/// 05-HigherOrderReducers-Recursion: `forEach` with the reducer itself.
struct Nested: Reducer {
  struct State: Equatable, Identifiable {
    let id: Int
    var name = ""
    var rows: IdentifiedArrayOf<State> = []
  }
  @CasePathable enum Action: Equatable {
    case addRowButtonTapped
    case nameTextFieldChanged(String)
    indirect case rows(IdentifiedActionOf<Nested>)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .addRowButtonTapped:
        state.rows.append(State(id: state.id * 10 + state.rows.count + 1))
        return .none
      case .nameTextFieldChanged(let name):
        state.name = name
        return .none
      case .rows:
        return .none
      }
    }
    .forEach(\.rows, action: \.rows) {
      Self()
    }
  }
}

/// 04-NavigationStack with the path reducer written by hand: its state is an enum that is
/// `@CasePathable @dynamicMemberLookup`, as `@Reducer` makes it, scoped with `Scope`.
struct NavigationDemo: Reducer {
  struct Path: Reducer {
    @CasePathable @dynamicMemberLookup enum State: Equatable {
      case screenA(APICounter.State)
      case screenB(APICounter.State)
    }
    @CasePathable enum Action: Equatable {
      case screenA(APICounter.Action)
      case screenB(APICounter.Action)
    }
    var body: some Reducer<State, Action> {
      Scope(state: \.screenA, action: \.screenA) { APICounter() }
      Scope(state: \.screenB, action: \.screenB) { APICounter() }
    }
  }

  struct State: Equatable {
    var path = StackState<Path.State>()
  }
  @CasePathable enum Action: Equatable {
    case goToABButtonTapped
    case path(StackActionOf<Path>)
    case popToRoot
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .goToABButtonTapped:
        state.path.append(.screenA(APICounter.State()))
        state.path.append(.screenB(APICounter.State()))
        return .none
      case .path(.element(id: _, action: .screenB(.decrementButtonTapped))):
        state.path.append(.screenA(APICounter.State(count: 100)))
        return .none
      case .path:
        return .none
      case .popToRoot:
        state.path.removeAll()
        return .none
      }
    }
    .forEach(\.path, action: \.path) {
      Path()
    }
  }
}

/// A dependency whose key is its own type, for `.dependency(_:)`.
struct Greeting: TestDependencyKey, Equatable, Sendable {
  var text: String
  static let testValue = Greeting(text: "test")
}

extension DependencyValues {
  var greeting: Greeting {
    get { self[Greeting.self] }
    set { self[Greeting.self] = newValue }
  }
}

/// Reads its dependencies in the reducer and in an effect.
struct Greeter: Reducer {
  struct State: Equatable {
    var greeting = ""
    var fromEffect = ""
  }
  @CasePathable enum Action: Equatable {
    case greet
    case greeted(String)
  }
  @Dependency(\.greeting) var greeting

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .greet:
      state.greeting = greeting.text
      return .run { send in
        @Dependency(\.greeting) var greeting
        await send(.greeted(greeting.text))
      }
    case .greeted(let text):
      state.fromEffect = text
      return .none
    }
  }
}

/// Debounced and throttled searches, with the clock as `@Dependency(\.continuousClock)` gives it.
struct Search: Reducer {
  struct State: Equatable {
    var query = ""
    var searches: [String] = []
  }
  @CasePathable enum Action: Equatable {
    case queryChanged(String)
    case throttledQueryChanged(String, latest: Bool)
    case search(String)
  }
  @Dependency(\.continuousClock) var clock
  private enum CancelID { case search, throttle }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .queryChanged(let query):
      state.query = query
      return .send(.search(query))
        .debounce(id: CancelID.search, for: .seconds(1), clock: clock)
    case .throttledQueryChanged(let query, let latest):
      state.query = query
      return .send(.search(query))
        .throttle(id: CancelID.throttle, for: .seconds(1), clock: clock, latest: latest)
    case .search(let query):
      state.searches.append(query)
      return .none
    }
  }
}

/// A login feature whose action is a `ViewAction`, as TicTacToe's `Login`.
struct ViewActionLogin: Reducer {
  struct State: Equatable { var isLoggingIn = false }
  @CasePathable enum Action: Equatable, ViewAction {
    case loginResponse(Bool)
    case view(View)
    @CasePathable enum View: Equatable { case loginButtonTapped }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .view(.loginButtonTapped):
      state.isLoggingIn = true
      return .send(.loginResponse(true), animation: .default)
    case .loginResponse:
      state.isLoggingIn = false
      return .none
    }
  }
}
