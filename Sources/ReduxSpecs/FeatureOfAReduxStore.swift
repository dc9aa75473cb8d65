import Redux
import SpecRunner

extension Feature {
  /// A feature of a Redux store: a reducer, its middlewares, and the action types that specs
  /// send and receive, by name.
  ///
  /// ```swift
  /// Feature(
  ///   "ReduxArchive",
  ///   initialState: AppState(),
  ///   stubs: [.endpoint("requestArchiveRepository.getArchiveResponse", \.requestArchiveRepository.getArchiveResponse)],
  ///   reducer: appReducer,
  ///   middlewares: [archiveMiddleware],
  ///   actions: [RequestArchiveWithInputTextAction.self, SuccessArchiveAction.self, FailureArchiveAction.self]
  /// )
  /// ```
  ///
  /// Its store is a ``ReduxTestStore``.
  ///
  /// - Parameters:
  ///   - name: The name specs give in `feature:`.
  ///   - initialState: The default state that `initialState:` assignments apply to.
  ///   - stubs: A stub for every dependency the middlewares use.
  ///   - reducer: The reducer.
  ///   - middlewares: The middlewares, in the order they run.
  ///   - actions: Every action type a spec sends or a middleware dispatches, each `Codable`
  ///     and `Equatable`. A spec names one by its type's name.
  public init<State: ReduxState & Codable & Equatable>(
    _ name: String,
    initialState: @autoclosure @escaping @Sendable () -> State,
    stubs: [Stub] = [],
    reducer: @escaping Reducer<State>,
    middlewares: [Middleware<State>] = [],
    actions: [any SpecAction.Type]
  ) {
    let types = ReduxActionTypes(feature: name, types: actions)
    self.init(name, initialState: initialState(), stubs: stubs, userInfo: [.reduxActionTypes: types]) {
      initialState, prepareDependencies, location in
      ReduxTestStore(
        initialState: initialState, reducer: reducer, middlewares: middlewares, actionTypes: types,
        prepareDependencies: prepareDependencies, at: location)
    }
  }
}
