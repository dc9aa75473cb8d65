/// Builds a reducer from the reducers listed in a `body`, run in order.
@resultBuilder
public enum ReducerBuilder<State, Action> {
  @inlinable
  public static func buildBlock() -> EmptyReducer<State, Action> {
    EmptyReducer()
  }

  @inlinable
  public static func buildExpression<R: Reducer>(_ reducer: R) -> R where R.State == State, R.Action == Action {
    reducer
  }

  @inlinable
  public static func buildPartialBlock<R: Reducer>(first: R) -> R where R.State == State, R.Action == Action {
    first
  }

  @inlinable
  public static func buildPartialBlock<R0: Reducer, R1: Reducer>(
    accumulated: R0, next: R1
  ) -> _Sequence<R0, R1> where R0.State == State, R0.Action == Action {
    _Sequence(accumulated, next)
  }

  @inlinable
  public static func buildOptional<R: Reducer>(_ wrapped: R?) -> _Optional<R>
  where R.State == State, R.Action == Action {
    _Optional(wrapped)
  }

  @inlinable
  public static func buildEither<R0: Reducer, R1: Reducer>(first reducer: R0) -> _Conditional<R0, R1>
  where R0.State == State, R0.Action == Action {
    .first(reducer)
  }

  @inlinable
  public static func buildEither<R0: Reducer, R1: Reducer>(second reducer: R1) -> _Conditional<R0, R1>
  where R0.State == State, R0.Action == Action {
    .second(reducer)
  }

  @inlinable
  public static func buildArray<R: Reducer>(_ reducers: [R]) -> _Array<R> where R.State == State, R.Action == Action {
    _Array(reducers)
  }

  @inlinable
  public static func buildLimitedAvailability<R: Reducer>(_ wrapped: R) -> Reduce<State, Action>
  where R.State == State, R.Action == Action {
    Reduce(wrapped)
  }

  /// Two reducers, run one after the other; their effects are merged.
  public struct _Sequence<R0: Reducer, R1: Reducer>: Reducer
  where R0.State == R1.State, R0.Action == R1.Action {
    @usableFromInline let r0: R0
    @usableFromInline let r1: R1

    @inlinable
    init(_ r0: R0, _ r1: R1) {
      self.r0 = r0
      self.r1 = r1
    }

    @inlinable
    public func reduce(into state: inout R0.State, action: R0.Action) -> Effect<R0.Action> {
      let first = r0.reduce(into: &state, action: action)
      let second = r1.reduce(into: &state, action: action)
      return first.merge(with: second)
    }
  }

  public struct _Optional<Wrapped: Reducer>: Reducer {
    @usableFromInline let wrapped: Wrapped?

    @inlinable
    init(_ wrapped: Wrapped?) {
      self.wrapped = wrapped
    }

    @inlinable
    public func reduce(into state: inout Wrapped.State, action: Wrapped.Action) -> Effect<Wrapped.Action> {
      wrapped?.reduce(into: &state, action: action) ?? .none
    }
  }

  public enum _Conditional<First: Reducer, Second: Reducer>: Reducer
  where First.State == Second.State, First.Action == Second.Action {
    case first(First)
    case second(Second)

    @inlinable
    public func reduce(into state: inout First.State, action: First.Action) -> Effect<First.Action> {
      switch self {
      case .first(let first): return first.reduce(into: &state, action: action)
      case .second(let second): return second.reduce(into: &state, action: action)
      }
    }
  }

  public struct _Array<Element: Reducer>: Reducer {
    @usableFromInline let reducers: [Element]

    @inlinable
    init(_ reducers: [Element]) {
      self.reducers = reducers
    }

    @inlinable
    public func reduce(into state: inout Element.State, action: Element.Action) -> Effect<Element.Action> {
      reducers.reduce(Effect.none) { $0.merge(with: $1.reduce(into: &state, action: action)) }
    }
  }
}
