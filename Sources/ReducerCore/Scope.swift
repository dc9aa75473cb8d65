import CasePaths
import CustomDump
import Foundation
import IssueReporting

/// Runs a child reducer on a part of the parent's state, for the parent's actions that
/// carry a child action.
///
/// A field of a struct:
///
/// ```swift
/// Scope(state: \.counter, action: \.counter) { Counter() }
/// ```
///
/// or a case of an enum (the child runs only while the state is in that case; an action
/// for it in another case is reported as an issue):
///
/// ```swift
/// Scope(state: \.login, action: \.login) { Login() }
/// ```
public struct Scope<ParentState, ParentAction, Child: Reducer>: Reducer {
  enum StatePath {
    case keyPath(WritableKeyPath<ParentState, Child.State>)
    /// A case of an enum state; `isIfCaseLet` when an `ifCaseLet` made the scope, which its
    /// failure names.
    case casePath(
      AnyCasePath<ParentState, Child.State>, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt,
      isIfCaseLet: Bool)
  }

  let toChildState: StatePath
  let toChildAction: AnyCasePath<ParentAction, Child.Action>
  let child: Child

  /// Scopes to a field of the parent's state.
  ///
  /// Disfavored, so that `\.login` into an enum state that is `@dynamicMemberLookup` (as
  /// `@Reducer` makes a state enum) names the case, not the enum's read-only case property.
  @_disfavoredOverload
  public init<ChildState, ChildAction>(
    state: WritableKeyPath<ParentState, ChildState>,
    action: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = .keyPath(state)
    self.toChildAction = AnyCasePath(action)
    self.child = child()
  }

  /// Scopes to a case of the parent's state, an enum.
  public init<ChildState, ChildAction>(
    state: CaseKeyPath<ParentState, ChildState>,
    action: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = .casePath(
      AnyCasePath(state), fileID: fileID, filePath: filePath, line: line, column: column, isIfCaseLet: false)
    self.toChildAction = AnyCasePath(action)
    self.child = child()
  }

  /// The scope of an `ifCaseLet`.
  init(
    ifCaseLet state: CaseKeyPath<ParentState, Child.State>,
    action: CaseKeyPath<ParentAction, Child.Action>,
    child: Child,
    fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) {
    self.toChildState = .casePath(
      AnyCasePath(state), fileID: fileID, filePath: filePath, line: line, column: column, isIfCaseLet: true)
    self.toChildAction = AnyCasePath(action)
    self.child = child
  }

  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = toChildAction.extract(from: action) else { return .none }
    switch toChildState {
    case .keyPath(let keyPath):
      return child.reduce(into: &state[keyPath: keyPath], action: childAction)
        .map { [toChildAction] in toChildAction.embed($0) }
    case .casePath(let casePath, let fileID, let filePath, let line, let column, let isIfCaseLet):
      guard var childState = casePath.extract(from: state) else {
        reportIssue(
          isIfCaseLet
            ? Self.ifCaseLetInAnotherCase(action: action, state: state, fileID: fileID, line: line)
            : Self.scopeInAnotherCase(action: action, state: state, fileID: fileID, line: line),
          fileID: fileID, filePath: filePath, line: line, column: column)
        return .none
      }
      let effect = child.reduce(into: &childState, action: childAction)
      state = casePath.embed(childState)
      return effect.map { [toChildAction] in toChildAction.embed($0) }
    }
  }

  /// The failure of a `Scope` on a case of the state that gets an action while the state is
  /// in another case, in TCA's words.
  static func scopeInAnotherCase(action: ParentAction, state: ParentState, fileID: StaticString, line: UInt) -> String {
    """
    A "Scope" at "\(fileID):\(line)" received a child action when child state was set to a \
    different case.

      Action:
        \(withoutAnonymousContexts(debugCaseOutput(action)))
      State:
        \(withoutAnonymousContexts(debugCaseOutput(state)))

    This is generally considered an application logic error, and can happen for a few \
    reasons:

    A parent reducer set "\(abbreviatedTypeName(ParentState.self))" to a different case before the \
    scoped reducer ran. Child reducers must run before any parent reducer sets child state \
    to a different case. This ensures that child reducers can handle their actions while \
    their state is still available. Consider using "Reducer.ifCaseLet" to embed this \
    child reducer in the parent reducer that change its state to ensure the child reducer \
    runs first.

    An in-flight effect emitted this action when child state was unavailable. While it may \
    be perfectly reasonable to ignore this action, consider canceling the associated effect \
    before child state changes to another case, especially if it is a long-living effect.

    This action was sent to the store while state was another case. Make sure that actions \
    for this reducer can only be sent from a store when state is set to the appropriate \
    case. In SwiftUI applications, use "SwitchStore".
    """
  }

  /// The failure of an `ifCaseLet` that gets a child action while the state is in another
  /// case, in TCA's words.
  static func ifCaseLetInAnotherCase(
    action: ParentAction, state: ParentState, fileID: StaticString, line: UInt
  ) -> String {
    """
    An "ifCaseLet" at "\(fileID):\(line)" received a child action when child state was set to \
    a different case.

      Action:
    \(String(customDumping: action).indentingEveryLine(by: 4))
      State:
    \(String(customDumping: state).indentingEveryLine(by: 4))

    This is generally considered an application logic error, and can happen for a few reasons:

    A parent reducer set "\(abbreviatedTypeName(ParentState.self))" to a different case before this \
    reducer ran. This reducer must run before any other reducer sets child state to a \
    different case. This ensures that child reducers can handle their actions while their \
    state is still available.

    An in-flight effect emitted this action when child state was unavailable. While it may \
    be perfectly reasonable to ignore this action, consider canceling the associated effect \
    before child state changes to another case, especially if it is a long-living effect.

    This action was sent to the store while state was another case. Make sure that actions \
    for this reducer can only be sent from a store when state is set to the appropriate \
    case. In SwiftUI applications, use "SwitchStore".
    """
  }
}

