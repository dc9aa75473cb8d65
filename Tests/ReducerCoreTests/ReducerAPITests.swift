import Clocks
import ConcurrencyExtras
import CustomDump
import Dependencies
import Dispatch
import Foundation
import ReducerCore
import TestSupport
import Testing

/// TCA's reducer API that its example features use: `ifLet` on a plain optional, `forEach` on
/// stacks and identified arrays, enum states scoped with `Scope`, alert buttons with
/// `.send(_:animation:)`, `debounce` and `throttle` with `any Clock<Duration>`, dependency
/// modifiers, animations, `_printChanges`, and the smaller pieces.
@MainActor
@Suite struct ReducerAPITests {
  // MARK: ifLet on an optional

  @Test func ifLetRunsTheChildFirstWhileTheStateIsThere() async {
    await expectNoIssues {
      let store = TestStore(initialState: OptionalBasics.State()) { OptionalBasics() }
      await store.send(.toggleCounterButtonTapped) { $0.optionalCounter = APICounter.State() }
      await store.send(\.optionalCounter.incrementButtonTapped) { $0.optionalCounter?.count = 1 }
      await store.send(\.optionalCounter.incrementButtonTapped) { $0.optionalCounter?.count = 2 }
      // The parent sees the child's count of 3, and sets the child to nil.
      await store.send(\.optionalCounter.incrementButtonTapped) { $0.optionalCounter = nil }
      await store.send(.toggleCounterButtonTapped) { $0.optionalCounter = APICounter.State() }
      await store.send(.toggleCounterButtonTapped) { $0.optionalCounter = nil }
    }
  }

