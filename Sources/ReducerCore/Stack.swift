import CasePaths
import ConcurrencyExtras
import CustomDump
import Dependencies
import IssueReporting

/// The identifier of an element of a ``StackState``, as TCA's: a generation that counts from
/// 0 in each store. Written as an integer in tests (`path[id: 0]`) and in `Codable` forms;
/// dumped as `#0`.
public struct StackElementID: Hashable, Sendable, Comparable, ExpressibleByIntegerLiteral, Codable,
  CustomDebugStringConvertible, CustomDumpStringConvertible
{
  /// The element's place in the order of pushes: 0 for the first element a store pushes.
  public var generation: Int

  /// The id of the element pushed `generation`-th (from 0).
  public init(generation: Int) {
    self.generation = generation
  }

  public init(integerLiteral value: Int) {
    self.init(generation: value)
  }

  public init(from decoder: any Decoder) throws {
    self.init(generation: try decoder.singleValueContainer().decode(Int.self))
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(generation)
  }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.generation < rhs.generation }

  public var debugDescription: String { "#\(generation)" }
  public var customDumpDescription: String { debugDescription }
}

/// Hands out ``StackElementID``s, counting up: the `stackElementID` dependency. Each `Store`
/// and `TestStore` starts its own at 0.
public struct StackElementIDGenerator: Sendable {
  private let counter: LockIsolated<Int>

  /// A generator whose next id is `next`.
  public init(next: StackElementID = 0) {
    self.counter = LockIsolated(next.generation)
  }

  /// A generator that starts at 0.
  public static var incrementing: Self { Self() }

  /// The next id, and counts up.
  public func next() -> StackElementID {
    counter.withValue { value in
      defer { value += 1 }
      return StackElementID(generation: value)
    }
  }

  /// The next id, without counting up.
  public func peek() -> StackElementID {
    StackElementID(generation: counter.value)
  }

  /// Makes sure the next id is after `id` (an element pushed with an id of its own).
  func skip(past id: StackElementID) {
    counter.withValue { $0 = Swift.max($0, id.generation + 1) }
  }
}

extension DependencyValues {
  /// Where ``StackState`` gets the ids of the elements it appends.
  ///
  /// ```swift
  /// state.path.append(ContactDetail.State(contact: contact))  // id #0, then #1, …
  /// ```
  public var stackElementID: StackElementIDGenerator {
    get { self[StackElementIDGeneratorKey.self] }
    set { self[StackElementIDGeneratorKey.self] = newValue }
  }
}

private enum StackElementIDGeneratorKey: DependencyKey {
  static var liveValue: StackElementIDGenerator { .incrementing }
  static var testValue: StackElementIDGenerator { .incrementing }
}

/// The state of a navigation stack, as TCA's: elements in order, each with a
/// ``StackElementID`` that the `stackElementID` dependency hands out when it is appended.
///
/// ```swift
/// struct State: Equatable {
///   var path = StackState<ContactDetail.State>()
/// }
/// state.path.append(ContactDetail.State(contact: contact))
/// state.path[id: 0]?.contact.name = "Blob"
/// ```
///
/// `Codable` as the list of its elements with their ids: `[{ id: 0, state: … }, …]`.
public struct StackState<Element> {
  private var _ids: [StackElementID] = []
  private var elements: [Element] = []
  /// The ids that `forEach` last saw: when a reducer outside `forEach` removes an element, the
  /// next action through `forEach` cancels its effects. Equality, hashing, dumps and coding
  /// leave them out.
  var mountedIDs: [StackElementID] = []

  /// An empty stack.
  public init() {}

  /// The ids of the elements, in order.
  public var ids: [StackElementID] { _ids }

  /// The element with an id; `nil` when there is none.
  ///
  /// Assigning an element at an id that the stack does not have appends it with that id in
  /// a test (as `$0.path[id: 0] = …` in a `TestStore` assertion, the dependency context being
  /// `.test`); elsewhere it is reported as an issue. Assigning `nil` removes the element.
  public subscript(
    id id: StackElementID, fileID fileID: StaticString = #fileID, filePath filePath: StaticString = #filePath,
    line line: UInt = #line, column column: UInt = #column
  ) -> Element? {
    get { _ids.firstIndex(of: id).map { elements[$0] } }
    set {
      if let index = _ids.firstIndex(of: id) {
        if let newValue {
          elements[index] = newValue
        } else {
          _ids.remove(at: index)
          elements.remove(at: index)
        }
      } else if let newValue {
        @Dependency(\.context) var context
        guard context == .test else {
          reportIssue(
            "Can't assign element at missing ID.", fileID: fileID, filePath: filePath, line: line, column: column)
          return
        }
        _ids.append(id)
        elements.append(newValue)
        @Dependency(\.stackElementID) var stackElementID
        stackElementID.skip(past: id)
      }
    }
  }

