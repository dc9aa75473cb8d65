import Dependencies
import Foundation
import SpecYAML

/// A feature that specs can describe: a name, a default state, the store that runs it, and
/// stubs for the dependencies it uses.
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
  /// Its store's ``SpecStore/waitForCancelledEffects(timeout:)``.
  package let waitForCancelledEffects: @MainActor @Sendable (Duration) async -> Void
  let bind:
    @MainActor @Sendable (_ spec: SpecFile, _ scenario: ScenarioSpec, _ feature: Feature, _ memo: DecodeMemo) ->
      BindResult

  /// A feature for specs, driven through a store of any architecture.
  ///
  /// ```swift
  /// Feature("Counter", initialState: Counter.State()) { initialState, prepareDependencies, location in
  ///   MyTestStore(initialState: initialState, reducer: counter, prepareDependencies: prepareDependencies)
  /// }
  /// ```
  ///
  /// A ReducerCore reducer is registered with `Feature(_:initialState:stubs:reducer:)`
  /// instead (module `ReducerCoreSpecs`), and a Redux store with
  /// `Feature(_:initialState:stubs:reducer:middlewares:actions:)` (module `ReduxSpecs`).
  ///
  /// - Parameters:
  ///   - name: The name specs give in `feature:`.
  ///   - initialState: The default state that `initialState:` assignments apply to.
  ///   - stubs: A stub for every dependency the feature uses.
  ///   - userInfo: Values that the feature's state and action types read from
  ///     `Decoder.userInfo` as a spec's values are decoded into them.
  ///   - store: Makes the store for one run of a scenario, from its initial state, the
  ///     dependencies it runs with (the scenario's stubs and clocks, to apply to the store's
  ///     `DependencyValues`) and the scenario's place in its file (where to report what fails
  ///     at the end).
  public init<Store: SpecStore>(
    _ name: String,
    initialState: @autoclosure @escaping @Sendable () -> Store.State,
    stubs: [Stub] = [],
    userInfo: [CodingUserInfoKey: any Sendable] = [:],
    store: @escaping MakeStore<Store>
  ) where Store.State: SendableMetatype {
    self.name = name
    self.stubs = stubs
    self.types = FeatureTypes(
      state: DecodableType(Store.State.self), action: DecodableType(Store.Action.self), userInfo: userInfo,
      defaultState: {
        // In storages of its own, as a scenario's state is made.
        let values = SharedStateScope.fresh(Store.self)
        return try withDependencies { $0 = values } operation: { try YAMLEncoder().encode(initialState()) }
      },
      sharedFields: {
        let values = SharedStateScope.fresh(Store.self)
        return withDependencies { $0 = values } operation: { Store.sharedFields(of: initialState()) }
      })
    self.waitForCancelledEffects = { await Store.waitForCancelledEffects(timeout: $0) }
    self.bind = { spec, scenario, feature, memo in
      TypedScenario<Store>.bind(
        spec: spec, scenario: scenario, feature: feature, initialState: initialState, newStore: store, memo: memo)
    }
  }

  /// Every stub a spec of this feature may name: the feature's, then the built-ins.
  var allStubs: [Stub] { stubs + BuiltInStubs.all }
}

/// What authoring commands read of a feature: its types, whose shapes they probe, and its
/// default state as YAML.
package struct FeatureTypes: Sendable {
  package let state: DecodableType
  package let action: DecodableType
  /// What the types read from `Decoder.userInfo` (a Redux feature's action types, by name).
  package let userInfo: [CodingUserInfoKey: any Sendable]
  package let defaultState: @Sendable () throws -> YAMLNode
  /// The default state's fields that hold shared values kept under a key.
  package let sharedFields: @Sendable () -> [SharedStateField]
}

/// A `Decodable` type, passed between isolation domains: a metatype holds no state.
package struct DecodableType: @unchecked Sendable {
  package let type: any Decodable.Type

  package init(_ type: any Decodable.Type) {
    self.type = type
  }
}

/// Makes a feature's store for one run of a scenario: from the initial state, the
/// dependencies to run with (apply them to the store's `DependencyValues`), and the
/// scenario's place in its file.
public typealias MakeStore<Store: SpecStore> =
  @MainActor @Sendable (
    _ initialState: Store.State, _ prepareDependencies: @escaping (inout DependencyValues) -> Void,
    _ location: StepLocation
  ) -> Store
