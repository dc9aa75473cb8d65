import Dependencies

extension Reducer {
  /// Runs this reducer with a dependency set to a value, as TCA's `dependency(_:_:)`: the
  /// reducer, the reducers it is made of, and the effects they return see the value.
  ///
  /// ```swift
  /// Feature()
  ///   .dependency(\.continuousClock, ImmediateClock())
  /// ```
  public func dependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value>,
    _ value: Value
  ) -> _DependencyKeyWritingReducer<Self> {
    _DependencyKeyWritingReducer(base: self) { $0[keyPath: keyPath] = value }
  }

  /// Runs this reducer with a dependency, whose key is its own type, set to a value, as TCA's
  /// `dependency(_:)`: `.dependency(APIClient.mock)` for `APIClient: TestDependencyKey`.
  public func dependency<Value: TestDependencyKey>(_ value: Value) -> _DependencyKeyWritingReducer<Self>
  where Value.Value == Value {
    _DependencyKeyWritingReducer(base: self) { $0[Value.self] = value }
  }

  /// Runs this reducer with a dependency changed by `transform`, as TCA's
  /// `transformDependency(_:transform:)`: the reducer and the effects it returns see the change.
  ///
  /// ```swift
  /// Feature()
  ///   .transformDependency(\.apiClient) { $0.fetch = { _ in .mock } }
  /// ```
  public func transformDependency<V>(
    _ keyPath: WritableKeyPath<DependencyValues, V>,
    transform: @escaping (_ dependency: inout V) -> Void
  ) -> _DependencyKeyWritingReducer<Self> {
    _DependencyKeyWritingReducer(base: self) { transform(&$0[keyPath: keyPath]) }
  }
}

/// The reducer of ``Reducer/dependency(_:_:)`` and ``Reducer/transformDependency(_:transform:)``:
/// the base reducer run inside `withDependencies`.
public struct _DependencyKeyWritingReducer<Base: Reducer>: Reducer {
  let base: Base
  let update: (inout DependencyValues) -> Void

  init(base: Base, update: @escaping (inout DependencyValues) -> Void) {
    self.base = base
    self.update = update
  }

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    withDependencies {
      update(&$0)
    } operation: {
      base.reduce(into: &state, action: action)
    }
  }

  /// Another dependency set on the same reducer: one `withDependencies` for both. As with
  /// nested modifiers, where both set the same dependency, the one nearer the base wins.
  public func dependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value>,
    _ value: Value
  ) -> Self {
    Self(base: base) { [update] values in
      values[keyPath: keyPath] = value
      update(&values)
    }
  }

  /// Another dependency changed on the same reducer: one `withDependencies` for both.
  public func transformDependency<V>(
    _ keyPath: WritableKeyPath<DependencyValues, V>,
    transform: @escaping (_ dependency: inout V) -> Void
  ) -> Self {
    Self(base: base) { [update] values in
      transform(&values[keyPath: keyPath])
      update(&values)
    }
  }
}
