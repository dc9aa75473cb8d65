import ReducerCore
import SpecRunner

extension Feature {
  /// A feature whose store is ReducerCore's `TestStore`, for a reducer.
  ///
  /// ```swift
  /// Feature("Counter", initialState: Counter.State(), stubs: [
  ///   .value("generateRandom", as: Int.self) { dependencies, next in
  ///     dependencies.generateRandom.generateRandomInt = { _ in next() }
  ///   },
  /// ]) {
  ///   Counter()
  /// }
  /// ```
  ///
  /// State and actions are read and compared through their `Codable` and `Equatable`
  /// conformances.
  ///
  /// - Parameters:
  ///   - name: The name specs give in `feature:`.
  ///   - initialState: The default state that `initialState:` assignments apply to.
  ///   - stubs: A stub for every dependency the reducer uses.
  ///   - reducer: The reducer, made anew for each scenario.
  public init<State: Codable & Equatable & SendableMetatype, Action: Codable & Equatable, R: Reducer>(
    _ name: String,
    initialState: @autoclosure @escaping @Sendable () -> State,
    stubs: [Stub] = [],
    @ReducerBuilder<State, Action> reducer: @escaping @Sendable () -> R
  ) where R.State == State, R.Action == Action {
    self.init(name, initialState: initialState(), stubs: stubs) { initialState, prepareDependencies, location in
      TestStoreAdapter(
        TestStore(
          initialState: initialState, reducer: { reducer() }, withDependencies: prepareDependencies,
          fileID: location.fileID, file: location.fileID, line: location.line, column: location.column))
    }
  }

  // MARK: - Registration errors

  // A feature whose State or Action lacks Codable or Equatable matches one of these instead of
  // the initializer above, and the compiler shows its message at the registration: which of
  // the two types is missing what, and what to write, rather than a bare "requires that …
  // conform to 'Decodable'".

  @available(
    *, unavailable,
    message: "specs read and compare a feature's State: declare it Codable and Equatable ('struct State: Codable, Equatable'; an enum state likewise)"
  )
  public init<State, Action: Codable & Equatable, R: Reducer>(
    _ name: String,
    initialState: @autoclosure @escaping @Sendable () -> State,
    stubs: [Stub] = [],
    @ReducerBuilder<State, Action> reducer: @escaping @Sendable () -> R
  ) where R.State == State, R.Action == Action {
    fatalError()
  }

  @available(
    *, unavailable,
    message: "specs read and compare a feature's Action: declare it Codable and Equatable ('enum Action: Codable, Equatable'), with every payload type Codable and Equatable"
  )
  public init<State: Codable & Equatable, Action, R: Reducer>(
    _ name: String,
    initialState: @autoclosure @escaping @Sendable () -> State,
    stubs: [Stub] = [],
    @ReducerBuilder<State, Action> reducer: @escaping @Sendable () -> R
  ) where R.State == State, R.Action == Action {
    fatalError()
  }

  @available(
    *, unavailable,
    message: "specs read and compare a feature's State and Action: declare both Codable and Equatable ('struct State: Codable, Equatable', 'enum Action: Codable, Equatable')"
  )
  public init<State, Action, R: Reducer>(
    _ name: String,
    initialState: @autoclosure @escaping @Sendable () -> State,
    stubs: [Stub] = [],
    @ReducerBuilder<State, Action> reducer: @escaping @Sendable () -> R
  ) where R.State == State, R.Action == Action {
    fatalError()
  }

}