  /// The element with an id, in a case of an enum element: `path[id: 0, case: \.detail]`.
  ///
  /// Modifying it while the element is in another case (or absent) changes nothing and is
  /// reported as an issue ("Can't modify unrelated case"); assigning `nil` while the element is
  /// in the case removes it.
  public subscript<Case>(id id: StackElementID, case path: CaseKeyPath<Element, Case>) -> Case?
  where Element: CasePathable {
    _read { yield self[id: id, _case: AnyCasePath(path)] }
    _modify { yield &self[id: id, _case: AnyCasePath(path)] }
  }

  /// The element with an id in a case, by a case path: what `subscript(id:case:)` reads and
  /// modifies.
  subscript<Case>(
    id id: StackElementID,
    _case path: AnyCasePath<Element, Case>,
    fileID fileID: StaticString = #fileID,
    filePath filePath: StaticString = #filePath,
    line line: UInt = #line,
    column column: UInt = #column
  ) -> Case? {
    _read { yield self[id: id].flatMap(path.extract(from:)) }
    _modify {
      let root = self[id: id]
      var value = root.flatMap(path.extract(from:))
      let isInCase = value != nil
      yield &value
      guard isInCase else {
        reportUnrelatedCase(root, fileID: fileID, filePath: filePath, line: line, column: column)
        return
      }
      self[id: id, fileID: fileID, filePath: filePath, line: line, column: column] = value.map(path.embed)
    }
  }

  /// Removes the element with an id and every element after it.
  public mutating func pop(from id: StackElementID) {
    guard let index = _ids.firstIndex(of: id) else { return }
    removeSubrange(index...)
  }

  /// Removes every element after the one with an id.
  public mutating func pop(to id: StackElementID) {
    guard let index = _ids.firstIndex(of: id) else { return }
    removeSubrange((index + 1)...)
  }

  /// Appends an element with an id of its own (a `push` action's).
  mutating func append(_ element: Element, id: StackElementID) {
    _ids.append(id)
    elements.append(element)
  }
}

extension StackState: RandomAccessCollection, RangeReplaceableCollection, MutableCollection {
  public var startIndex: Int { elements.startIndex }
  public var endIndex: Int { elements.endIndex }
  public func index(after i: Int) -> Int { i + 1 }
  public func index(before i: Int) -> Int { i - 1 }

  public subscript(position: Int) -> Element {
    get { elements[position] }
    set { elements[position] = newValue }
  }

  /// Removes every element (keeping what `forEach` last saw, so that it cancels their effects).
  public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
    _ids.removeAll(keepingCapacity: keepCapacity)
    elements.removeAll(keepingCapacity: keepCapacity)
  }

  public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C)
  where C.Element == Element {
    @Dependency(\.stackElementID) var stackElementID
    let newElements = Array(newElements)
    _ids.replaceSubrange(subrange, with: newElements.map { _ in stackElementID.next() })
    elements.replaceSubrange(subrange, with: newElements)
  }
}

extension StackState: ExpressibleByArrayLiteral {
  public init(arrayLiteral elements: Element...) {
    self.init(elements)
  }
}

extension StackState: Equatable where Element: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs._ids == rhs._ids && lhs.elements == rhs.elements
  }
}

extension StackState: Hashable where Element: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(_ids)
    hasher.combine(elements)
  }
}

extension StackState: Sendable where Element: Sendable {}

/// One element of a stack in its `Codable` form: `{ id: 0, state: … }`.
private struct StackEntry<Element> {
  var id: StackElementID
  var state: Element
}

extension StackEntry: Decodable where Element: Decodable {}
extension StackEntry: Encodable where Element: Encodable {}

extension StackState: Decodable where Element: Decodable {
  /// Decodes the list of `{ id: ID, state: STATE }` that ``encode(to:)`` writes, keeping the
  /// ids: the ids the `stackElementID` dependency hands out next come after them. An id
  /// given twice is a decoding error.
  public init(from decoder: any Decoder) throws {
    self.init()
    @Dependency(\.stackElementID) var stackElementID
    for entry in try [StackEntry<Element>](from: decoder) {
      guard !_ids.contains(entry.id) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: decoder.codingPath, debugDescription: "the stack has two elements with the id \(entry.id.generation)"))
      }
      append(entry.state, id: entry.id)
      stackElementID.skip(past: entry.id)
    }
  }
}

extension StackState: Encodable where Element: Encodable {
  /// Encodes the elements with their ids, as a list of `{ id: ID, state: STATE }` (a spec's
  /// `path[id=1].contact.name` names an element by its id, as `path[id: 1]` does in Swift).
  public func encode(to encoder: any Encoder) throws {
    try zip(_ids, elements).map { StackEntry(id: $0, state: $1) }.encode(to: encoder)
  }
}

