/// Something that happened, which a ``Reducer`` turns into a new state and ``Middleware``s
/// may answer with side effects.
///
/// Actions are structs:
///
/// ```swift
/// struct RequestArchiveWithInputTextAction: Action {
///   let inputText: String
/// }
/// ```
///
/// An action is `Sendable` so that a middleware can dispatch one from a `Task`.
public protocol Action: Sendable {}

/// The state that a ``Store`` holds: usually a struct of one sub-state per screen.
///
/// It is `Sendable`, so that a middleware's `Task` may use it. It does not have to be
/// `Equatable`: a store never compares states. A test that compares states asks for
/// `Equatable` itself.
public protocol ReduxState: Sendable {}

/// A pure function from a state and an action to the next state.
///
/// ```swift
/// func appReducer(_ state: AppState, _ action: any Action) -> AppState {
///   var state = state
///   switch action {
///   case let action as RequestArchiveWithInputTextAction:
///     state.archiveState.inputText = action.inputText
///   default:
///     break
///   }
///   return state
/// }
/// ```
///
/// A ``Store`` calls it under its lock: it must not dispatch.
public typealias Reducer<State: ReduxState> = @Sendable (_ state: State, _ action: any Action) -> State

/// Dispatches an action to a ``Store``: what a ``Middleware`` calls, at once or later from a
/// `Task`, on any thread.
public typealias Dispatcher = @Sendable (any Action) -> Void

/// A side effect of actions: called after the reducer with the state as it was before the
/// action, the action, and a dispatcher for the actions it produces.
///
/// ```swift
/// let archiveMiddleware: Middleware<AppState> = { state, action, dispatch in
///   guard let action = action as? RequestArchiveWithInputTextAction else { return }
///   Task {
///     let response = try await fetch(action.inputText)
///     dispatch(SuccessArchiveAction(archiveSceneEntities: response.result, storedIds: []))
///   }
/// }
/// ```
public typealias Middleware<StoreState: ReduxState> =
  @Sendable (StoreState, any Action, @escaping Dispatcher) -> Void
