import CasePaths
import CustomDump
import Dependencies
import IssueReporting

/// The state of an optional child that a feature presents (a sheet, an alert, a destination),
/// as TCA's: `nil` when nothing is presented. The ``Presents()`` macro stores a property in one.
///
/// ```swift
/// @ObservableState
/// struct State: Equatable {
///   @Presents var destination: Destination.State?
/// }
/// ```
///
/// `$destination` is the `PresentationState` itself, for
/// ``Reducer/ifLet(_:action:destination:fileID:filePath:line:column:)``. The child's state is
/// kept in a box that is copied on write, so a state can present itself
/// (`@Presents var child: State?`). `Codable` as the optional child: `null` or its state.
///
/// It is also a property wrapper, `@PresentationState var destination: Destination.State?`,
/// as in TCA before ``Presents()``.
@propertyWrapper
public struct PresentationState<State> {
  private var storage: Storage
  /// The child that `ifLet` last saw presented: when a reducer outside `ifLet` dismisses or
  /// replaces it, the next action through `ifLet` cancels its effects. Equality, hashing,
  /// dumps and coding leave it out.
  var presentedID: NavigationID?

  /// A presentation of `wrappedValue` (`nil`: nothing presented).
  ///
  /// ```swift
  /// var destination = PresentationState<Destination.State>(wrappedValue: nil)
  /// ```
  public init(wrappedValue: State?) {
    self.storage = Storage(wrappedValue)
  }

  /// The presented child's state, or `nil`.
  public var wrappedValue: State? {
    get { storage.value }
    set {
      if isKnownUniquelyReferenced(&storage) {
        storage.value = newValue
      } else {
        storage = Storage(newValue)
      }
    }
    _modify {
      if !isKnownUniquelyReferenced(&storage) {
        storage = Storage(storage.value)
      }
      yield &storage.value
    }
  }

  /// The presentation itself: `\.$destination` is the key path that `ifLet` takes.
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
  }

  /// The presented child in a case of an enum destination:
  /// `$0.$destination[case: \.addContact]?.contact.name = "Blob"`.
  ///
  /// Modifying it while another case (or nothing) is presented changes nothing and is reported
  /// as an issue ("Can't modify unrelated case"); assigning `nil` while the case is presented
  /// dismisses it.
  public subscript<Case>(case path: CaseKeyPath<State, Case>) -> Case? where State: CasePathable {
    _read { yield self[_case: AnyCasePath(path)] }
    _modify { yield &self[_case: AnyCasePath(path)] }
  }

  /// The presented child in a case, by a case path: what `subscript(case:)` reads and modifies.
  subscript<Case>(
    _case path: AnyCasePath<State, Case>,
    fileID fileID: StaticString = #fileID,
    filePath filePath: StaticString = #filePath,
    line line: UInt = #line,
    column column: UInt = #column
  ) -> Case? {
    _read { yield wrappedValue.flatMap(path.extract(from:)) }
    _modify {
      let root = wrappedValue
      var value = root.flatMap(path.extract(from:))
      let isInCase = value != nil
      yield &value
      guard isInCase else {
        reportUnrelatedCase(root, fileID: fileID, filePath: filePath, line: line, column: column)
        return
      }
      wrappedValue = value.map(path.embed)
    }
  }

  /// The box of the child's state, shared by copies until one of them changes it.
  private final class Storage: @unchecked Sendable {
    var value: State?

    init(_ value: State?) {
      self.value = value
    }
  }
}

extension PresentationState: Equatable where State: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.storage === rhs.storage || lhs.wrappedValue == rhs.wrappedValue
  }
}

extension PresentationState: Hashable where State: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(wrappedValue)
  }
}

extension PresentationState: Sendable where State: Sendable {}

extension PresentationState: Decodable where State: Decodable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    self.init(wrappedValue: container.decodeNil() ? nil : try container.decode(State.self))
  }
}

extension PresentationState: Encodable where State: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if let wrappedValue {
      try container.encode(wrappedValue)
    } else {
      try container.encodeNil()
    }
  }
}

extension PresentationState: CustomReflectable {
  public var customMirror: Mirror {
    Mirror(reflecting: wrappedValue as Any)
  }
}