extension StackState: CustomDumpReflectable {
  public var customDumpMirror: Mirror {
    Mirror(self, unlabeledChildren: Array(zip(_ids, elements)), displayStyle: .dictionary)
  }
}

/// The actions of a navigation stack, as TCA's.
///
/// ```swift
/// enum Action {
///   case path(StackActionOf<ContactDetail>)
/// }
/// ```
///
/// `Codable` as `{ push: { id: ID, state: STATE } }`, `{ popFrom: { id: ID } }` and
/// `{ element: { id: ID, action: ACTION } }`.
public enum StackAction<State, Action> {
  /// An action of the element with an id.
  indirect case element(id: StackElementID, action: Action)
  /// Removes the element with an id and every element after it.
  case popFrom(id: StackElementID)
  /// Appends an element with an id (the next one the store hands out, in a test).
  case push(id: StackElementID, state: State)
}

/// `StackAction<R.State, R.Action>`: `case path(StackActionOf<ContactDetail>)`.
public typealias StackActionOf<R: Reducer> = StackAction<R.State, R.Action>

extension StackAction: Equatable where State: Equatable, Action: Equatable {}
extension StackAction: Hashable where State: Hashable, Action: Hashable {}
extension StackAction: Sendable where State: Sendable, Action: Sendable {}
extension StackAction: Decodable where State: Decodable, Action: Decodable {}
extension StackAction: Encodable where State: Encodable, Action: Encodable {}

extension StackAction: CasePathable {
  public static var allCasePaths: AllCasePaths { AllCasePaths() }

  /// The case paths of `StackAction`; `\.path[id: 0]` reaches one element's actions.
  public struct AllCasePaths: Sendable {
    /// `.element(id:action:)`.
    public var element: AnyCasePath<StackAction, (id: StackElementID, action: Action)> {
      AnyCasePath(
        embed: { .element(id: $0, action: $1) },
        extract: {
          guard case .element(let id, let action) = $0 else { return nil }
          return (id, action)
        })
    }

    /// `.popFrom(id:)`.
    public var popFrom: AnyCasePath<StackAction, StackElementID> {
      AnyCasePath(
        embed: { .popFrom(id: $0) },
        extract: {
          guard case .popFrom(let id) = $0 else { return nil }
          return id
        })
    }

    /// `.push(id:state:)`.
    public var push: AnyCasePath<StackAction, (id: StackElementID, state: State)> {
      AnyCasePath(
        embed: { .push(id: $0, state: $1) },
        extract: {
          guard case .push(let id, let state) = $0 else { return nil }
          return (id, state)
        })
    }

    /// The actions of the element with an id: `\.path[id: 0]`.
    public subscript(id id: StackElementID) -> AnyCasePath<StackAction, Action> {
      AnyCasePath(
        embed: { .element(id: id, action: $0) },
        extract: {
          guard case .element(id, let action) = $0 else { return nil }
          return action
        })
    }
  }
}

