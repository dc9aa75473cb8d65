import CasePaths
import IdentifiedCollections

// The case-path (`/Action.child`, `AnyCasePath`) forms of the navigation operators, as TCA
// keeps them for code written before case key paths: deprecated with TCA's messages, and
// working as the case key path forms do.

extension Reducer {
  /// `ifLet` on an optional child, with a case path: `.ifLet(\.child, action: /Action.child) { Child() }`.
  @available(*, deprecated, message: "Use the version of this operator with case key paths, instead. See the following migration guide for more information: https://swiftpackageindex.com/pointfreeco/swift-composable-architecture/main/documentation/composablearchitecture/migratingto1.4#Using-case-key-paths")
  public func ifLet<WrappedState, WrappedAction, Wrapped: Reducer<WrappedState, WrappedAction>>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: AnyCasePath<Action, WrappedAction>,
    @ReducerBuilder<WrappedState, WrappedAction> then wrapped: () -> Wrapped,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, Wrapped> {
    _IfLetReducer(
      parent: self, child: wrapped(), toChildState: toWrappedState, toChildAction: toWrappedAction,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// `ifLet` on an optional alert or dialog, with a case path.
  @available(*, deprecated, message: "Use the version of this operator with case key paths, instead. See the following migration guide for more information: https://swiftpackageindex.com/pointfreeco/swift-composable-architecture/main/documentation/composablearchitecture/migratingto1.4#Using-case-key-paths")
  public func ifLet<WrappedState: _EphemeralState, WrappedAction>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: AnyCasePath<Action, WrappedAction>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, EmptyReducer<WrappedState, WrappedAction>> {
    _IfLetReducer(
      parent: self, child: EmptyReducer(), toChildState: toWrappedState, toChildAction: toWrappedAction,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// `ifLet` on a presented child (`@Presents`), with a case path:
  /// `.ifLet(\.$destination, action: /Action.destination) { Destination() }`.
  @available(*, deprecated, message: "Use the version of this operator with case key paths, instead. See the following migration guide for more information: https://swiftpackageindex.com/pointfreeco/swift-composable-architecture/main/documentation/composablearchitecture/migratingto1.4#Using-case-key-paths")
  public func ifLet<DestinationState, DestinationAction, Destination: Reducer<DestinationState, DestinationAction>>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: AnyCasePath<Action, PresentationAction<DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, Destination> {
    _PresentationReducer(
      base: self, toPresentationState: toPresentationState, toPresentationAction: toPresentationAction,
      destination: destination(), fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// `ifLet` on a presented alert or dialog, with a case path.
  @available(*, deprecated, message: "Use the version of this operator with case key paths, instead. See the following migration guide for more information: https://swiftpackageindex.com/pointfreeco/swift-composable-architecture/main/documentation/composablearchitecture/migratingto1.4#Using-case-key-paths")
  public func ifLet<DestinationState: _EphemeralState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: AnyCasePath<Action, PresentationAction<DestinationAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, EmptyReducer<DestinationState, DestinationAction>> {
    _PresentationReducer(
      base: self, toPresentationState: toPresentationState, toPresentationAction: toPresentationAction,
      destination: EmptyReducer(), fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// `forEach` on an identified array, with a case path to an `(ID, Action)` pair:
  /// `.forEach(\.rows, action: /Action.row(id:action:)) { Row() }`.
  @available(*, deprecated, message: "Use a case key path to an 'IdentifiedAction', instead. See the following migration guide for more information: https://swiftpackageindex.com/pointfreeco/swift-composable-architecture/main/documentation/composablearchitecture/migratingto1.4")
  public func forEach<ElementState, ElementAction, ID: Hashable & Sendable, Element: Reducer<ElementState, ElementAction>>(
    _ toElementsState: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: AnyCasePath<Action, (ID, ElementAction)>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _ForEachReducer<Self, ID, Element> {
    _ForEachReducer(
      parent: self, toElementsState: toElementsState,
      toElementAction: AnyCasePath(
        embed: { toElementAction.embed(($0.id, $0.action)) },
        extract: { toElementAction.extract(from: $0).map { (id: $0.0, action: $0.1) } }),
      element: element(), fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// `forEach` on a navigation stack, with a case path:
  /// `.forEach(\.path, action: /Action.path) { Path() }`.
  @available(*, deprecated, message: "Use the version of this operator with case key paths, instead. See the following migration guide for more information: https://swiftpackageindex.com/pointfreeco/swift-composable-architecture/main/documentation/composablearchitecture/migratingto1.4#Using-case-key-paths")
  public func forEach<DestinationState, DestinationAction, Destination: Reducer<DestinationState, DestinationAction>>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>>,
    action toStackAction: AnyCasePath<Action, StackAction<DestinationState, DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _StackReducer<Self, Destination> {
    _StackReducer(
      base: self, toStackState: toStackState, toStackAction: toStackAction, destination: destination(),
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// `ifCaseLet` with case paths: `.ifCaseLet(/State.loggedIn, action: /Action.loggedIn) { LoggedIn() }`.
  @available(*, deprecated, message: "Use the version of this operator with case key paths, instead. See the following migration guide for more information: https://swiftpackageindex.com/pointfreeco/swift-composable-architecture/main/documentation/composablearchitecture/migratingto1.4#Using-case-key-paths")
  public func ifCaseLet<CaseState, CaseAction, Case: Reducer<CaseState, CaseAction>>(
    _ toCaseState: AnyCasePath<State, CaseState>,
    action toCaseAction: AnyCasePath<Action, CaseAction>,
    @ReducerBuilder<CaseState, CaseAction> then case: () -> Case,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfCaseLetCasePathReducer<Self, Case> {
    _IfCaseLetCasePathReducer(
      parent: self,
      child: Scope(
        state: toCaseState, action: toCaseAction, child: `case`, fileID: fileID, filePath: filePath, line: line,
        column: column),
      toCaseState: toCaseState)
  }
}

/// The reducer of the case-path `ifCaseLet`: the child on a case of the state, then the parent;
/// when the parent moves the state to another case, the child's effects are cancelled.
public struct _IfCaseLetCasePathReducer<Parent: Reducer, Child: Reducer>: Reducer {
  let parent: Parent
  let child: Scope<Parent.State, Parent.Action, Child>
  let toCaseState: AnyCasePath<Parent.State, Child.State>

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    let childCase = caseID(of: state)
    var childEffect = child.reduce(into: &state, action: action)
    if let childCase { childEffect = childEffect.cancellable(id: childCase) }
    let caseBefore = caseID(of: state)
    let parentEffect = parent.reduce(into: &state, action: action)
    guard let caseBefore, caseID(of: state) != caseBefore else { return .merge(childEffect, parentEffect) }
    return .merge(childEffect, parentEffect, .cancel(id: caseBefore))
  }

  /// The case the state is in, when it is the child's case: the cancellation id of the child's
  /// effects (a case path is not hashable, so the case is named by its label).
  private func caseID(of state: Parent.State) -> CaseCancelID? {
    guard toCaseState.extract(from: state) != nil else { return nil }
    let label = Mirror(reflecting: state).children.first?.label ?? "\(state)"
    return CaseCancelID(root: ObjectIdentifier(Parent.State.self), label: label)
  }
}

/// The cancellation id of the effects of a child in one case of an enum state.
struct CaseCancelID: Hashable, Sendable {
  let root: ObjectIdentifier
  let label: String
}

extension Scope {
  /// A scope on a part of the state, with a case path to the child's actions:
  /// `Scope(state: \.counter, action: /Action.counter) { Counter() }`.
  @available(*, deprecated, message: "Use the version of this operator with case key paths, instead. See the following migration guide for more information: https://swiftpackageindex.com/pointfreeco/swift-composable-architecture/main/documentation/composablearchitecture/migratingto1.4#Using-case-key-paths")
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: AnyCasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = .keyPath(toChildState)
    self.toChildAction = toChildAction
    self.child = child()
  }

  /// A scope on a case of an enum state, with case paths:
  /// `Scope(state: /State.loggedIn, action: /Action.loggedIn) { LoggedIn() }`.
  @available(*, deprecated, message: "Use the version of this operator with case key paths, instead. See the following migration guide for more information: https://swiftpackageindex.com/pointfreeco/swift-composable-architecture/main/documentation/composablearchitecture/migratingto1.4#Using-case-key-paths")
  public init<ChildState, ChildAction>(
    state toChildState: AnyCasePath<ParentState, ChildState>,
    action toChildAction: AnyCasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = .casePath(toChildState, fileID: fileID, filePath: filePath, line: line, column: column, isIfCaseLet: false)
    self.toChildAction = toChildAction
    self.child = child()
  }
}

extension PresentationState {
  /// The presented child in a case of an enum destination, with a case path:
  /// `$destination[case: /Destination.State.detail]`.
  @available(*, deprecated, message: "Use the version of this subscript with case key paths, instead. See the following migration guide for more information: https://swiftpackageindex.com/pointfreeco/swift-composable-architecture/main/documentation/composablearchitecture/migratingto1.4#Using-case-key-paths")
  public subscript<Case>(
    case path: AnyCasePath<State, Case>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Case? {
    get { self[_case: path] }
    set { self[_case: path, fileID: fileID, filePath: filePath, line: line, column: column] = newValue }
  }
}

extension StackState {
  /// The element with an id, in a case of an enum element, with a case path:
  /// `path[id: 0, case: /Path.State.detail]`.
  @available(*, deprecated, message: "Use the version of this subscript with case key paths, instead. See the following migration guide for more information: https://swiftpackageindex.com/pointfreeco/swift-composable-architecture/main/documentation/composablearchitecture/migratingto1.4#Using-case-key-paths")
  public subscript<Case>(
    id id: StackElementID,
    case path: AnyCasePath<Element, Case>,
    fileID fileID: StaticString = #fileID,
    filePath filePath: StaticString = #filePath,
    line line: UInt = #line,
    column column: UInt = #column
  ) -> Case? {
    get { self[id: id, _case: path] }
    set { self[id: id, _case: path, fileID: fileID, filePath: filePath, line: line, column: column] = newValue }
  }
}