/// The actions of a presented child, as TCA's: an action of the child, or the parent's
/// dismissal of it.
///
/// ```swift
/// enum Action {
///   case destination(PresentationAction<Destination.Action>)
/// }
/// ```
///
/// `Codable` as `{ presented: ACTION }` and `dismiss`.
public enum PresentationAction<Action> {
  /// Dismisses the child: the parent sees the action while the child is still there, then
  /// `ifLet` sets the state to `nil` and cancels the child's effects. A child that calls its
  /// `dismiss` dependency makes the parent receive this action.
  case dismiss
  /// An action of the presented child.
  indirect case presented(Action)
}

extension PresentationAction: CasePathable {
  public static var allCasePaths: AllCasePaths { AllCasePaths() }

  /// The case paths of `PresentationAction`; `\.destination.addContact` reaches into the
  /// presented child's actions, as in TCA.
  @dynamicMemberLookup
  public struct AllCasePaths: Sendable {
    /// `.dismiss`.
    public var dismiss: AnyCasePath<PresentationAction, Void> {
      AnyCasePath(
        embed: { .dismiss },
        extract: {
          guard case .dismiss = $0 else { return nil }
          return ()
        })
    }

    /// `.presented(action)`.
    public var presented: AnyCasePath<PresentationAction, Action> {
      AnyCasePath(
        embed: { .presented($0) },
        extract: {
          guard case .presented(let action) = $0 else { return nil }
          return action
        })
    }

    /// A case of the presented child's actions: `\.destination.addContact`.
    public subscript<AppendedAction>(
      dynamicMember keyPath: CaseKeyPath<Action, AppendedAction>
    ) -> AnyCasePath<PresentationAction, AppendedAction> where Action: CasePathable & SendableMetatype {
      nonisolated(unsafe) let keyPath = keyPath
      return AnyCasePath(
        embed: { .presented(keyPath($0)) },
        extract: {
          guard case .presented(let action) = $0 else { return nil }
          return action[case: keyPath]
        })
    }
  }
}

extension PresentationAction: Equatable where Action: Equatable {}
extension PresentationAction: Hashable where Action: Hashable {}
extension PresentationAction: Sendable where Action: Sendable {}
extension PresentationAction: Decodable where Action: Decodable {}
extension PresentationAction: Encodable where Action: Encodable {}

