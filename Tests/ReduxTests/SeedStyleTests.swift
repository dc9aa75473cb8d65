import Redux
import Testing

// An app written as a SwiftUI + Redux app writes it, in Swift 6 language mode: `Action`
// without `any`, a state that is not Equatable, a reducer and a middleware factory that are
// free functions, and a middleware that dispatches from `Task { @MainActor in … }`.

private struct SeedState: ReduxState {
  var messages: [String] = []
  var isLoading = false
}

private struct RequestMessagesAction: Action {}

private struct SuccessMessagesAction: Action {
  let messages: [String]
}

private func seedReducer(_ state: SeedState, _ action: Action) -> SeedState {
  var state = state
  switch action {
  case _ as RequestMessagesAction:
    state.isLoading = true
  case let action as SuccessMessagesAction:
    state.isLoading = false
    state.messages = action.messages
  default:
    break
  }
  return state
}

private func seedMiddleware() -> Middleware<SeedState> {
  return { state, action, dispatch in
    switch action {
    case _ as RequestMessagesAction:
      requestMessages(dispatch: dispatch)
    default:
      break
    }
  }
}

private func requestMessages(dispatch: @escaping Dispatcher) {
  Task { @MainActor in
    await Task.yield()
    dispatch(SuccessMessagesAction(messages: ["こんにちは"]))
  }
}

// On the main actor, as `eventually` is: while a ReducerCore `TestStore` of another test
// lives, every task runs on the main queue, behind the jobs of every test there.
@MainActor @Suite struct SeedStyleTests {
  @Test func aSeedStyleAppRunsOnTheStore() async {
    let store = Store(
      reducer: seedReducer,
      state: SeedState(),
      middlewares: [
        seedMiddleware()
      ]
    )

    store.dispatch(action: RequestMessagesAction())
    #expect(store.state.isLoading)

    #expect(await store.eventually { !$0.isLoading })
    #expect(store.state.messages == ["こんにちは"])
  }
}
