// The macros of ReducerCore, as The Composable Architecture declares them. Their
// implementations are in the ReducerCoreMacros compiler plugin.

/// Makes a struct or an enum a ``Reducer``.
///
/// On a struct, as TCA's `@Reducer`:
///
/// ```swift
/// @Reducer
/// struct Counter {
///   @ObservableState
///   struct State: Equatable { var count = 0 }
///   enum Action { case incrementButtonTapped }
///
///   var body: some ReducerOf<Self> {
///     Reduce { state, action in
///       state.count += 1
///       return .none
///     }
///   }
/// }
/// ```
///
/// - adds the conformance to ``Reducer`` (unless the struct declares it);
/// - adds `@CasePathable` to a nested `enum Action`, and `@CasePathable @dynamicMemberLookup` to
///   a nested `enum State`, unless they have them;
/// - adds `@ReducerBuilder<Self.State, Self.Action>` to `var body`;
/// - adds an empty `State` (`@ObservableState`, `Codable`, `Equatable`, `Hashable`,
///   `Sendable`) and an empty `Action` when the struct has neither them nor a body of its
///   own, and `let body = EmptyReducer<State, Action>()` when it has no body and no
///   `reduce(into:action:)`.
///
/// On an enum whose cases hold child reducers, it makes a reducer of the cases, as TCA's:
///
/// ```swift
/// @Reducer
/// enum Destination {
///   case addContact(AddContact)
///   case alert(AlertState<Contacts.Action.Alert>)
/// }
/// extension Destination.State: Equatable {}
/// ```
///
/// generates `State` (`@CasePathable @dynamicMemberLookup @ObservableState`, conforming to
/// ``CaseReducerState``) with a case `addContact(AddContact.State)` for each reducer case,
/// `Action` (`@CasePathable`) with `addContact(AddContact.Action)`, and a `static var body`
/// that runs each case's reducer on its case (`ifCaseLet`); the enum conforms to
/// ``CaseReducer`` and ``Reducer``. A case that holds an `AlertState<Action>` or a
/// `ConfirmationDialogState<Action>` keeps that state and has the button action as its
/// action (it is marked ``ReducerCaseEphemeral()``); a case with several values or none, or
/// marked ``ReducerCaseIgnored()``, keeps its values as state and has no action
/// (`Swift.Never`). A case's reducer is built with `Child()`, or with the case's default
/// value: `case meeting(Meeting = Meeting(context: .sheet))`. A `State` or an `Action`
/// written in the enum is kept as written.
@attached(member, names: named(State), named(Action), named(init), named(body))
@attached(memberAttribute)
@attached(extension, conformances: Reducer, CaseReducer)
public macro Reducer() = #externalMacro(module: "ReducerCoreMacros", type: "ReducerMacro")

/// ``Reducer()`` with conformances for the `State` and `Action` that it generates for an enum
/// reducer, as TCA's deprecated form: `@Reducer(state: .equatable, action: .equatable)`.
@attached(member, names: named(State), named(Action), named(init), named(body))
@attached(memberAttribute)
@attached(extension, conformances: Reducer, CaseReducer)
@available(*, deprecated, message: "Define your conformance using an extension, instead")
public macro Reducer(state: _SynthesizedConformance..., action: _SynthesizedConformance...) =
  #externalMacro(module: "ReducerCoreMacros", type: "ReducerMacro")

/// A conformance that ``Reducer(state:action:)`` adds to the `State` or `Action` it generates.
@available(*, deprecated, message: "Define your conformance using an extension, instead")
public struct _SynthesizedConformance: Sendable {}

@available(*, deprecated, message: "Define your conformance using an extension, instead")
extension _SynthesizedConformance {
  /// `Codable`.
  public static let codable = Self()
  /// `Decodable`.
  public static let decodable = Self()
  /// `Encodable`.
  public static let encodable = Self()
  /// `Equatable`.
  public static let equatable = Self()
  /// `Hashable`.
  public static let hashable = Self()
  /// `Sendable`.
  public static let sendable = Self()
}

/// Marks a case of an enum reducer that holds ephemeral state (an ``AlertState`` or a
/// ``ConfirmationDialogState``): its state is kept as it is, and its action is the button
/// action type. ``Reducer()`` adds it to such cases itself.
///
/// ```swift
/// @Reducer
/// enum Destination {
///   @ReducerCaseEphemeral
///   case alert(AlertState<Alert>)
/// }
/// ```
@attached(peer, names: named(_))
public macro ReducerCaseEphemeral() = #externalMacro(module: "ReducerCoreMacros", type: "ReducerCaseEphemeralMacro")

/// Marks a case of an enum reducer that holds plain data rather than a child reducer: its
/// state is the case's values, and it has no action and no reducer.
///
/// ```swift
/// @Reducer
/// enum Path {
///   case detail(SyncUpDetail)
///   @ReducerCaseIgnored
///   case meeting(id: Meeting.ID)
/// }
/// ```
@attached(peer, names: named(_))
public macro ReducerCaseIgnored() = #externalMacro(module: "ReducerCoreMacros", type: "ReducerCaseIgnoredMacro")