extension Reducer {
  /// Runs `destination` on the elements of a navigation stack, before this reducer, as TCA's
  /// `forEach` for a `StackState`.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .forEach(\.path, action: \.path) { ContactDetail() }
  /// ```
  ///
  /// - `.element(id:action:)` runs the element's reducer; an action for an id the stack does
  ///   not have is reported as an issue.
  /// - `.push(id:state:)` appends the element (after this reducer runs), `.popFrom(id:)` removes
  ///   it and those after it (after this reducer runs).
  /// - An element's `dismiss` dependency sends `.popFrom(id:)` for it; a removed element's
  ///   effects are cancelled.
  public func forEach<DestinationState, DestinationAction, Destination: Reducer>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>>,
    action toStackAction: CaseKeyPath<Action, StackAction<DestinationState, DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _StackReducer<Self, Destination>
  where Action: CasePathable, Destination.State == DestinationState, Destination.Action == DestinationAction {
    _StackReducer(
      base: self, toStackState: toStackState, toStackAction: AnyCasePath(toStackAction), destination: destination(),
      fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

/// The reducer of ``Reducer/forEach(_:action:destination:fileID:filePath:line:column:)``.
public struct _StackReducer<Base: Reducer, Destination: Reducer>: Reducer {
  let base: Base
  let toStackState: WritableKeyPath<Base.State, StackState<Destination.State>>
  let toStackAction: AnyCasePath<Base.Action, StackAction<Destination.State, Destination.Action>>
  let destination: Destination
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt

  init(
    base: Base, toStackState: WritableKeyPath<Base.State, StackState<Destination.State>>,
    toStackAction: AnyCasePath<Base.Action, StackAction<Destination.State, Destination.Action>>,
    destination: Destination, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) {
    self.base = base
    self.toStackState = toStackState
    self.toStackAction = toStackAction
    self.destination = destination
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let mountedIDs = state[keyPath: toStackState].mountedIDs
    let idsBefore = mountedIDs + state[keyPath: toStackState].ids.filter { !mountedIDs.contains($0) }
    var destinationEffects = Effect<Base.Action>.none
    let baseEffects: Effect<Base.Action>

    switch toStackAction.extract(from: action) {
    case .element(let id, let destinationAction):
      if let index = state[keyPath: toStackState].ids.firstIndex(of: id) {
        let token = DismissToken()
        let effect = reduceWithDismiss(
          destination, into: &state[keyPath: toStackState][index], action: destinationAction, token: token)
        destinationEffects = effect.navigationChild(
          navigationID: NavigationID(keyPath: toStackState, identity: id), token: token,
          embed: { [toStackAction] in toStackAction.embed(.element(id: id, action: $0)) },
          dismissAction: { [toStackAction] in toStackAction.embed(.popFrom(id: id)) })
      } else {
        reportIssue(
          """
          A "forEach" at "\(fileID):\(line)" received an action for a missing element.

            Action:
              \(debugCaseOutput(destinationAction))

          This is generally considered an application logic error, and can happen for a few reasons:

          A parent reducer removed an element with this ID before this reducer ran. This reducer \
          must run before any other reducer removes an element, which ensures that element \
          reducers can handle their actions while their state is still available.

          An in-flight effect emitted this action when state contained no element at this ID. \
          While it may be perfectly reasonable to ignore this action, consider canceling the \
          associated effect before an element is removed, especially if it is a long-living effect.

          This action was sent to the store while its state contained no element at this ID. To \
          fix this make sure that actions for this reducer can only be sent from a store when \
          its state contains an element at this id. In SwiftUI applications, use \
          "NavigationStack.init(path:)" with a binding to a store.
          """,
          fileID: fileID, filePath: filePath, line: line, column: column)
      }
      baseEffects = base.reduce(into: &state, action: action)

    case .popFrom(let id):
      let canPop = state[keyPath: toStackState].ids.contains(id)
      baseEffects = base.reduce(into: &state, action: action)
      if canPop {
        state[keyPath: toStackState].pop(from: id)
      } else {
        reportIssue(
          """
          A "forEach" at "\(fileID):\(line)" received a "popFrom" action for a missing element.

            ID:
              \(id.debugDescription)
            Path IDs:
              \(describeIDs(state[keyPath: toStackState].ids))
          """,
          fileID: fileID, filePath: filePath, line: line, column: column)
      }

    case .push(let id, let element):
      if state[keyPath: toStackState].ids.contains(id) {
        reportIssue(
          """
          A "forEach" at "\(fileID):\(line)" received a "push" action for an element it already \
          contains.

            ID:
              \(id.debugDescription)
            Path IDs:
              \(describeIDs(state[keyPath: toStackState].ids))
          """,
          fileID: fileID, filePath: filePath, line: line, column: column)
        baseEffects = base.reduce(into: &state, action: action)
        break
      }
      @Dependency(\.stackElementID) var stackElementID
      @Dependency(\.context) var context
      if context == .test {
        let nextID = stackElementID.peek()
        if id.generation > nextID.generation {
          reportIssue(
            """
            A "forEach" at "\(fileID):\(line)" received a "push" action with an unexpected \
            generational ID.

              Received ID:
                \(id.debugDescription)
              Expected ID:
                \(nextID.debugDescription)
            """,
            fileID: fileID, filePath: filePath, line: line, column: column)
        }
      }
      stackElementID.skip(past: id)
      state[keyPath: toStackState].append(element, id: id)
      baseEffects = base.reduce(into: &state, action: action)

    case .none:
      baseEffects = base.reduce(into: &state, action: action)
    }

    let idsAfter = state[keyPath: toStackState].ids
    state[keyPath: toStackState].mountedIDs = idsAfter
    var cancelEffects = Effect<Base.Action>.none
    if idsBefore != idsAfter {
      let remaining = Set(idsAfter)
      cancelEffects = .merge(
        idsBefore.filter { !remaining.contains($0) }.map {
          .cancel(id: NavigationID(keyPath: toStackState, identity: $0))
        })
    }
    return .merge(destinationEffects, baseEffects, cancelEffects)
  }
}

/// `[#0, #1]`, as TCA lists a path's ids.
private func describeIDs(_ ids: [StackElementID]) -> String {
  "[\(ids.map(\.debugDescription).joined(separator: ", "))]"
}
