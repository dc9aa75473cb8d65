import CasePaths
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
///
/// The case `binding(BindingAction<State>)` is all an enum needs: `binding(_:)` is the case,
/// and ``binding-swift.property`` has a default that extracts it.
public protocol BindableAction<State> {
  associatedtype State
  /// The case that carries a binding action.
  static func binding(_ action: BindingAction<State>) -> Self
  /// The binding action, if this action is one.
  var binding: BindingAction<State>? { get }
}

extension BindableAction where Self: SendableMetatype {
  /// The binding action, if this action is the `binding` case: found by embedding with
  /// `binding(_:)`, as TCA does.
  public var binding: BindingAction<State>? {
    AnyCasePath(unsafe: { .binding($0) }).extract(from: self)
  }
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
    if let name = Self.bindableFields?.first(where: { $0.keyPath == keyPath })?.name {
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

extension BindingAction {
  /// A binding action whose equality is found at run time: by `==` when the value is
  /// `Equatable`, else by the values' dumps. Made by the fields of ``BindableField``'s
  /// `field(_:_:)` for values of any type, when they decode.
  static func dynamic<Value>(_ keyPath: WritableKeyPath<Root, Value>, _ value: Value) -> Self {
    Self(
      keyPath: keyPath,
      set: { $0[keyPath: keyPath] = value },
      value: value,
      isEqual: { other in
        guard let other = other as? Value else { return false }
        if let value = value as? any Equatable { return value.isEqual(toAny: other) }
        return String(customDumping: value) == String(customDumping: other)
      })
  }
}

extension Equatable {
  fileprivate func isEqual(toAny other: Any) -> Bool {
    (other as? Self) == self
  }
}

extension BindingAction: CasePathable {
  public static var allCasePaths: AllCasePaths { AllCasePaths() }

  /// The case paths of a binding action, one for each field of an ``ObservableState``, as
  /// TCA's: `\.binding.query` in `store.receive(\.binding.query)` or
  /// `store.send(\.binding.query, "swift")`.
  @dynamicMemberLookup
  public struct AllCasePaths: Sendable {
    /// The binding action that sets the field.
    public subscript<Value: Equatable & Sendable>(
      dynamicMember keyPath: WritableKeyPath<Root, Value>
    ) -> AnyCasePath<BindingAction, Value> where Root: ObservableState & SendableMetatype {
      nonisolated(unsafe) let keyPath = keyPath
      return AnyCasePath(
        embed: { .set(keyPath, $0) },
        extract: { $0.keyPath == keyPath ? $0.value as? Value : nil })
    }
  }
}

/// Applies binding actions to the state. Put it first in a `body`, so that the reducers
/// after it see the new value.
///
/// `BindingReducer()` applies the binding actions of a ``BindableAction``;
/// `BindingReducer(action: \.view)` those of the `View` actions of a ``ViewAction``, when
/// `View` is the ``BindableAction``:
///
/// ```swift
/// enum Action: ViewAction {
///   case view(View)
///   enum View: BindableAction {
///     case binding(BindingAction<State>)
///     case submitButtonTapped
///   }
/// }
///
/// var body: some ReducerOf<Self> {
///   BindingReducer(action: \.view)
///   Reduce { state, action in … }
/// }
/// ```
public struct BindingReducer<State, Action, ViewAction: BindableAction>: Reducer
where ViewAction.State == State {
  let toViewAction: (Action) -> ViewAction?

  /// Applies the binding actions of `Action`.
  public init() where Action == ViewAction {
    self.toViewAction = { $0 }
  }

  /// Applies the binding actions of the case `action` of `Action`: `\.view` for a
  /// ``ViewAction`` whose `View` is the ``BindableAction``.
  public init(action toViewAction: CaseKeyPath<Action, ViewAction>) where Action: CasePathable {
    self.toViewAction = AnyCasePath(toViewAction).extract(from:)
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    toViewAction(action)?.binding?.apply(to: &state)
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

/// A state whose bindable fields have names, so that its ``BindingAction``s can be decoded and
/// encoded: `{ FIELD: VALUE }` is `.set(\.FIELD, VALUE)`. This is how a spec sends and
/// receives `{ binding: { isComplete: true } }`.
///
/// ``ObservableState()`` makes a struct conform, listing each stored `var` by its name. By
/// hand:
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
/// The action decodes a value with the field's type, so `BindingAction` stays type-safe in
/// Swift.
public protocol BindableStateFields {
  /// The fields that binding actions may set, each with the name it has in `Codable` forms.
  static var bindableFields: [BindableField<Self>] { get }
}

/// One bindable field of a state: its name and its key path (see ``BindableStateFields``).
public struct BindableField<Root>: @unchecked Sendable {
  /// The name of the field in `Codable` forms and descriptions.
  public let name: String
  /// The field.
  public let keyPath: PartialKeyPath<Root>
  let decode: (KeyedDecodingContainer<BindingFieldKey>, BindingFieldKey) throws -> BindingAction<Root>
  let encode: (Any, inout KeyedEncodingContainer<BindingFieldKey>, BindingFieldKey) throws -> Void

  /// A bindable field whose value is `Codable`, `Equatable` and `Sendable`:
  /// `.field("isComplete", \.isComplete)`.
  public static func field<Value: Codable & Equatable & Sendable>(
    _ name: String, _ keyPath: WritableKeyPath<Root, Value>
  ) -> Self {
    Self(
      name: name,
      keyPath: keyPath,
      decode: { container, key in .set(keyPath, try container.decode(Value.self, forKey: key)) },
      encode: { value, container, key in try container.encode(value as! Value, forKey: key) })
  }

  /// A bindable field of any type, as ``ObservableState()`` lists them: whether the value is
  /// `Decodable`, `Encodable` or `Equatable` is found when a binding action of the field is
  /// decoded, encoded or compared. A field whose type is not `Decodable` fails to decode
  /// with an error that names the field and the type (and likewise for `Encodable`); values
  /// that are not `Equatable` compare by their dumps.
  public static func field<Value>(_ name: String, _ keyPath: WritableKeyPath<Root, Value>) -> Self {
    Self(
      name: name,
      keyPath: keyPath,
      decode: { container, key in
        guard let type = Value.self as? any Decodable.Type else {
          throw DecodingError.typeMismatch(
            Value.self,
            DecodingError.Context(
              codingPath: container.codingPath + [key],
              debugDescription: """
                The field "\(name)" of \(Root.self) is of type \(Value.self), which is not Decodable: \
                its binding actions cannot be decoded.
                """))
        }
        return .dynamic(keyPath, try container.decode(type, forKey: key) as! Value)
      },
      encode: { value, container, key in
        guard let value = value as? any Encodable else {
          throw EncodingError.invalidValue(
            value,
            EncodingError.Context(
              codingPath: container.codingPath + [key],
              debugDescription: """
                The field "\(name)" of \(Root.self) is of type \(Value.self), which is not Encodable: \
                its binding actions cannot be encoded.
                """))
        }
        try container.encode(value, forKey: key)
      })
  }
}

extension BindableField {
  /// A stored property that ``ObservableState()`` lists: a field when its key path is
  /// writable.
  public struct StoredProperty: @unchecked Sendable {
    let field: BindableField?

    /// The property `keyPath`, named `name`: a field of any type (as `field(_:_:)` makes
    /// one for a value that need not be `Codable`) when the key path is writable; none when
    /// it is not (a property wrapper whose value cannot be set).
    public static func property<Value>(_ name: String, _ keyPath: KeyPath<Root, Value>) -> Self {
      Self(field: (keyPath as? WritableKeyPath<Root, Value>).map { .field(name, $0) })
    }
  }

  /// The fields of `properties` whose key paths are writable, in order: the list that
  /// ``ObservableState()`` generates.
  ///
  /// ```swift
  /// static var bindableFields: [BindableField<Self>] {
  ///   BindableField<Self>.writable(.property("query", \.query), .property("results", \.results))
  /// }
  /// ```
  ///
  /// A key path's class says whether it is writable; the compiler cannot tell the macro, which
  /// sees only the declaration, whether a property wrapper's value can be set.
  public static func writable(_ properties: StoredProperty...) -> [Self] {
    properties.compactMap(\.field)
  }
}

/// The key of a binding action's one field in its `Codable` form.
public struct BindingFieldKey: CodingKey {
  public let stringValue: String
  public var intValue: Int? { nil }
  public init(stringValue: String) { self.stringValue = stringValue }
  public init?(intValue: Int) { nil }
}

extension BindingAction {
  /// The bindable fields of `Root`, or `nil` when it lists none.
  static var bindableFields: [BindableField<Root>]? {
    func fields<Fields: BindableStateFields>(of type: Fields.Type) -> [BindableField<Root>]? {
      Fields.bindableFields as? [BindableField<Root>]
    }
    guard let type = Root.self as? any BindableStateFields.Type else { return nil }
    return fields(of: type)
  }

  /// Why `Root`'s binding actions have no `Codable` form.
  static func noFieldsMessage(_ verb: String) -> String {
    """
    \(Root.self) lists no bindable fields, so its binding actions cannot be \(verb): mark the \
    struct @ObservableState, which lists its stored properties.
    """
  }
}

extension BindingAction: Encodable {
  /// `{ FIELD: VALUE }`, FIELD one of `Root`'s bindable fields (``BindableStateFields``).
  public func encode(to encoder: any Encoder) throws {
    guard let fields = Self.bindableFields else {
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(codingPath: encoder.codingPath, debugDescription: Self.noFieldsMessage("encoded")))
    }
    guard let field = fields.first(where: { $0.keyPath == keyPath }) else {
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

extension BindingAction: Decodable {
  /// From `{ FIELD: VALUE }`, FIELD one of `Root`'s bindable fields (``BindableStateFields``).
  public init(from decoder: any Decoder) throws {
    guard let fields = Self.bindableFields else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: decoder.codingPath, debugDescription: Self.noFieldsMessage("decoded")))
    }
    let container = try decoder.container(keyedBy: BindingFieldKey.self)
    let names = fields.map(\.name)
    guard container.allKeys.count == 1, let key = container.allKeys.first else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath,
          debugDescription: """
            A binding action of \(Root.self) sets one field: { FIELD: VALUE }, FIELD one of \
            \(names.joined(separator: ", ")); found \(container.allKeys.count) fields.
            """))
    }
    guard let field = fields.first(where: { $0.name == key.stringValue }) else {
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
