import ConcurrencyExtras
import Observation
import Redux
import Testing

private struct CounterState: ReduxState, Equatable {
  var count = 0
}

private struct Increment: Action {}
private struct Add: Action { var amount: Int }
private struct Ping: Action {}
private struct Pong: Action {}

/// `count + 1` on ``Increment``, `count + amount` on ``Add``.
private func counterReducer(_ state: CounterState, _ action: any Action) -> CounterState {
  var state = state
  switch action {
  case _ as Increment:
    state.count += 1
  case let action as Add:
    state.count += action.amount
  default:
    break
  }
  return state
}

private func name(_ action: any Action) -> String {
  String(describing: type(of: action))
}

// On the main actor, as `eventually` is: while a ReducerCore `TestStore` of another test
// lives, every task runs on the main queue, behind the jobs of every test there.
@MainActor @Suite struct StoreTests {
  @Test func theInitialStateIsTheStateGiven() {
    let store = Store(reducer: counterReducer, state: CounterState(count: 7))
    #expect(store.state == CounterState(count: 7))
  }

  @Test func dispatchRunsTheReducerThenEachMiddlewareInOrderWithTheStateBefore() {
    let log = LockIsolated<[String]>([])
    let store = Store(
      reducer: { state, action in
        let next = counterReducer(state, action)
        log.withValue { $0.append("reducer \(name(action)): \(state.count) -> \(next.count)") }
        return next
      },
      state: CounterState(count: 1),
      middlewares: [
        { state, action, _ in log.withValue { $0.append("first \(name(action)) saw \(state.count)") } },
        { state, action, _ in log.withValue { $0.append("second \(name(action)) saw \(state.count)") } },
      ]
    )

    store.dispatch(action: Add(amount: 10))

    #expect(
      log.value == [
        "reducer Add: 1 -> 11",
        "first Add saw 1",
        "second Add saw 1",
      ])
    #expect(store.state == CounterState(count: 11))
  }

  @Test func anActionThatAMiddlewareDispatchesAtOnceIsReducedBeforeTheNextMiddlewareRuns() {
    let log = LockIsolated<[String]>([])
    let store = Store(
      reducer: { state, action in
        let next = counterReducer(state, action)
        log.withValue { $0.append("reducer \(name(action)): \(state.count) -> \(next.count)") }
        return next
      },
      state: CounterState(),
      middlewares: [
        { state, action, dispatch in
          log.withValue { $0.append("first \(name(action)) saw \(state.count)") }
          if action is Ping { dispatch(Increment()) }
        },
        { state, action, _ in log.withValue { $0.append("second \(name(action)) saw \(state.count)") } },
      ]
    )

    store.dispatch(action: Ping())

    #expect(
      log.value == [
        "reducer Ping: 0 -> 0",
        "first Ping saw 0",
        "reducer Increment: 0 -> 1",
        "first Increment saw 0",
        "second Increment saw 0",
        "second Ping saw 0",
      ])
    #expect(store.state == CounterState(count: 1))
  }

  @Test func theStateAMiddlewareSeesIsTheOneBeforeItsActionEvenAfterALaterDispatch() {
    let seen = LockIsolated<[Int]>([])
    let store = Store(
      reducer: counterReducer,
      state: CounterState(),
      middlewares: [
        { state, action, dispatch in
          guard action is Ping else { return }
          dispatch(Add(amount: 5))
          seen.withValue { $0.append(state.count) }
        }
      ]
    )

    store.dispatch(action: Ping())

    #expect(seen.value == [0])
    #expect(store.state == CounterState(count: 5))
  }

  @Test func anActionThatAMiddlewareDispatchesFromATaskIsReducedAndSeenByTheMiddlewares() async {
    let received = LockIsolated<[String]>([])
    let store = Store(
      reducer: counterReducer,
      state: CounterState(),
      middlewares: [
        { _, action, dispatch in
          received.withValue { $0.append(name(action)) }
          guard action is Ping else { return }
          Task {
            await Task.yield()
            dispatch(Add(amount: 3))
            dispatch(Pong())
          }
        }
      ]
    )

    store.dispatch(action: Ping())

    #expect(await eventually { received.value.last == "Pong" })
    #expect(received.value == ["Ping", "Add", "Pong"])
    #expect(store.state == CounterState(count: 3))
  }

  @Test func dispatchesFromManyTasksAtOnceAreEachReducedOnce() async {
    let tasks = 8
    let dispatchesPerTask = 1000
    let statesBefore = LockIsolated<[Int]>([])
    let store = Store(
      reducer: { state, _ in
        var next = state
        // Some work between reading the state and returning the next one: the window in
        // which two unguarded reductions would start from the same state.
        next.count = (0..<500).reduce(state.count) { count, _ in count } + 1
        return next
      },
      state: CounterState(),
      middlewares: [
        { state, _, _ in statesBefore.withValue { $0.append(state.count) } }
      ]
    )

    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<tasks {
        group.addTask {
          for _ in 0..<dispatchesPerTask {
            store.dispatch(action: Increment())
          }
        }
      }
    }

    let total = tasks * dispatchesPerTask
    #expect(store.state == CounterState(count: total))
    // Each reduction started from the state the previous one left: the middlewares saw
    // each count once.
    let counts = statesBefore.value
    #expect(counts.count == total)
    #expect(counts.count - Set(counts).count == 0, "a state that two reductions started from")
  }

  @Test func readingTheStateObservesIt() {
    let store = Store(reducer: counterReducer, state: CounterState())
    let changes = LockIsolated(0)
    withObservationTracking {
      _ = store.state
    } onChange: {
      changes.withValue { $0 += 1 }
    }

    store.dispatch(action: Increment())

    #expect(changes.value == 1)
  }

  @Test func anObserverIsToldOfADispatchFromAnotherTask() async {
    let store = Store(reducer: counterReducer, state: CounterState())
    let changed = LockIsolated(false)
    withObservationTracking {
      _ = store.state.count
    } onChange: {
      changed.setValue(true)
    }

    await Task.detached { store.dispatch(action: Increment()) }.value

    #expect(changed.value)
    #expect(store.state == CounterState(count: 1))
  }
}
