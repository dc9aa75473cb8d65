import Foundation

#if canImport(Observation)
  import Observation
#endif

/// Holds the state of an app, runs the reducer for each action dispatched and hands the
/// action to the middlewares.
///
/// ```swift
/// let store = Store(
///   reducer: appReducer,
///   state: AppState(),
///   middlewares: [archiveMiddleware, storedArchiveMiddleware]
/// )
/// store.dispatch(action: RequestArchiveWithInputTextAction(inputText: "cheese"))
/// ```
///
/// ``dispatch(action:)`` does two things, in this order:
///
/// 1. It replaces ``state`` with `reducer(state, action)`.
/// 2. It calls every middleware, in the order given, with the state as it was when the action
///    was dispatched (before the reducer ran), the action, and a ``Dispatcher`` that
///    dispatches to this store.
///
/// An action that a middleware dispatches, at once or later from a `Task`, goes through
/// ``dispatch(action:)`` again: dispatched at once, it is reduced before the middlewares that
/// follow the one that dispatched it run.
///
/// ## Threads
///
/// A store may be used from any thread. A lock makes each reduction atomic: the reducer reads
/// the state that the previous reduction left, and a read of ``state`` sees a whole state. The
/// lock is held while the reducer runs and released before the middlewares run, so a
/// middleware may dispatch at once, and actions dispatched from several threads are reduced
/// one at a time, in the order they take the lock. A lock rather than the main actor keeps
/// `dispatch` synchronous from any context, as Redux's is.
///
/// ## Observation
///
/// The store is `Observable` (the Observation framework, where it is available: macOS 14,
/// iOS 17 and Linux): a SwiftUI view that reads ``state`` updates when an action changes it.
/// Observers are told on the thread that dispatched: a SwiftUI app dispatches from the main
/// actor, and a middleware whose results a view shows dispatches them from
/// `Task { @MainActor in … }`.
public final class Store<StoreState: ReduxState>: @unchecked Sendable {
  private let reducer: Reducer<StoreState>
  private let middlewares: [Middleware<StoreState>]
  /// Guards `currentState`.
  private let lock = NSLock()
  private var currentState: StoreState
  /// An `ObservationRegistrar` where the Observation framework is available, `()` elsewhere:
  /// a stored property cannot have a type newer than the package's deployment target.
  private let registrar: any Sendable

  /// A store with an initial state, the reducer, and the middlewares in the order they run.
  public init(
    reducer: @escaping Reducer<StoreState>,
    state: StoreState,
    middlewares: [Middleware<StoreState>] = []
  ) {
    self.reducer = reducer
    self.currentState = state
    self.middlewares = middlewares
    #if canImport(Observation)
      if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
        self.registrar = ObservationRegistrar()
        return
      }
    #endif
    self.registrar = ()
  }

  /// The current state.
  public var state: StoreState {
    #if canImport(Observation)
      if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *),
        let registrar = registrar as? ObservationRegistrar
      {
        registrar.access(self, keyPath: \.state)
      }
    #endif
    lock.lock()
    defer { lock.unlock() }
    return currentState
  }

  /// Reduces the action into the state, then calls every middleware with the state from
  /// before the reduction.
  public func dispatch(action: any Action) {
    let stateBefore = mutatingState {
      lock.lock()
      defer { lock.unlock() }
      let stateBefore = currentState
      currentState = reducer(stateBefore, action)
      return stateBefore
    }
    let dispatcher: Dispatcher = { action in self.dispatch(action: action) }
    for middleware in middlewares {
      middleware(stateBefore, action, dispatcher)
    }
  }

  /// Runs `body`, which changes the state, telling observers where Observation is available.
  private func mutatingState<Result>(_ body: () -> Result) -> Result {
    #if canImport(Observation)
      if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *),
        let registrar = registrar as? ObservationRegistrar
      {
        return registrar.withMutation(of: self, keyPath: \.state, body)
      }
    #endif
    return body()
  }
}

#if canImport(Observation)
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  extension Store: Observable {}
#endif
