import CustomDump

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

  /// `.set(\.isComplete, true)`, as TCA writes a binding action.
  public var description: String {
    ".set(\\.\(fieldName), \(describe(value)))"
  }

  /// The field's name: from ``BindableStateFields`` when `Root` lists its fields, else from the
  /// key path (`\Todo.State.isComplete` → `isComplete`).
  var fieldName: String {
    if let fields = Root.self as? any BindableStateFields.Type,
      let name = fields.bindableFieldName(of: keyPath)
    {
      return name
    }
    var text = String(describing: keyPath)
    let root = String(describing: Root.self)
    if let range = text.range(of: "\\\(root).") ?? text.range(of: ".\(root).") {
      text = String(text[range.upperBound...])
    }
    return text
  }
}

extension BindingAction: CustomDumpStringConvertible {
  public var customDumpDescription: String { description }
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

// MARK: - Codable bindings

/// A state whose bindable fields have names, so that its ``BindingAction``s are `Codable`:
/// `{ FIELD: VALUE }` is `.set(\.FIELD, VALUE)`. This is how a spec sends and receives
/// `{ binding: { isComplete: true } }`.
///
/// ```swift
/// struct State: Equatable, Codable, BindableStateFields {
///   var description = ""
///   var isComplete = false
///
///   static let bindableFields: [BindableField<Self>] = [
///     .field("description", \.description),
///     .field("isComplete", \.isComplete),
///   ]
/// }
/// ```
///
/// The field's value type must be `Codable`, `Equatable` and `Sendable`: the action decodes it
/// with the field's type, so `BindingAction` stays type-safe in Swift.
public protocol BindableStateFields {
  /// The fields that binding actions may set, each with the name it has in `Codable` forms.
  static var bindableFields: [BindableField<Self>] { get }
}

extension BindableStateFields {
  static func bindableFieldName(of keyPath: AnyKeyPath) -> String? {
    bindableFields.first { $0.keyPath == keyPath }?.name
  }
}

/// One bindable field of a state: its name and its key path (see ``BindableStateFields``).
public struct BindableField<Root>: @unchecked Sendable {
  /// The name of the field in `Codable` forms and descriptions.
  public let name: String
  /// The field.
  public let keyPath: PartialKeyPath<Root>
  let decode: (KeyedDecodingContainer<BindingFieldKey>, BindingFieldKey) throws -> BindingAction<Root>
  let encode: (Any, inout KeyedEncodingContainer<BindingFieldKey>, BindingFieldKey) throws -> Void

  /// A bindable field: `.field("isComplete", \.isComplete)`.
  public static func field<Value: Codable & Equatable & Sendable>(
    _ name: String, _ keyPath: WritableKeyPath<Root, Value>
  ) -> Self {
    Self(
      name: name,
      keyPath: keyPath,
      decode: { container, key in .set(keyPath, try container.decode(Value.self, forKey: key)) },
      encode: { value, container, key in try container.encode(value as! Value, forKey: key) })
  }
}

/// The key of a binding action's one field in its `Codable` form.
public struct BindingFieldKey: CodingKey {
  public let stringValue: String
  public var intValue: Int? { nil }
  public init(stringValue: String) { self.stringValue = stringValue }
  public init?(intValue: Int) { nil }
}

extension BindingAction: Encodable where Root: BindableStateFields {
  /// `{ FIELD: VALUE }`.
  public func encode(to encoder: any Encoder) throws {
    guard let field = Root.bindableFields.first(where: { $0.keyPath == keyPath }) else {
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: encoder.codingPath,
          debugDescription: """
            \(keyPath) is not a bindable field of \(Root.self): add it to "bindableFields" to encode \
            its binding actions.
            """))
    }
    var container = encoder.container(keyedBy: BindingFieldKey.self)
    try field.encode(value, &container, BindingFieldKey(stringValue: field.name))
  }
}

extension BindingAction: Decodable where Root: BindableStateFields {
  /// From `{ FIELD: VALUE }`, FIELD one of `Root.bindableFields`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: BindingFieldKey.self)
    let names = Root.bindableFields.map(\.name)
    guard container.allKeys.count == 1, let key = container.allKeys.first else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath,
          debugDescription: """
            A binding action of \(Root.self) sets one field: { FIELD: VALUE }, FIELD one of \
            \(names.joined(separator: ", ")); found \(container.allKeys.count) fields.
            """))
    }
    guard let field = Root.bindableFields.first(where: { $0.name == key.stringValue }) else {
      throw DecodingError.keyNotFound(
        key,
        DecodingError.Context(
          codingPath: decoder.codingPath,
          debugDescription: """
            "\(key.stringValue)" is not a bindable field of \(Root.self); the bindable fields are \
            \(names.joined(separator: ", ")).
            """))
    }
    self = try field.decode(container, key)
  }
}

// MARK: - onChange

extension Reducer {
  /// Runs `reducer` after this one when a value of the state changes, as TCA's `onChange`.
  ///
  /// ```swift
  /// BindingReducer()
  ///   .onChange(of: \.isComplete) { oldValue, newValue in
  ///     Reduce { state, action in
  ///       .send(.completionChanged(newValue))
  ///     }
  ///   }
  /// ```
  ///
  /// - Parameters:
  ///   - toValue: The value to watch.
  ///   - reducer: The reducer to run when the value after this reducer differs from the value
  ///     before it, built from the two values.
  public func onChange<Value: Equatable, Change: Reducer>(
    of toValue: @escaping (State) -> Value,
    @ReducerBuilder<State, Action> _ reducer: @escaping (_ oldValue: Value, _ newValue: Value) -> Change
  ) -> _OnChangeReducer<Self, Value, Change> where Change.State == State, Change.Action == Action {
    _OnChangeReducer(base: self, toValue: toValue, reducer: reducer)
  }
}

/// The reducer of ``Reducer/onChange(of:_:)``.
public struct _OnChangeReducer<Base: Reducer, Value: Equatable, Change: Reducer>: Reducer
where Change.State == Base.State, Change.Action == Base.Action {
  let base: Base
  let toValue: (Base.State) -> Value
  let reducer: (Value, Value) -> Change

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let oldValue = toValue(state)
    let baseEffects = base.reduce(into: &state, action: action)
    let newValue = toValue(state)
    guard oldValue != newValue else { return baseEffects }
    return .merge(baseEffects, reducer(oldValue, newValue).reduce(into: &state, action: action))
  }
}