  @Test func ifLetReportsAChildActionWhileTheStateIsNil() async {
    let ifLetLine: UInt = 62  // ReducerAPIFixtures.swift, `.ifLet(\.optionalCounter, …)`
    let issues = await collectIssues {
      let store = TestStore(initialState: OptionalBasics.State()) { OptionalBasics() }
      await store.send(.optionalCounter(.incrementButtonTapped))
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            An "ifLet" at "ReducerCoreTests/ReducerAPIFixtures.swift:\(ifLetLine)" received a child action \
            when child state was "nil".

              Action:
                OptionalBasics.Action.optionalCounter(.incrementButtonTapped)

            This is generally considered an application logic error, and can happen for a few reasons:

            A parent reducer set child state to "nil" before this reducer ran. This reducer must run \
            before any other reducer sets child state to "nil". This ensures that child reducers can \
            handle their actions while their state is still available.

            An in-flight effect emitted this action when child state was "nil". While it may be \
            perfectly reasonable to ignore this action, consider canceling the associated effect \
            before child state becomes "nil", especially if it is a long-living effect.

            This action was sent to the store while state was "nil". Make sure that actions for this \
            reducer can only be sent from a store when state is non-"nil". In SwiftUI \
            applications, use "IfLetStore".
            """,
          line: ifLetLine)
      ])
  }

  @Test func ifLetCancelsTheChildsEffectsWhenTheStateGoesNil() async {
    let clock = TestClock()
    await expectNoIssues {
      let store = TestStore(initialState: OptionalBasics.State(optionalCounter: APICounter.State())) {
        OptionalBasics()
      } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(\.optionalCounter.startTimer)
      await clock.advance(by: .seconds(1))
      await store.receive(\.optionalCounter.timerTicked) { $0.optionalCounter?.count = 1 }
      #expect(store.effectsInFlight.count == 1)
      await store.send(.toggleCounterButtonTapped) { $0.optionalCounter = nil }
      #expect(store.effectsInFlight.isEmpty)
      await clock.advance(by: .seconds(5))
    }
  }

  @Test func ifLetOverAnIdentifiedOptional() async {
    let clock = TestClock()
    await expectNoIssues {
      let id = UUID(0)
      let store = TestStore(
        initialState: NavigateAndLoadList.State(rows: [NavigateAndLoadList.State.Row(count: 42, id: id)])
      ) {
        NavigateAndLoadList()
      } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.setNavigation(selection: id)) { $0.selection = Identified(nil, id: id) }
      await clock.advance(by: .seconds(1))
      await store.receive(.setNavigationSelectionDelayCompleted) {
        $0.selection?.value = APICounter.State(count: 42)
      }
      await store.send(.counter(.incrementButtonTapped)) { $0.selection?.value?.count = 43 }
      // The counter's timer, two `ifLet`s down, is cancelled when the selection goes away.
      await store.send(.counter(.startTimer))
      await clock.advance(by: .seconds(1))
      await store.receive(.counter(.timerTicked)) { $0.selection?.value?.count = 44 }
      await store.send(.setNavigation(selection: nil)) {
        $0.selection = nil
        $0.rows[id: id]?.count = 44
      }
      #expect(store.effectsInFlight.isEmpty)
    }
  }

  @Test func ifLetWithoutAReducerDismissesAnAlertAfterItsAction() async {
    await expectNoIssues {
      let store = TestStore(initialState: Topics.State()) { Topics() }
      await store.send(.doneButtonTapped) {
        $0.alert = AlertState {
          TextState("Please choose at least one topic.")
        } actions: {
          ButtonState(action: .retry) { TextState("Retry") }
          ButtonState(role: .cancel) { TextState("Cancel") }
        }
      }
      await store.send(\.alert.retry) { $0.alert = nil }
    }
  }

  // MARK: forEach

  @Test func forEachWithTheReducerItself() async {
    await expectNoIssues {
      let store = TestStore(initialState: Nested.State(id: 1)) { Nested() }
      await store.send(.addRowButtonTapped) { $0.rows = [Nested.State(id: 11)] }
      await store.send(\.rows[id: 11].addRowButtonTapped) { $0.rows[id: 11]?.rows = [Nested.State(id: 111)] }
      await store.send(\.rows[id: 11].rows[id: 111].nameTextFieldChanged, "Blob") {
        $0.rows[id: 11]?.rows[id: 111]?.name = "Blob"
      }
    }
  }

  @Test func forEachOverAStackOfEnumStatesScopedByCase() async {
    await expectNoIssues {
      let store = TestStore(initialState: NavigationDemo.State()) { NavigationDemo() }
      await store.send(.goToABButtonTapped) {
        $0.path[id: 0] = .screenA(APICounter.State())
        $0.path[id: 1] = .screenB(APICounter.State())
      }
      await store.send(\.path[id: 0].screenA.incrementButtonTapped) {
        $0.path[id: 0, case: \.screenA]?.count = 1
      }
      await store.send(\.path[id: 1].screenB.decrementButtonTapped) {
        $0.path[id: 1, case: \.screenB]?.count = -1
        $0.path[id: 2] = .screenA(APICounter.State(count: 100))
      }
      await store.send(.popToRoot) { $0.path = StackState() }
    }
  }

  @Test func scopeIntoAnEnumCaseReportsAnActionForAnotherCase() async {
    let scopeLine: UInt = 199  // ReducerAPIFixtures.swift, `Scope(state: \.screenB, …)`
    let issues = await collectIssues {
      let store = TestStore(initialState: NavigationDemo.Path.State.screenA(APICounter.State())) {
        NavigationDemo.Path()
      }
      await store.send(.screenA(.incrementButtonTapped)) { $0 = .screenA(APICounter.State(count: 1)) }
      await store.send(.screenB(.incrementButtonTapped))
    }
    #expect(issues.count == 1)
    #expect(issues.first?.line == scopeLine)
    #expect(
      issues.first?.message.hasPrefix(
        """
        A "Scope" at "ReducerCoreTests/ReducerAPIFixtures.swift:\(scopeLine)" received a child action
        """) == true)
  }

  // MARK: ButtonState

  @Test func buttonStateSendForms() {
    enum Action: Equatable { case confirm }
    let send = ButtonState<Action>(role: .destructive, action: .send(.confirm)) { TextState("Delete") }
    let animated = ButtonState<Action>(role: .destructive, action: .send(.confirm, animation: .default)) {
      TextState("Delete")
    }
    let plain = ButtonState<Action>(role: .destructive, action: .confirm) { TextState("Delete") }
    let memberwise = ButtonState<Action>(label: "Delete", role: .destructive, action: .confirm)
    #expect(send == memberwise)
    #expect(animated == memberwise)
    #expect(plain == memberwise)
    #expect(ButtonState<Action>(role: .cancel) { TextState("Cancel") } == ButtonState(label: "Cancel", role: .cancel))
    #expect(ButtonState<Action>(action: .send(nil)) { TextState("OK") }.action == nil)
    #expect(ButtonStateAction<Action>.send(.confirm, animation: .default).action == .confirm)
    #expect(ButtonStateAction<Action>.send(.confirm).map { _ in 7 }.action == 7)
    // Dumps are those of the memberwise button.
    #expect(String(customDumping: animated) == String(customDumping: memberwise))
    #expect(
      String(customDumping: animated) == """
        ButtonState(
          label: "Delete",
          role: .destructive,
          action: .confirm
        )
        """)
  }

  // MARK: debounce and throttle

  @Test func debounceWithAnyClock() async {
    let clock = TestClock()
    await expectNoIssues {
      let store = TestStore(initialState: Search.State()) { Search() } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.queryChanged("s")) { $0.query = "s" }
      await clock.advance(by: .milliseconds(500))
      await store.send(.queryChanged("sw")) { $0.query = "sw" }
      await clock.advance(by: .milliseconds(999))
      await clock.advance(by: .milliseconds(1))
      await store.receive(.search("sw")) { $0.searches = ["sw"] }
    }
  }

  @Test func debounceTakesAClockAsTheScheduler() async {
    let clock = TestClock()
    let effect = Effect<Int>.send(1).debounce(id: "d", for: .seconds(1), scheduler: clock)
    let anyClock: any Clock<Duration> = clock
    let effect2 = Effect<Int>.send(2).debounce(id: "d", for: .seconds(1), scheduler: anyClock)
    let effect3 = Effect<Int>.send(3).debounce(id: "d", for: .seconds(1), clock: anyClock)
    await expectNoIssues {
      let store = TestStore(initialState: 0) {
        Reduce<Int, Int> { state, action in
          if action == 0 { return .merge(effect, effect2) }
          if action == 1 { return effect3 }
          state = action
          return .none
        }
      }
      // The second cancels the first, whose wait is not over.
      await store.send(0)
      await clock.advance(by: .seconds(1))
      await store.receive(2) { $0 = 2 }
      await store.send(1)
      await clock.advance(by: .seconds(1))
      await store.receive(3) { $0 = 3 }
    }
  }

  @Test func throttleSendsTheLatestActionAtTheEndOfTheInterval() async {
    let clock = TestClock()
    await expectNoIssues {
      let store = TestStore(initialState: Search.State()) { Search() } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.throttledQueryChanged("a", latest: true)) { $0.query = "a" }
      await store.receive(.search("a")) { $0.searches = ["a"] }
      await clock.advance(by: .milliseconds(200))
      await store.send(.throttledQueryChanged("ab", latest: true)) { $0.query = "ab" }
      await clock.advance(by: .milliseconds(200))
      await store.send(.throttledQueryChanged("abc", latest: true)) { $0.query = "abc" }
      await clock.advance(by: .milliseconds(599))
      #expect(store.effectsInFlight.count == 1)
      await clock.advance(by: .milliseconds(1))
      await store.receive(.search("abc")) { $0.searches = ["a", "abc"] }
      // A full interval later, the next action is sent at once.
      await clock.advance(by: .seconds(1))
      await store.send(.throttledQueryChanged("abcd", latest: true)) { $0.query = "abcd" }
      await store.receive(.search("abcd")) { $0.searches = ["a", "abc", "abcd"] }
    }
  }

  @Test func throttleWithoutLatestSendsTheFirstActionThatWaited() async {
    let clock = TestClock()
    await expectNoIssues {
      let store = TestStore(initialState: Search.State()) { Search() } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.throttledQueryChanged("a", latest: false)) { $0.query = "a" }
      await store.receive(.search("a")) { $0.searches = ["a"] }
      await store.send(.throttledQueryChanged("ab", latest: false)) { $0.query = "ab" }
      await store.send(.throttledQueryChanged("abc", latest: false)) { $0.query = "abc" }
      await clock.advance(by: .seconds(1))
      await store.receive(.search("ab")) { $0.searches = ["a", "ab"] }
    }
  }

  // MARK: Dependency modifiers

  @Test func dependencyModifiersReachTheReducerAndItsEffects() async {
    await expectNoIssues {
      let byKeyPath = TestStore(initialState: Greeter.State()) {
        Greeter().dependency(\.greeting, Greeting(text: "key path"))
      }
      await byKeyPath.send(.greet) { $0.greeting = "key path" }
      await byKeyPath.receive(.greeted("key path")) { $0.fromEffect = "key path" }

      let byValue = TestStore(initialState: Greeter.State()) {
        Greeter().dependency(Greeting(text: "value"))
      }
      await byValue.send(.greet) { $0.greeting = "value" }
      await byValue.receive(.greeted("value")) { $0.fromEffect = "value" }

      let transformed = TestStore(initialState: Greeter.State()) {
        Greeter()
          .transformDependency(\.greeting) { $0.text += "!" }
          .dependency(\.greeting, Greeting(text: "outer"))
      }
      // The modifier nearer the base is applied last.
      await transformed.send(.greet) { $0.greeting = "outer!" }
      await transformed.receive(.greeted("outer!")) { $0.fromEffect = "outer!" }

      let nested = TestStore(initialState: Greeter.State()) {
        CombineReducers {
          Greeter().dependency(\.greeting, Greeting(text: "inner"))
        }
        .transformDependency(\.greeting) { $0.text += "?" }
      }
      await nested.send(.greet) { $0.greeting = "inner" }
      await nested.receive(.greeted("inner")) { $0.fromEffect = "inner" }
    }
  }

  // MARK: Animations

  @Test func animationsAreAcceptedAndChangeNothing() async {
    let clock = TestClock()
    await expectNoIssues {
      let store = TestStore(initialState: APICounter.State()) { APICounter() } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.startTimer)
      await clock.advance(by: .seconds(1))
      await store.receive(.timerTicked) { $0.count = 1 }
      await store.skipInFlightEffects()

      let login = TestStore(initialState: ViewActionLogin.State()) { ViewActionLogin() }
      await login.send(.view(.loginButtonTapped)) { $0.isLoggingIn = true }
      await login.receive(.loginResponse(true)) { $0.isLoggingIn = false }

      let animated = TestStore(initialState: 0) {
        Reduce<Int, Int> { state, action in
          state = action
          guard action == 1 else { return .none }
          return .merge(
            Effect.send(2).animation(.spring()),
            Effect.send(3).animation(),
            Effect.run { send in await send(4, transaction: Transaction(animation: .easeInOut(duration: 0.5))) }
              .transaction(Transaction())
          )
        }
      }
      await animated.send(1) { $0 = 1 }
      await animated.receive(2) { $0 = 2 }
      await animated.receive(3) { $0 = 3 }
      await animated.receive(4) { $0 = 4 }
    }
    #expect(withAnimation(.linear(duration: 1).delay(2)) { 42 } == 42)
    #expect(withTransaction(Transaction(animation: .default)) { "done" } == "done")
  }

  @Test func dismissWithAnAnimationDismisses() async {
    // One store each: the first dismissal dismisses the store (as in TCA), and its effects
    // are cancelled.
    let isDismissed = LockIsolated(0)
    for animated in [true, false] {
      await expectNoIssues {
        let store = TestStore(initialState: 0) {
          Reduce<Int, Int> { _, _ in
            .run { _ in
              @Dependency(\.dismiss) var dismiss
              @Dependency(\.isPresented) var isPresented
              #expect(isPresented)
              if animated {
                await dismiss(animation: .default)
              } else {
                await dismiss(transaction: Transaction())
              }
            }
          }
        } withDependencies: {
          $0.dismiss = DismissEffect { isDismissed.withValue { $0 += 1 } }
        }
        await store.send(1)
        #expect(store.isDismissed)
      }
    }
    #expect(isDismissed.value == 2)
    #expect(DependencyValues().isPresented == false)
  }

  // MARK: _printChanges

  @Test func printChangesPrintsEachActionAndTheStateChange() async {
    let queue = DispatchQueue(label: "ReducerAPITests.printChanges")
    let printed = LockIsolated<[String]>([])
    let printer = _ReducerPrinter<APICounter.State, APICounter.Action>(
      printChange: { action, oldState, newState in
        printed.withValue { $0.append("\(action): \(oldState.count) -> \(newState.count)") }
      },
      queue: queue)
    await expectNoIssues {
      let store = TestStore(initialState: APICounter.State()) { APICounter()._printChanges(printer) }
      await store.send(.incrementButtonTapped) { $0.count = 1 }
      await store.send(.decrementButtonTapped) { $0.count = 0 }
      let silent = TestStore(initialState: APICounter.State()) { APICounter()._printChanges(nil) }
      await silent.send(.incrementButtonTapped) { $0.count = 1 }
    }
    queue.sync {}
    #expect(printed.value == ["incrementButtonTapped: 0 -> 1", "decrementButtonTapped: 1 -> 0"])
    #expect(
      _ReducerPrinter<APICounter.State, APICounter.Action>.customDumpText(
        receivedAction: .incrementButtonTapped, oldState: APICounter.State(), newState: APICounter.State(count: 1))
        == """
        received action:
          APICounter.Action.incrementButtonTapped
        - APICounter.State(count: 0)
        + APICounter.State(count: 1)

        """)
    #expect(
      _ReducerPrinter<APICounter.State, APICounter.Action>.customDumpText(
        receivedAction: .incrementButtonTapped, oldState: APICounter.State(), newState: APICounter.State())
        == """
        received action:
          APICounter.Action.incrementButtonTapped
          (No state changes)

        """)
    #expect(
      _ReducerPrinter<APICounter.State, APICounter.Action>.actionLabelText(receivedAction: .incrementButtonTapped)
        == "received action: APICounter.Action.incrementButtonTapped")
  }

  // MARK: Smaller pieces

  @Test func onChangeWithAnEffect() async {
    struct State: Equatable {
      var stepCount = 10
      var sliderValue = 5.0
    }
    await expectNoIssues {
      let store = TestStore(initialState: State()) {
        Reduce<State, Int> { state, action in
          state.stepCount = action
          return .none
        }
        .onChange(of: \.stepCount) { oldValue, state in
          state.sliderValue = .minimum(state.sliderValue, Double(state.stepCount))
          return oldValue == 10 ? .send(oldValue) : .none
        }
      }
      await store.send(3) {
        $0.stepCount = 3
        $0.sliderValue = 3
      }
      await store.receive(10) { $0.stepCount = 10 }
      await store.send(10)
    }
  }

  @Test func anOptionalReducerIsAReducer() async {
    struct Feature: Reducer {
      var child: APICounter?
      var body: some Reducer<APICounter.State, APICounter.Action> {
        child
      }
    }
    await expectNoIssues {
      let present = TestStore(initialState: APICounter.State()) { Feature(child: APICounter()) }
      await present.send(.incrementButtonTapped) { $0.count = 1 }
      let absent = TestStore(initialState: APICounter.State()) { Feature(child: nil) }
      await absent.send(.incrementButtonTapped)
    }
  }

  @Test func effectAndSendOfAReducer() async {
    let effect: EffectOf<APICounter> = .run(priority: .high, name: "named") { (send: SendOf<APICounter>) in
      await send(.incrementButtonTapped)
    }
    await expectNoIssues {
      let store = TestStore(initialState: APICounter.State()) {
        Reduce<APICounter.State, APICounter.Action> { state, action in
          action == .decrementButtonTapped ? effect : APICounter().reduce(into: &state, action: action)
        }
      }
      await store.send(.decrementButtonTapped)
      await store.receive(.incrementButtonTapped) { $0.count = 1 }
    }
  }

  @Test func runIgnoresAnErrorThrownAfterCancellation() async {
    await expectNoIssues {
      let store = TestStore(initialState: 0) {
        Reduce<Int, Int> { _, action in
          action == 1
            ? .run { _ in
              withUnsafeCurrentTask { $0?.cancel() }
              struct Failure: Error {}
              throw Failure()
            }
            : .none
        }
      }
      await store.send(1).finish()
    }
  }

  @Test func taskResultAndResult() throws {
    struct Failure: Error, Equatable {}
    let result: Result<Int, Failure> = .success(1)
    #expect(TaskResult(result) == .success(1))
    #expect(TaskResult(Result<Int, Failure>.failure(Failure())) == .failure(Failure()))
    #expect(TaskResult<Int>.success(2).flatMap { .success("\($0)") } == .success("2"))
    #expect(TaskResult<Int>.failure(Failure()).flatMap { .success("\($0)") } == .failure(Failure()))
    #expect(TaskResult<Int>.success(3)[case: \.success] == 3)
    #expect(TaskResult<Int>.failure(Failure())[case: \.failure] is Failure)
    #expect(try Result(TaskResult<Int>.success(4)).get() == 4)
  }
}

private func expectNoIssues(
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: @MainActor () async -> Void
) async {
  let issues = await collectIssues(body)
  #expect(issues == [], sourceLocation: sourceLocation)
}
