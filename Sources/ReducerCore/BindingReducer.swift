/// An action that sets a field of the state: a form's text field or toggle writing
/// straight into the state, the pattern of TCA's `BindableAction`.
///
/// ```swift
/// enum Action: BindableAction {
///   case binding(BindingAction<State>)
///   case submitTapped
/// }
///
/// var body: some Reducer<State, Action> {
///   BindingReducer()
///   Reduce { state, action in … }   // sees .binding actions after the field is set
/// }
///
/// await store.send(.binding(.set(\.query, "swift"))) { $0.query = "swift" }
/// ```
public protocol BindableAction {
  associatedtype State
  /// The case that carries a binding action.
  static func binding(_ action: BindingAction<State>) -> Self
  /// The binding action, if this action is one.
  var binding: BindingAction<State>? { get }
}

/// Sets one field of `Root` to a value.
public struct BindingAction<Root>: @unchecked Sendable, Equatable, CustomStringConvertible {
  /// The field that the action sets.
  public let keyPath: PartialKeyPath<Root>
  let set: (inout Root) -> Void
  let value: Any
  let isEqual: (Any) -> Bool

  /// An action that sets `keyPath` to `value`.
  public static func set<Value: Equatable & Sendable>(_ keyPath: WritableKeyPath<Root, Value>, _ value: Value) -> Self {
    Self(
      keyPath: keyPath,
      set: { $0[keyPath: keyPath] = value },
      value: value,
      isEqual: { ($0 as? Value) == value })
  }

  /// Applies the action to a value.
  public func apply(to root: inout Root) {
    set(&root)
  }

  /// Whether the action sets the given field.
  public static func ~= <Value>(keyPath: WritableKeyPath<Root, Value>, action: Self) -> Bool {
    action.keyPath == keyPath
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.keyPath == rhs.keyPath && lhs.isEqual(rhs.value)
  }

  public var description: String {
    ".set(\(keyPath), \(String(reflecting: value)))"
  }
}

/// Applies binding actions to the state. Put it first in a `body`, so that the reducers
/// after it see the new value.
public struct BindingReducer<State, Action: BindableAction>: Reducer where Action.State == State {
  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    action.binding?.apply(to: &state)
    return .none
  }
}

extension BindableAction {
  /// The binding action of `binding(_:)`, for enums whose `binding` case is the only one carrying it.
  public static func set<Value: Equatable & Sendable>(_ keyPath: WritableKeyPath<State, Value>, _ value: Value) -> Self {
    .binding(.set(keyPath, value))
  }
}
