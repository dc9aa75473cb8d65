/// What a step says of the state: how the expected state is worked out from the state
/// the step starts from and the state the action actually left.
///
/// `TestStore`'s `assert:` closures are one kind (``update(_:)``): they change a copy of
/// the starting state. A runner that describes the expected state another way can give
/// its own, and may tell a match without building the expected state: when it knows that
/// `start` with its changes equals `actual`, it can return `actual` itself.
///
/// ```swift
/// await store.send(.increment, expectation: StateExpectation { start, actual in
///   var expected = start
///   expected.count += 1
///   return expected
/// })
/// ```
///
/// Not public API: it exists for the spec runner and the recorder in this package, as the
/// `TestStore` overloads that take it (`send(_:expectation:)`, `receive(_:timeout:expectation:)`,
/// `receive(_:expecting:timeout:expectation:)`) do.
package struct StateExpectation<State> {
  /// The expected state, from `start` (the state before the action, or after it when
  /// exhaustivity is off) and `actual` (the state after the action).
  package let expected: (_ start: State, _ actual: State) throws -> State

  package init(_ expected: @escaping (_ start: State, _ actual: State) throws -> State) {
    self.expected = expected
  }

  /// The expectation of a trailing closure that changes a copy of the starting state.
  package static func update(_ update: @escaping (_ state: inout State) throws -> Void) -> Self {
    Self { start, _ in
      var state = start
      try update(&state)
      return state
    }
  }

  /// The same for a trailing closure that may be absent: `nil` without one. A function, so
  /// that callers need no `map(StateExpectation.update)`, whose closure would capture
  /// `State.Type` (not `Sendable`) in the caller's isolation.
  package static func update(_ update: ((_ state: inout State) throws -> Void)?) -> Self? {
    guard let update else { return nil }
    return .update(update)
  }
}
