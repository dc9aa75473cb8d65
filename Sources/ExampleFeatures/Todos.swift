import Foundation
import ReducerCore

// MARK: - Todo

/// One todo of ``Todos``: a description and whether it is done, both edited through bindings.
///
/// ```swift
/// let store = TestStore(initialState: Todo.State(id: UUID(0))) { Todo() }
/// await store.send(.binding(.set(\.description, "Milk"))) { $0.description = "Milk" }
/// await store.send(.binding(.set(\.isComplete, true))) { $0.isComplete = true }
/// ```
@Reducer
public struct Todo {
  /// A todo. Its bindable fields are `description` and `isComplete`, so a spec writes a
  /// binding by name: `{ binding: { isComplete: true } }`.
  @ObservableState
  public struct State: Codable, Equatable, Identifiable, Sendable {
    /// The todo's identifier, from the `uuid` dependency.
    public let id: UUID
    /// What is to be done.
    public var description = ""
    /// Whether it is done.
    public var isComplete = false

    /// A todo; `Todo.State(id: uuid())` is a new, empty one.
    public init(id: UUID, description: String = "", isComplete: Bool = false) {
      self.id = id
      self.description = description
      self.isComplete = isComplete
    }
  }

  /// What the user does to a todo: edits a field through a binding.
  public enum Action: BindableAction, Codable, Equatable, Sendable {
    /// A field was edited: `.binding(.set(\.isComplete, true))`.
    case binding(BindingAction<State>)
  }

  /// A todo's reducer.
  public init() {}

  public var body: some ReducerOf<Self> {
    BindingReducer()
  }
}

// MARK: - Todos

/// A list of todos: add, edit, complete, filter, clear and delete them. A completed todo moves
/// below the incomplete ones one second after the last change of completion, so that a user
/// who ticks several todos in a row does not see the list jump under their finger.
///
/// ```swift
/// let clock = TestClock()
/// let store = TestStore(initialState: Todos.State()) {
///   Todos()
/// } withDependencies: {
///   $0.uuid = .incrementing
///   $0.continuousClock = clock
/// }
/// await store.send(.addTodoButtonTapped) { $0.todos = [Todo.State(id: UUID(0))] }
/// await store.send(.todos(.element(id: UUID(0), action: .binding(.set(\.isComplete, true))))) {
///   $0.todos[id: UUID(0)]?.isComplete = true
/// }
/// await clock.advance(by: .seconds(1))
/// await store.receive(.sortCompletedTodos)
/// ```
///
/// Registered with `reducer-spec` as `Todos`; its dependencies are `uuid` and the continuous
/// clock.
@Reducer
public struct Todos {
  /// Which todos the list shows.
  public enum Filter: String, Codable, CaseIterable, Equatable, Hashable, Sendable {
    /// Every todo.
    case all
    /// The todos not done yet.
    case active
    /// The todos done.
    case completed
  }

  /// The todos and the filter.
  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    /// Every todo, newest first until a sort moves the completed ones down.
    public var todos: IdentifiedArrayOf<Todo.State> = []
    /// Which todos ``filteredTodos`` keeps.
    public var filter: Filter = .all

    /// A state; `State()` is the feature's default state (no todos, filter `all`).
    public init(todos: IdentifiedArrayOf<Todo.State> = [], filter: Filter = .all) {
      self.todos = todos
      self.filter = filter
    }

    /// The todos that the filter keeps, in order. Derived: neither stored nor encoded.
    public var filteredTodos: IdentifiedArrayOf<Todo.State> {
      switch filter {
      case .all: todos
      case .active: todos.filter { !$0.isComplete }
      case .completed: todos.filter(\.isComplete)
      }
    }
  }

  /// What the user does, and the sort that follows a change of completion.
  public enum Action: Codable, Equatable, Sendable {
    /// Adds an empty todo at the top of the list, with an id from `uuid`.
    case addTodoButtonTapped
    /// Removes every completed todo.
    case clearCompletedButtonTapped
    /// Removes the todos with these ids (a swipe to delete).
    case delete([UUID])
    /// Shows all, the active or the completed todos.
    case filterPicked(Filter)
    /// An action of one todo, by its id. When it changes the todo's `isComplete`, the list is
    /// sorted one second later (`sortCompletedTodos`); a newer change restarts the wait.
    case todos(IdentifiedActionOf<Todo>)
    /// Moves the completed todos below the incomplete ones, keeping the order within each.
    case sortCompletedTodos
  }

  private enum CancelID: Hashable, Sendable {
    case todoCompletion
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.uuid) var uuid

  /// The list's reducer.
  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addTodoButtonTapped:
        state.todos.insert(Todo.State(id: uuid()), at: 0)
        return .none

      case .clearCompletedButtonTapped:
        state.todos.removeAll(where: \.isComplete)
        return .none

      case .delete(let ids):
        state.todos.removeAll { ids.contains($0.id) }
        return .none

      case .filterPicked(let filter):
        state.filter = filter
        return .none

      case .todos:
        return .none

      case .sortCompletedTodos:
        // A stable sort: the incomplete todos, then the completed ones, each in their order.
        state.todos = IdentifiedArray(
          uniqueElements: state.todos.filter { !$0.isComplete } + state.todos.filter(\.isComplete))
        return .none
      }
    }
    .forEach(\.todos, action: \.todos) { Todo() }
    // An element's action cannot add, remove or move todos, so when one changes the todos'
    // completions, it changed the `isComplete` of its todo.
    .onChange(of: { $0.todos.map(\.isComplete) }) { _, _ in
      Reduce { _, action in
        guard case .todos = action else { return .none }
        return .run { [clock] send in
          try await clock.sleep(for: .seconds(1))
          await send(.sortCompletedTodos)
        }
        .cancellable(id: CancelID.todoCompletion, cancelInFlight: true)
      }
    }
  }
}