/// Makes a struct or an enum an ``ObservableState``, as TCA's `@ObservableState`.
///
/// ReducerCore has no views, so nothing observes a state: the macro adds what a state needs
/// without them. On a struct:
///
/// - the conformances to ``ObservableState`` and ``BindableStateFields``, with
///   `bindableFields` listing by its name every stored `var` whose key path is writable (not
///   a `lazy var`, nor a property wrapper whose value cannot be set), so that its
///   ``BindingAction``s are `Codable` as `{ FIELD: VALUE }`;
/// - when the struct lists `Codable` or `Decodable` in its declaration and declares no
///   `CodingKeys`, decoding in which every stored property with an initial value (or of an
///   optional type) may be missing and then takes that value, as ``CodableDefaults()``
///   generates it.
///
/// ```swift
/// @ObservableState
/// struct State: Equatable, Codable {
///   var todos: IdentifiedArrayOf<Todo.State> = []
///   var filter = Filter.all
///   @Presents var alert: AlertState<Action.Alert>?
/// }
/// ```
///
/// On an enum, the conformance to ``ObservableState``. It cannot be applied to a class or an
/// actor. A property written `@ObservationStateIgnored` is a stored property like any other.
@attached(member, names: named(bindableFields))
@attached(
  extension, conformances: ObservableState, BindableStateFields,
  names: named(CodingKeys), named(init(from:)), named(encode(to:)))
public macro ObservableState() = #externalMacro(module: "ReducerCoreMacros", type: "ObservableStateMacro")

/// Marks a property of an ``ObservableState()`` struct that TCA does not observe. ReducerCore
/// observes nothing, so it changes nothing: the property is stored, bindable and coded as
/// the others.
@attached(peer, names: named(_))
public macro ObservationStateIgnored() =
  #externalMacro(module: "ReducerCoreMacros", type: "ObservationStateIgnoredMacro")

/// An optional child that a feature presents (a sheet, an alert, a destination), stored in a
/// ``PresentationState``, as TCA's `@Presents`.
///
/// ```swift
/// @ObservableState
/// struct State {
///   @Presents var destination: Destination.State?
/// }
///
/// Reduce { … }
///   .ifLet(\.$destination, action: \.destination)
/// ```
///
/// The property reads and writes the child's state (`nil` when nothing is presented; no
/// `= nil` needed, and the memberwise initializer takes it with a default of `nil`).
/// `$destination` is the `PresentationState`, for `ifLet` and for `$destination[case:
/// \.addContact]`. The storage is `_destination`, the name that dumps and diffs show. A
/// state may present itself: `@Presents var child: State?`.
///
/// In a `Codable` struct, the property is coded under its own name, `destination`, when
/// ``ObservableState()`` or ``CodableDefaults()`` generates the coding; the compiler's own
/// `Codable` synthesis would use `_destination`.
@attached(accessor, names: named(init), named(get), named(set))
@attached(peer, names: prefixed(`$`), prefixed(_))
public macro Presents() = #externalMacro(module: "ReducerCoreMacros", type: "PresentsMacro")

/// `Codable` for a struct in which a missing property takes its initial value, so that a spec
/// writes only what differs from the defaults.
///
/// ```swift
/// @CodableDefaults
/// struct Item: Codable, Equatable {
///   var name: String
///   var quantity = 1
///   var note: String?
/// }
/// // { "name": "Milk" } decodes as Item(name: "Milk", quantity: 1, note: nil)
/// ```
///
/// The struct must list `Codable`, `Decodable` or `Encodable` in its declaration. In an
/// extension, the macro adds:
///
/// - `CodingKeys`, an enum with a case for each stored property that is coded, named as the
///   property (a `@Presents var destination` is `destination`);
/// - `init(from:)`, unless the struct has its own, when it is `Decodable`: a property with an
///   initial value, or of an optional type, may be missing and takes that value (or `nil`);
///   any other must be there. The types come from the assignments, so `var quantity = 1`
///   needs no annotation. A `let` with an initial value (which a decoder cannot set) and a
///   `lazy var` are neither decoded nor encoded, nor is a property wrapper's property that
///   its attribute initializes (`@Clamped(0...10) var level: Int`, with no initial value).
///   A property with an initial value has it when `init(from:)` starts, as in any
///   initializer of the struct, and keeps it when its key is missing; the generated code
///   names neither it nor a type, which may not be visible from the extension (`Path` in
///   `StackState<Path.State>()`, nested in the feature around the state). Shared state is
///   coded: a `@Shared` with a key decodes into its reference (writing through the key), one
///   without a key as a value of its own, and a `@SharedReader` with a key, first, is
///   checked against its key's value;
/// - `encode(to:)`, unless the struct has its own, when it is `Encodable`, with the same keys
///   (an optional is left out when `nil`, a `@Presents` property is written `null`).
///
/// Nothing is generated when the struct declares its own `CodingKeys`. Decoders still reject
/// keys they were not asked for (the spec runner's YAML decoder does). The generated
/// extension keeps the memberwise initializer.
@attached(extension, names: named(CodingKeys), named(init(from:)), named(encode(to:)))
public macro CodableDefaults() = #externalMacro(module: "ReducerCoreMacros", type: "CodableDefaultsMacro")
