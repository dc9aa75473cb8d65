import ReducerCore
import SpecYAML

/// A feature that specs can describe: a name, a default state, a reducer, and stubs for
/// the dependencies the reducer uses.
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
/// A spec's `feature:` names it; its `initialState:` assigns onto `initialState`, and its
/// `dependencies:` stub what `stubs` lists (and the built-ins: `uuid`, `date`, `clock`,
/// `random`, `locale`, `timeZone`, `calendar`). State and actions are read and compared
/// through their `Codable` and `Equatable` conformances.
public struct Feature: Sendable {
  /// The name specs give in `feature:`.
  public let name: String
  /// The feature's own stubs (the built-ins come on top).
  public let stubs: [Stub]
  /// Its state and action types and its default state, for `reducer-spec features` and
  /// `reducer-spec schema`.
  package let types: FeatureTypes
  let bind:
    @MainActor @Sendable (_ spec: SpecFile, _ scenario: ScenarioSpec, _ feature: Feature, _ memo: DecodeMemo) ->
      BindResult

  /// A feature for specs.
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
    self.name = name
    self.stubs = stubs
    self.types = FeatureTypes(
      state: DecodableType(State.self), action: DecodableType(Action.self), defaultState: { try YAMLEncoder().encode(initialState()) })
    self.bind = { spec, scenario, feature, memo in
      TypedScenario<R>.bind(
        spec: spec, scenario: scenario, feature: feature, initialState: initialState, reducer: reducer, memo: memo)
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

  /// Every stub a spec of this feature may name: the feature's, then the built-ins.
  var allStubs: [Stub] { stubs + BuiltInStubs.all }
}

/// What authoring commands read of a feature: its types, whose shapes they probe, and its
/// default state as YAML.
package struct FeatureTypes: Sendable {
  package let state: DecodableType
  package let action: DecodableType
  package let defaultState: @Sendable () throws -> YAMLNode
}

/// A `Decodable` type, passed between isolation domains: a metatype holds no state.
package struct DecodableType: @unchecked Sendable {
  package let type: any Decodable.Type

  init(_ type: any Decodable.Type) {
    self.type = type
  }
}
