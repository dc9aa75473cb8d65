import IdentifiedCollections
import CasePaths
import ConcurrencyExtras
import IssueReporting

/// The action of one element of an identified collection, as TCA's `IdentifiedAction`.
///
/// ```swift
/// enum Action {
///   case todos(IdentifiedActionOf<Todo>)
/// }
/// await store.send(\.todos[id: id].binding.isComplete, true)   // or:
/// await store.send(.todos(.element(id: id, action: .binding(.set(\.isComplete, true)))))
/// ```
///
/// `Codable` as `{ element: { id: ID, action: ACTION } }`.
public enum IdentifiedAction<ID: Hashable & Sendable, Action>: CasePathable {
  /// An action of the element with an id.
  case element(id: ID, action: Action)

  public static var allCasePaths: AllCasePaths { AllCasePaths() }

  /// The case paths of `IdentifiedAction`; `\.todos[id: id]` reaches one element's actions.
  public struct AllCasePaths: Sendable {
    /// `.element(id:action:)`.
    public var element: AnyCasePath<IdentifiedAction, (id: ID, action: Action)> {
      AnyCasePath(
        embed: { .element(id: $0, action: $1) },
        extract: {
          guard case .element(let id, let action) = $0 else { return nil }
          return (id, action)
        })
    }

    /// The actions of the element with an id: `\.todos[id: id]`.
    public subscript(id id: ID) -> AnyCasePath<IdentifiedAction, Action> {
      AnyCasePath(
        embed: { .element(id: id, action: $0) },
        extract: {
          guard case .element(id, let action) = $0 else { return nil }
          return action
        })
    }
  }
}

extension IdentifiedAction: Equatable where Action: Equatable {}
extension IdentifiedAction: Hashable where Action: Hashable {}
extension IdentifiedAction: Sendable where Action: Sendable {}
extension IdentifiedAction: Decodable where ID: Decodable, Action: Decodable {}
extension IdentifiedAction: Encodable where ID: Encodable, Action: Encodable {}

/// The identified action of a reducer's elements: `IdentifiedActionOf<Todo>`.
public typealias IdentifiedActionOf<R: Reducer> = IdentifiedAction<R.State.ID, R.Action>
where R.State: Identifiable, R.State.ID: Sendable

extension Reducer {
  /// Runs `element` on the elements of an identified collection, before this reducer, as
  /// TCA's `forEach`.
  ///
  /// ```swift
  /// var body: some Reducer<State, Action> {
  ///   Reduce { state, action in … }
  ///     .forEach(\.todos, action: \.todos) { Todo() }
  /// }
  /// ```
  ///
  /// An action for an id that is not in the collection is reported as an issue. When this
  /// reducer removes an element, the element's effects are cancelled; cancellation ids in an
  /// element's effects concern that element only.
  public func forEach<ElementState, ElementAction, ID: Hashable & Sendable, Element: Reducer>(
    _ toElementsState: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: CaseKeyPath<Action, IdentifiedAction<ID, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _ForEachReducer<Self, ID, Element>
  where Action: CasePathable, Element.State == ElementState, Element.Action == ElementAction {
    _ForEachReducer(
      parent: self, toElementsState: toElementsState,
      toElementAction: AnyCasePath(toElementAction.appending(path: \.element)), element: element(),
      fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

/// The reducer of ``Reducer/forEach(_:action:element:fileID:filePath:line:column:)``.
public struct _ForEachReducer<Parent: Reducer, ID: Hashable & Sendable, Element: Reducer>: Reducer {
  let parent: Parent
  let toElementsState: WritableKeyPath<Parent.State, IdentifiedArray<ID, Element.State>>
  let toElementAction: AnyCasePath<Parent.Action, (id: ID, action: Element.Action)>
  let element: Element
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt

  init(
    parent: Parent, toElementsState: WritableKeyPath<Parent.State, IdentifiedArray<ID, Element.State>>,
    toElementAction: AnyCasePath<Parent.Action, (id: ID, action: Element.Action)>, element: Element,
    fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) {
    self.parent = parent
    self.toElementsState = toElementsState
    self.toElementAction = toElementAction
    self.element = element
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    let elementEffects = reduceElement(into: &state, action: action)
    let idsBefore = state[keyPath: toElementsState].ids
    let parentEffects = parent.reduce(into: &state, action: action)
    let idsAfter = state[keyPath: toElementsState].ids
    var cancelEffects = Effect<Parent.Action>.none
    if idsBefore != idsAfter {
      cancelEffects = .merge(
        idsBefore.subtracting(idsAfter).map {
          .cancel(id: NavigationID(keyPath: toElementsState, identity: AnyHashable($0)))
        })
    }
    return .merge(elementEffects, parentEffects, cancelEffects)
  }

  private func reduceElement(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    guard let (id, elementAction) = toElementAction.extract(from: action) else { return .none }
    guard state[keyPath: toElementsState][id: id] != nil else {
      reportIssue(
        """
        A "forEach" at "\(fileID):\(line)" received an action for a missing element.

          Action:
            \(debugCaseOutput(action))

        This is generally considered an application logic error, and can happen for a few reasons:

        A parent reducer removed an element with this ID before this reducer ran. This reducer \
        must run before any other reducer removes an element, which ensures that element reducers \
        can handle their actions while their state is still available.

        An in-flight effect emitted this action when state contained no element at this ID. \
        While it may be perfectly reasonable to ignore this action, consider canceling the \
        associated effect before an element is removed, especially if it is a long-living effect.

        This action was sent to the store while its state contained no element at this ID. To \
        fix this make sure that actions for this reducer can only be sent from a store when \
        its state contains an element at this id. In SwiftUI applications, use "ForEachStore".
        """,
        fileID: fileID, filePath: filePath, line: line, column: column)
      return .none
    }
    let navigationID = NavigationID(keyPath: toElementsState, identity: AnyHashable(id))
    return element.reduce(into: &state[keyPath: toElementsState][id: id]!, action: elementAction)
      .scopingCancellationInOperations(to: AnyHashableSendable(navigationID))
      .map { [toElementAction] in toElementAction.embed((id, $0)) }
      .cancellable(id: navigationID)
  }
}
