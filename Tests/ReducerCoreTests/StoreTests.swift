import ReducerCore
import Testing

// MARK: - Fixtures (local to this file)

/// What an effect records about itself, outside the store (actions sent after cancellation are
/// dropped, so cancellation is observed here).
private actor EffectEvents {
  private(set) var events: [String] = []
  private var waiters: [(expected: [String], continuation: CheckedContinuation<Void, Never>)] = []

  func record(_ event: String) {
    events.append(event)
    let ready = waiters.filter { $0.expected == events }
    waiters.removeAll { $0.expected == events }
    for waiter in ready { waiter.continuation.resume() }
  }

  /// Returns once the events are `expected`. It has no deadline of its own: the effects start
  /// on the main actor, which every test of the process shares, and under a sanitizer on two
  /// cores an effect once started more than five minutes after it was sent. A test that never
  /// sees its events fails at its time limit.
  func wait(for expected: [String]) async {
    if events == expected { return }
    await withCheckedContinuation { waiters.append((expected, $0)) }
  }
}

/// A live-store feature. `startLongEffect` records on `events` when its effect starts and
/// when it is cancelled.
private struct LiveFeature: Reducer {
  struct State: Equatable {
    var count = 0
    var loaded: [String] = []
  }

  enum Action: Equatable {
    case increment
    case load
    case loaded(String)
    case startLongEffect
  }

  let events: EffectEvents

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .load:
      return .run { send in
        await Task.yield()
        await send(.loaded("first"))
        await send(.loaded("second"))
      }
    case .loaded(let value):
      state.loaded.append(value)
      return .none
    case .startLongEffect:
      return .run { [events] _ in
        await events.record("started")
        do {
          // Until it is cancelled, however late the test gets to that: a sleep of 60 s once
          // ended first, in a ThreadSanitizer run where the tests queued on the main thread
          // for minutes, and the effect finished instead of being cancelled.
          while true { try await Task.sleep(for: .seconds(3600)) }
        } catch is CancellationError {
          await events.record("cancelled")
        }
      }
    }
  }
}

// MARK: - Tests

@MainActor
@Suite(.timeLimit(.minutes(20))) struct StoreTests {
  @Test func sendChangesTheState() {
    let events = EffectEvents()
    let store = Store(initialState: LiveFeature.State()) { LiveFeature(events: events) }
    store.send(.increment)
    #expect(store.state.count == 1)
    store.send(.increment)
    #expect(store.withState(\.count) == 2)
    #expect(store.effectCount == 0)
  }

  @Test func actionsFromARunEffectArriveBeforeItsTaskFinishes() async {
    let events = EffectEvents()
    let store = Store(initialState: LiveFeature.State()) { LiveFeature(events: events) }
    let task = store.send(.load)
    #expect(store.state.loaded == [])
    await task.finish()
    #expect(store.state.loaded == ["first", "second"])
    #expect(store.effectCount == 0)
  }

  @Test func storeTaskCancelCancelsTheEffect() async {
    let events = EffectEvents()
    let store = Store(initialState: LiveFeature.State()) { LiveFeature(events: events) }
    let task = store.send(.startLongEffect)
    await events.wait(for: ["started"])
    #expect(store.effectCount == 1)
    task.cancel()
    #expect(store.effectCount == 0)
    await events.wait(for: ["started", "cancelled"])
    await task.finish()
  }

  @Test func deinitializingTheStoreCancelsItsEffects() async {
    let events = EffectEvents()
    var store: Store<LiveFeature.State, LiveFeature.Action>? = Store(initialState: LiveFeature.State()) {
      LiveFeature(events: events)
    }
    weak let weakStore = store
    store?.send(.startLongEffect)
    await events.wait(for: ["started"])
    #expect(store?.effectCount == 1)
    store = nil
    #expect(weakStore == nil)
    await events.wait(for: ["started", "cancelled"])
  }
}
