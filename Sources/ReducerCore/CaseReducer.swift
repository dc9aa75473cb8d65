/// A reducer made of the cases of an enum, each holding a child reducer, as TCA's
/// `CaseReducer`.
///
/// Do not conform to it yourself: ``Reducer()`` adds the conformance to an enum, with the
/// `State`, the `Action` and the static ``body`` that it generates.
///
/// ```swift
/// @Reducer
/// enum Destination {
///   case addContact(AddContact)
///   case alert(AlertState<Contacts.Action.Alert>)
/// }
/// ```
public protocol CaseReducer<State, Action>: Reducer
where State: CaseReducerState, Body: Reducer, Body.State == State, Body.Action == Action {
  // Restated so that the compiler infers them from the generated `State`, `Action` and static
  // `body`, rather than `Body` from `Reducer`'s default body (`Never`).
  associatedtype State = State
  associatedtype Action = Action
  associatedtype Body = Body

  /// The reducer of all the cases: each case's reducer, run on its case of the state.
  @ReducerBuilder<State, Action>
  static var body: Body { get }
}

extension CaseReducer {
  /// The enum's ``body``: an enum reducer has no values of its own.
  public var body: Body {
    Self.body
  }
}

/// The state of an enum reducer (``CaseReducer``), which names its reducer: what the `ifLet`
/// and `forEach` that take no reducer run.
public protocol CaseReducerState {
  /// The enum reducer whose state this is.
  associatedtype StateReducer: CaseReducer where StateReducer.State == Self
}

extension Reducer {
  /// Runs an enum reducer (``CaseReducer``) on an optional child (`@Presents`), as
  /// ``ifLet(_:action:destination:fileID:filePath:line:column:)`` does with the enum's own
  /// reducer.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.$destination, action: \.destination)
  /// ```
  public func ifLet<ChildState: CaseReducerState, ChildAction>(
    _ state: WritableKeyPath<State, PresentationState<ChildState>>,
    action: CaseKeyPath<Action, PresentationAction<ChildAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, ChildState.StateReducer.Body>
  where Action: CasePathable, ChildState.StateReducer.Action == ChildAction {
    ifLet(
      state, action: action, destination: { ChildState.StateReducer.body }, fileID: fileID, filePath: filePath,
      line: line, column: column)
  }

  /// Runs an enum reducer (``CaseReducer``) on the elements of a navigation stack, as
  /// ``forEach(_:action:destination:fileID:filePath:line:column:)`` does with the enum's own
  /// reducer.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .forEach(\.path, action: \.path)
  /// ```
  public func forEach<DestinationState: CaseReducerState, DestinationAction>(
    _ state: WritableKeyPath<State, StackState<DestinationState>>,
    action: CaseKeyPath<Action, StackAction<DestinationState, DestinationAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _StackReducer<Self, DestinationState.StateReducer.Body>
  where Action: CasePathable, DestinationState.StateReducer.Action == DestinationAction {
    forEach(
      state, action: action, destination: { DestinationState.StateReducer.body }, fileID: fileID,
      filePath: filePath, line: line, column: column)
  }
}
