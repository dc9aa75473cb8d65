extension Optional: Reducer where Wrapped: Reducer {
  public typealias Body = Never

  /// Runs the wrapped reducer, if there is one, as TCA's `Optional` reducer: a reducer that
  /// may be absent is still a reducer (`if let child { child }` in a `body`, or a stored
  /// `Child?`).
  public func reduce(into state: inout Wrapped.State, action: Wrapped.Action) -> Effect<Wrapped.Action> {
    switch self {
    case .some(let wrapped): return wrapped.reduce(into: &state, action: action)
    case .none: return .none
    }
  }
}
