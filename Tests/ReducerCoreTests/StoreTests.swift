import ReducerCore
import Testing

// MARK: - Fixtures (local to this file)

/// What an effect records about itself, outside the store (actions sent after cancellation are
/// dropped, so cancellation is observed here).
private actor EffectEvents {
  private(set) var events: [String] = []

  func record(_ event: String) {
    events.append(event)
  }

  /// Waits until the events are `expected`; returns `false` after `timeout` without them.
  /// The effects record on the main actor, which other tests of the same process share:
  /// in a full `swift test` on a loaded machine, 5 s once passed before an effect started,
  /// and under ThreadSanitizer the tests on the main thread took minutes. A passing test
  /// waits only for its events.
  func wait(for expected: [String], timeout: Duration = .seconds(300)) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while events != expected {
      if ContinuousClock.now >= deadline { return false }
      try? await Task.sleep(for: .milliseconds(1))
    }
    return true
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
@Suite struct StoreTests {
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
    #expect(await events.wait(for: ["started"]))
    #expect(store.effectCount == 1)
    task.cancel()
    #expect(store.effectCount == 0)
    #expect(await events.wait(for: ["started", "cancelled"]))
    await task.finish()
  }

  @Test func deinitializingTheStoreCancelsItsEffects() async {
    let events = EffectEvents()
    var store: Store<LiveFeature.State, LiveFeature.Action>? = Store(initialState: LiveFeature.State()) {
      LiveFeature(events: events)
    }
    weak let weakStore = store
    store?.send(.startLongEffect)
    #expect(await events.wait(for: ["started"]))
    #expect(store?.effectCount == 1)
    store = nil
    #expect(weakStore == nil)
    #expect(await events.wait(for: ["started", "cancelled"]))
  }
}