/// A type's name as TCA's messages write it: without its module, the contexts of types
/// declared in a function, and generic arguments (`Swift.Result<Swift.Int, App.Failure>` is
/// `Result`).
func abbreviatedTypeName(_ type: Any.Type) -> String {
  var name = withoutAnonymousContexts(String(reflecting: type))
  if let open = name.firstIndex(of: "<") { name = String(name[..<open]) }
  if let dot = name.firstIndex(of: ".") { name = String(name[name.index(after: dot)...]) }
  return name
}

/// `text` without the `(unknown context at $…).` that names a type declared inside a function.
func withoutAnonymousContexts(_ text: String) -> String {
  guard text.contains("(unknown context at ") else { return text }
  return text.replacingOccurrences(of: #"\(unknown context at \$[0-9a-fA-F]+\)\."#, with: "", options: .regularExpression)
}

extension Reducer {
  /// Runs `child` on a case of this reducer's state (an enum) before this reducer runs,
  /// for the actions of that case, as TCA's `ifCaseLet`.
  ///
  /// An action for the case that arrives while the state is in another case is reported
  /// as an issue: a spec or test that sends it fails.
  public func ifCaseLet<CaseState, CaseAction, Child: Reducer>(
    _ toCaseState: CaseKeyPath<State, CaseState>,
    action toCaseAction: CaseKeyPath<Action, CaseAction>,
    @ReducerBuilder<CaseState, CaseAction> then child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfCaseLet<Self, Child>
  where State: CasePathable, Action: CasePathable, Child.State == CaseState, Child.Action == CaseAction {
    _IfCaseLet(
      parent: self,
      child: Scope(
        ifCaseLet: toCaseState, action: toCaseAction, child: child(), fileID: fileID, filePath: filePath, line: line,
        column: column),
      isInCase: { $0[case: toCaseState] != nil },
      cancelID: IfCaseLetID(keyPath: toCaseState))
  }
}

/// The reducer of ``Reducer/ifCaseLet(_:action:then:fileID:filePath:line:column:)``: the child first, then the parent.
///
/// As in TCA, the child's effects are cancelled when the parent moves the state out of the case.
public struct _IfCaseLet<Parent: Reducer, Child: Reducer>: Reducer {
  let parent: Parent
  let child: Scope<Parent.State, Parent.Action, Child>
  let isInCase: (Parent.State) -> Bool
  let cancelID: IfCaseLetID

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    let childEffect = child.reduce(into: &state, action: action).cancellable(id: cancelID)
    let wasInCase = isInCase(state)
    let parentEffect = parent.reduce(into: &state, action: action)
    let leftCase = wasInCase && !isInCase(state)
    return .merge(childEffect, parentEffect, leftCase ? .cancel(id: cancelID) : .none)
  }
}

/// Identifies the effects of one `ifCaseLet` child: the case key path of the state.
struct IfCaseLetID: Hashable, @unchecked Sendable {
  let keyPath: AnyKeyPath
}

/// A value as `customDump` writes it, its later lines indented to sit under the first one
/// in a message that places it four spaces in.
func describe(_ value: Any) -> String {
  var text = ""
  customDump(value, to: &text, maxDepth: 4)
  return text.replacingOccurrences(of: "\n", with: "\n    ")
}
