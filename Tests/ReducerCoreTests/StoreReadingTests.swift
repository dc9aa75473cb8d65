import CasePaths
import Dependencies
import ReducerCore
import Testing

/// A counter with observable state, for reading fields through a store.
private struct Tally: Reducer {
  @ObservableState
  struct State: Equatable {
    var count = 0
  }
  enum Action: Equatable {
    case increment
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}

@MainActor
@Suite struct StoreReadingTests {
  @Test func aStoreReadsTheFieldsOfObservableState() {
    let store = Store(initialState: Tally.State()) { Tally() }
    store.send(.increment)
    store.send(.increment)
    #expect(store.count == 2)
  }
}
