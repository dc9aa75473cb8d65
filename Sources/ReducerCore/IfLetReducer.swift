import CasePaths
import CustomDump
import IssueReporting

extension Reducer {
  /// Runs `wrapped` on an optional child of this reducer's state while it is not `nil`, before
  /// this reducer, as TCA's `ifLet`.
  ///
  /// ```swift
  /// struct State { var counter: Counter.State? }
  /// enum Action { case counter(Counter.Action), toggleButtonTapped }
  ///
  /// var body: some Reducer<State, Action> {
  ///   Reduce { state, action in … }
  ///     .ifLet(\.counter, action: \.counter) { Counter() }
  /// }
  /// ```
  ///
  /// - The child runs first, then this reducer.
  /// - A child action while the child is `nil` is reported as an issue, and the child does not run.
  /// - When this reducer sets the child to `nil` (or replaces it by one with another identity: its
  ///   `id`, or its case for an enum), the child's effects are cancelled; cancellation ids in the
  ///   child's effects concern that child only.
  /// - An alert or a confirmation dialog (or an enum case holding one) is set to `nil` after any
  ///   of its actions.
  ///
  /// For a child presented with `@Presents`, use ``ifLet(_:action:destination:fileID:filePath:line:column:)``
  /// on its `PresentationState` (`\.$destination`) instead.
  public func ifLet<WrappedState, WrappedAction, Wrapped: Reducer<WrappedState, WrappedAction>>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: CaseKeyPath<Action, WrappedAction>,
    @ReducerBuilder<WrappedState, WrappedAction> then wrapped: () -> Wrapped,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, Wrapped> {
    _IfLetReducer(
      parent: self, child: wrapped(), toChildState: toWrappedState, toChildAction: AnyCasePath(toWrappedAction),
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// `ifLet` for an optional alert or confirmation dialog, which has no reducer of its own:
  /// `.ifLet(\.alert, action: \.alert)`. Any action sent from it sets it to `nil`.
  public func ifLet<WrappedState: _EphemeralState, WrappedAction>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: CaseKeyPath<Action, WrappedAction>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, EmptyReducer<WrappedState, WrappedAction>> {
    _IfLetReducer(
      parent: self, child: EmptyReducer(), toChildState: toWrappedState,
      toChildAction: AnyCasePath(toWrappedAction), fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

/// The reducer of ``Reducer/ifLet(_:action:then:fileID:filePath:line:column:)``: the child on an
/// optional part of the state, then the parent.
public struct _IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  let parent: Parent
  let child: Child
  let toChildState: WritableKeyPath<Parent.State, Child.State?>
  let toChildAction: AnyCasePath<Parent.Action, Child.Action>
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt

  init(
    parent: Parent, child: Child, toChildState: WritableKeyPath<Parent.State, Child.State?>,
    toChildAction: AnyCasePath<Parent.Action, Child.Action>, fileID: StaticString, filePath: StaticString,
    line: UInt, column: UInt
  ) {
    self.parent = parent
    self.child = child
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    let childEffects = reduceChild(into: &state, action: action)
    let identityBefore = state[keyPath: toChildState].map(navigationIdentity(of:))
    let parentEffects = parent.reduce(into: &state, action: action)
    let identityAfter = state[keyPath: toChildState].map(navigationIdentity(of:))

    if identityAfter == identityBefore, let childAction = toChildAction.extract(from: action),
      let childState = state[keyPath: toChildState], isEphemeral(childState),
      isEphemeralAction(childAction, of: childState)
    {
      state[keyPath: toChildState] = nil
    }

    var cancelEffects = Effect<Parent.Action>.none
    if let identityBefore, identityBefore != identityAfter {
      cancelEffects = .cancel(id: NavigationID(keyPath: toChildState, identity: identityBefore))
    }
    return .merge(childEffects, parentEffects, cancelEffects)
  }

  private func reduceChild(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    guard let childAction = toChildAction.extract(from: action) else { return .none }
    guard state[keyPath: toChildState] != nil else {
      reportIssue(
        """
        An "ifLet" at "\(fileID):\(line)" received a child action when child state was "nil".

          Action:
        \(String(customDumping: action).indentingEveryLine(by: 4))

        This is generally considered an application logic error, and can happen for a few reasons:

        A parent reducer set child state to "nil" before this reducer ran. This reducer must run \
        before any other reducer sets child state to "nil". This ensures that child reducers can \
        handle their actions while their state is still available.

        An in-flight effect emitted this action when child state was "nil". While it may be \
        perfectly reasonable to ignore this action, consider canceling the associated effect \
        before child state becomes "nil", especially if it is a long-living effect.

        This action was sent to the store while state was "nil". Make sure that actions for this \
        reducer can only be sent from a store when state is non-"nil". In SwiftUI \
        applications, use "IfLetStore".
        """,
        fileID: fileID, filePath: filePath, line: line, column: column)
      return .none
    }
    let navigationID = NavigationID(
      keyPath: toChildState, identity: navigationIdentity(of: state[keyPath: toChildState]!))
    return child.reduce(into: &state[keyPath: toChildState]!, action: childAction)
      .scopingCancellationInOperations(to: AnyHashableSendable(navigationID))
      .map { [toChildAction] in toChildAction.embed($0) }
      .cancellable(id: navigationID)
  }
}

extension String {
  /// The text with every line, the first included, indented by `count` spaces: how TCA places a
  /// dump inside a message.
  func indentingEveryLine(by count: Int) -> String {
    let indentation = String(repeating: " ", count: count)
    return indentation + replacingOccurrences(of: "\n", with: "\n\(indentation)")
  }
}