extension Reducer {
  /// Runs `destination` on an optional child (`@Presents`) while it is presented, before this
  /// reducer, as TCA's `ifLet`.
  ///
  /// ```swift
  /// var body: some Reducer<State, Action> {
  ///   Reduce { state, action in … }
  ///     .ifLet(\.$destination, action: \.destination) { Destination() }
  /// }
  /// ```
  ///
  /// - `.presented(action)` runs the child; an action while nothing is presented is reported
  ///   as an issue.
  /// - `.dismiss` runs this reducer, then sets the child to `nil`.
  /// - When the child goes away (or is replaced by another), its effects are cancelled.
  /// - The child's `dismiss` dependency sends `.dismiss`.
  /// - An alert or confirmation dialog (``AlertState``, ``ConfirmationDialogState``, or an enum
  ///   case holding one) is dismissed by any action sent from it.
  public func ifLet<DestinationState, DestinationAction, Destination: Reducer>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, Destination>
  where Action: CasePathable, Destination.State == DestinationState, Destination.Action == DestinationAction {
    _PresentationReducer(
      base: self, toPresentationState: toPresentationState, toPresentationAction: AnyCasePath(toPresentationAction),
      destination: destination(), fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// `ifLet` for an alert or a confirmation dialog, which has no reducer of its own:
  /// `.ifLet(\.$alert, action: \.alert)`. Any action sent from it dismisses it.
  public func ifLet<DestinationState: _EphemeralState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<DestinationAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, EmptyReducer<DestinationState, DestinationAction>> where Action: CasePathable {
    ifLet(
      toPresentationState, action: toPresentationAction, destination: { EmptyReducer() }, fileID: fileID,
      filePath: filePath, line: line, column: column)
  }
}

/// The reducer of ``Reducer/ifLet(_:action:destination:fileID:filePath:line:column:)``.
public struct _PresentationReducer<Base: Reducer, Destination: Reducer>: Reducer {
  let base: Base
  let toPresentationState: WritableKeyPath<Base.State, PresentationState<Destination.State>>
  let toPresentationAction: AnyCasePath<Base.Action, PresentationAction<Destination.Action>>
  let destination: Destination
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt

  init(
    base: Base, toPresentationState: WritableKeyPath<Base.State, PresentationState<Destination.State>>,
    toPresentationAction: AnyCasePath<Base.Action, PresentationAction<Destination.Action>>, destination: Destination,
    fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) {
    self.base = base
    self.toPresentationState = toPresentationState
    self.toPresentationAction = toPresentationAction
    self.destination = destination
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let initial = state[keyPath: toPresentationState].wrappedValue
    let initialIdentity = initial.map(navigationIdentity(of:))
    let presentationAction = toPresentationAction.extract(from: action)
    var destinationEffects = Effect<Base.Action>.none
    let baseEffects: Effect<Base.Action>

    switch (initial, presentationAction) {
    case (.some, .dismiss):
      baseEffects = base.reduce(into: &state, action: action)
      if state[keyPath: toPresentationState].wrappedValue.map(navigationIdentity(of:)) == initialIdentity {
        state[keyPath: toPresentationState].wrappedValue = nil
      }

    case (.some(let destinationState), .presented(let destinationAction)):
      let navigationID = NavigationID(keyPath: toPresentationState, identity: initialIdentity!)
      let token = DismissToken()
      let effect = reduceWithDismiss(
        destination, into: &state[keyPath: toPresentationState].wrappedValue!, action: destinationAction,
        token: token)
      destinationEffects = effect.navigationChild(
        navigationID: navigationID, token: token,
        embed: { [toPresentationAction] in toPresentationAction.embed(.presented($0)) },
        dismissAction: { [toPresentationAction] in toPresentationAction.embed(.dismiss) })
      baseEffects = base.reduce(into: &state, action: action)
      if isEphemeral(destinationState), isEphemeralAction(destinationAction, of: destinationState),
        state[keyPath: toPresentationState].wrappedValue.map(navigationIdentity(of:)) == initialIdentity
      {
        state[keyPath: toPresentationState].wrappedValue = nil
      }

    case (.none, .some):
      reportIssue(
        """
        An "ifLet" at "\(fileID):\(line)" received a presentation action when destination state was \
        absent.

          Action:
            \(debugCaseOutput(action))

        This is generally considered an application logic error, and can happen for a few reasons:

        A parent reducer set destination state to "nil" before this reducer ran. This reducer must \
        run before any other reducer sets destination state to "nil". This ensures that destination \
        reducers can handle their actions while their state is still present.

        This action was sent to the store while destination state was "nil". Make sure that actions \
        for this reducer can only be sent from a store when state is present, or from effects that \
        start from this reducer.
        """,
        fileID: fileID, filePath: filePath, line: line, column: column)
      baseEffects = base.reduce(into: &state, action: action)

    case (_, .none):
      baseEffects = base.reduce(into: &state, action: action)
    }

    // The effects of the child presented before, and of the one `ifLet` last saw (which a
    // reducer outside it may have dismissed or replaced since), when it is no longer there.
    let finalIdentity = state[keyPath: toPresentationState].wrappedValue.map(navigationIdentity(of:))
    var dismissed: [NavigationID] = []
    if let initialIdentity, finalIdentity != initialIdentity {
      dismissed.append(NavigationID(keyPath: toPresentationState, identity: initialIdentity))
    }
    if let presentedID = state[keyPath: toPresentationState].presentedID,
      presentedID.identity != finalIdentity, presentedID.identity != initialIdentity
    {
      dismissed.append(presentedID)
    }
    state[keyPath: toPresentationState].presentedID = finalIdentity.map {
      NavigationID(keyPath: toPresentationState, identity: $0)
    }
    return .merge(destinationEffects, baseEffects, .merge(dismissed.map { .cancel(id: $0) }))
  }
}

/// Reports a modification through a case subscript while the value is in another case (or
/// absent), in TCA's words: `Can't modify unrelated case "int"`.
func reportUnrelatedCase(
  _ root: Any?, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
) {
  let description = root.flatMap(caseName(of:)).map { " \(String(reflecting: $0))" } ?? ""
  reportIssue(
    "Can't modify unrelated case\(description)", fileID: fileID, filePath: filePath, line: line, column: column)
}

/// The name of an enum value's case: `int` for `.int(42)`; `nil` for a value that is no enum.
func caseName(of value: Any) -> String? {
  let mirror = Mirror(reflecting: value)
  guard mirror.displayStyle == .enum else { return nil }
  if let label = mirror.children.first?.label { return label }
  return "\(value)"
}
