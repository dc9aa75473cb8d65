/// A feature's logic: how an action changes the state, and which effects it starts.
///
/// Conform in one of two ways, as in The Composable Architecture. Implement
/// ``reduce(into:action:)`` for logic of your own:
///
/// ```swift
/// struct Counter: Reducer {
///   struct State: Equatable { var count = 0 }
///   enum Action { case increment, decrement }
///
///   func reduce(into state: inout State, action: Action) -> Effect<Action> {
///     switch action {
///     case .increment: state.count += 1
///     case .decrement: state.count -= 1
///     }
///     return .none
///   }
/// }
/// ```
///
/// or implement ``body-swift.property`` to compose other reducers:
///
/// ```swift
/// var body: some Reducer<State, Action> {
///   Scope(state: \.counter, action: \.counter) { Counter() }
///   Reduce { state, action in … }
/// }
/// ```
public protocol Reducer<State, Action> {
  /// The state the reducer changes.
  associatedtype State
  /// The actions the reducer handles.
  associatedtype Action
  /// The type of ``body-swift.property``: another reducer, or `Never` for reducers that
  /// implement ``reduce(into:action:)``.
  associatedtype Body

  /// Changes the state for an action and returns the effects to run.
  func reduce(into state: inout State, action: Action) -> Effect<Action>

  /// The reducers that this one is made of, run in order.
  @ReducerBuilder<State, Action>
  var body: Body { get }
}

/// A reducer of the same state and actions as `R`: `var body: some ReducerOf<Self>`.
public typealias ReducerOf<R: Reducer> = Reducer<R.State, R.Action>

extension Reducer where Body == Never {
  /// Reducers that implement ``reduce(into:action:)`` have no body.
  public var body: Body {
    fatalError("'\(Self.self)' has no body: it implements reduce(into:action:).")
  }
}

extension Reducer where Body: Reducer, Body.State == State, Body.Action == Action {
  /// Runs ``body-swift.property``.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    body.reduce(into: &state, action: action)
  }
}

/// A reducer from a closure: `Reduce { state, action in … }`.
public struct Reduce<State, Action>: Reducer {
  @usableFromInline
  let reduce: (inout State, Action) -> Effect<Action>

  /// A reducer that runs the closure.
  @inlinable
  public init(_ reduce: @escaping (_ state: inout State, _ action: Action) -> Effect<Action>) {
    self.reduce = reduce
  }

  /// Wraps another reducer.
  @inlinable
  public init<R: Reducer>(_ reducer: R) where R.State == State, R.Action == Action {
    self.reduce = reducer.reduce(into:action:)
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reduce(&state, action)
  }
}

/// A reducer that does nothing.
public struct EmptyReducer<State, Action>: Reducer {
  @inlinable
  public init() {}

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    .none
  }
}

/// Runs the reducers of its body in order: `CombineReducers { A(); B() }`.
///
/// Useful to apply a modifier (such as ``Reducer/ifCaseLet(_:action:then:fileID:filePath:line:column:)``)
/// to a group of reducers.
public struct CombineReducers<State, Action, Reducers: Reducer>: Reducer
where Reducers.State == State, Reducers.Action == Action {
  @usableFromInline
  let reducers: Reducers

  @inlinable
  public init(@ReducerBuilder<State, Action> _ build: () -> Reducers) {
    self.reducers = build()
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reducers.reduce(into: &state, action: action)
  }
}
