import Dependencies

/// Runs a reducer and its effects for real: an app's (or a command's) store.
///
/// ```swift
/// let store = Store(initialState: Counter.State()) { Counter() }
/// store.send(.increment)
/// store.state.count  // 1
/// ```
///
/// Effects run as tasks; actions they send are processed on the main actor. When the
/// store is deinitialized, its effects are cancelled.
///
/// The fields of an ``ObservableState`` state read through the store: `store.count`.
@MainActor
@dynamicMemberLookup
public final class Store<State, Action> {
  /// The current state.
  public private(set) var state: State

  private let reducer: (inout State, Action) -> Effect<Action>
  private let runtime = EffectRuntime<Action>()
  private let dependencies: DependencyValues

  /// A store for a reducer.
  public init<R: Reducer>(
    initialState: @autoclosure () -> State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in }
  ) where R.State == State, R.Action == Action {
    var values = DependencyValues._current
    values.stackElementID = .incrementing
    prepareDependencies(&values)
    dependencies = values
    let (state, reducer) = withDependencies({ $0 = values }) { (initialState(), reducer()) }
    self.state = state
    self.reducer = reducer.reduce(into:action:)
    runtime.deliver = { [unowned self] action, _ in self.send(action) }
  }

  isolated deinit {
    runtime.cancelAll()
  }

  /// Sends an action: runs the reducer and starts its effects.
  ///
  /// - Returns: The effects the action started, to cancel or await.
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    let effect = withDependencies({ $0 = self.dependencies }) { reducer(&state, action) }
    let pieces = runtime.start(
      effect, origin: EffectOrigin(fileID: #fileID, filePath: #filePath, line: #line, column: #column, action: ""))
    return StoreTask(
      cancel: { [runtime] in for piece in pieces { runtime.cancel(piece) } },
      wait: { [runtime] in for piece in pieces { await runtime.wait(for: piece) } })
  }

  /// Reads the state.
  public func withState<R>(_ body: (State) -> R) -> R {
    body(state)
  }

  /// The number of effects running.
  public var effectCount: Int { runtime.running.count }
}

/// The effects that one `Store.send` started.
@MainActor
public struct StoreTask {
  let cancelPieces: () -> Void
  let wait: () async -> Void

  init(cancel: @escaping () -> Void, wait: @escaping () async -> Void) {
    self.cancelPieces = cancel
    self.wait = wait
  }

  /// Cancels the effects.
  public func cancel() {
    cancelPieces()
  }

  /// Waits until the effects finish (or are cancelled).
  public func finish() async {
    await wait()
  }
}
