import Dependencies

/// The dependencies in which a feature's state is made: for binding a scenario, for one run
/// of it, and for `features`' default state.
///
/// A state can hold shared values (`@Shared`), references into storages that the
/// dependencies hold. Binding makes states in a test context with storages that only
/// binding uses, so that a key's initial value, or an `initialState:` decoded through a key,
/// never reaches real user defaults or files. Once a state type is seen to hold shared
/// values, each scenario of it is bound in storages of its own, and each run makes its state
/// anew in storages of its own, seeded with the scenario's `shared:`.
@MainActor
enum SharedStateScope {
  /// Scratch dependencies for each store type, kept for the process.
  private static var scratch: [ObjectIdentifier: DependencyValues] = [:]
  /// The state types seen to hold shared values.
  private static var holders: Set<ObjectIdentifier> = []

  /// Whether `State` was seen to hold shared values.
  static func holdsSharedValues<State>(_: State.Type) -> Bool {
    holders.contains(ObjectIdentifier(State.self))
  }

  /// Makes a state with `body` in binding's dependencies for `Store`; returns it and whether
  /// it holds shared values (whether making it made any, or its type was seen to hold them).
  static func binding<Store: SpecStore>(
    _: Store.Type, _ body: () -> Store.State
  ) -> (state: Store.State, holdsSharedValues: Bool) {
    let type = ObjectIdentifier(Store.State.self)
    let values: DependencyValues
    if holders.contains(type) {
      values = fresh(Store.self)
    } else if let kept = scratch[ObjectIdentifier(Store.self)] {
      values = kept
    } else {
      values = fresh(Store.self)
      scratch[ObjectIdentifier(Store.self)] = values
    }
    let made = Store.sharedValuesMade
    let state = withDependencies({ $0 = values }, operation: body)
    if Store.sharedValuesMade != made { holders.insert(type) }
    return (state, holders.contains(type))
  }

  /// A test context with empty storages of shared state of its own.
  nonisolated static func fresh<Store: SpecStore>(_: Store.Type) -> DependencyValues {
    var values = DependencyValues._current
    values.context = .test
    Store.isolateSharedState(&values)
    return values
  }
}
