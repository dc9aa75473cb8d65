import CasePaths
import Clocks
import Dependencies
import Foundation
import ReducerCore

// Features shaped like EXAMPLE-FEATURES.md's Todos and Contacts, small enough for tests of
// forEach, ifLet, stacks, alerts, dismiss and bindings.

/// A todo: a BindingReducer over fields that specs can bind by name.
struct Todo: Reducer {
  struct State: Equatable, Identifiable, Codable, BindableStateFields {
    var id: UUID
    var description = ""
    var isComplete = false

    static let bindableFields: [BindableField<Self>] = [
      .field("description", \.description),
      .field("isComplete", \.isComplete),
    ]
  }

  @CasePathable
  enum Action: Equatable, BindableAction, Codable {
    case binding(BindingAction<State>)
    /// Starts an effect that waits 10 s on the clock, then marks the todo complete.
    case completeLater
    case completed

    var binding: BindingAction<State>? {
      if case .binding(let action) = self { return action }
      return nil
    }
  }

  @Dependency(\.continuousClock) var clock

  var body: some Reducer<State, Action> {
    BindingReducer()
      .onChange(of: \.isComplete) { _, isComplete in
        Reduce { state, _ in
          if isComplete && state.description.isEmpty { state.description = "Done" }
          return .none
        }
      }
    Reduce { state, action in
      switch action {
      case .binding:
        return .none
      case .completeLater:
        return .run { send in
          try await clock.sleep(for: .seconds(10))
          await send(.completed)
        }
      case .completed:
        state.isComplete = true
        return .none
      }
    }
  }
}

/// A list of todos: forEach, and a debounced sort when a todo's completion changes.
struct Todos: Reducer {
  struct State: Equatable {
    var todos: IdentifiedArrayOf<Todo.State> = []
  }

  @CasePathable
  enum Action: Equatable {
    case addTodoButtonTapped
    case delete([UUID])
    case sortCompletedTodos
    case todos(IdentifiedActionOf<Todo>)
  }

  enum CancelID { case todoCompletion }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.uuid) var uuid

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .addTodoButtonTapped:
        state.todos.insert(Todo.State(id: uuid()), at: 0)
        return .none
      case .delete(let ids):
        state.todos.removeAll { ids.contains($0.id) }
        return .none
      case .sortCompletedTodos:
        state.todos = IdentifiedArray(
          uniqueElements: state.todos.filter { !$0.isComplete } + state.todos.filter(\.isComplete))
        return .none
      case .todos(.element(id: _, action: .binding(\.isComplete))):
        return .run { send in
          try await clock.sleep(for: .seconds(1))
          await send(.sortCompletedTodos)
        }
        .cancellable(id: CancelID.todoCompletion, cancelInFlight: true)
      case .todos:
        return .none
      }
    }
    .forEach(\.todos, action: \.todos) { Todo() }
  }
}

struct Contact: Equatable, Identifiable, Codable, Sendable {
  var id: UUID
  var name: String
}

/// A sheet: saves through a delegate action and dismisses itself.
struct AddContact: Reducer {
  struct State: Equatable, Codable {
    var contact: Contact
  }

  @CasePathable
  enum Action: Equatable {
    case cancelButtonTapped
    case delegate(Delegate)
    case saveButtonTapped
    case setName(String)
    /// Starts an effect that sleeps a minute: dismissing the sheet must cancel it.
    case task

    @CasePathable
    enum Delegate: Equatable {
      case saveContact(Contact)
    }
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .cancelButtonTapped:
      return .run { _ in await dismiss() }
    case .delegate:
      return .none
    case .saveButtonTapped:
      return .run { [contact = state.contact] send in
        await send(.delegate(.saveContact(contact)))
        await dismiss()
      }
    case .setName(let name):
      state.contact.name = name
      return .none
    case .task:
      return .run { send in
        try await clock.sleep(for: .seconds(60))
        await send(.setName("Too late"))
      }
    }
  }
}

/// A screen on the stack, with an alert that deletes the contact and pops the screen.
struct ContactDetail: Reducer {
  struct State: Equatable {
    var contact: Contact
    @Presents var alert: AlertState<Action.Alert>? = nil
  }

  @CasePathable
  enum Action: Equatable {
    case alert(PresentationAction<Alert>)
    case delegate(Delegate)
    case deleteButtonTapped

    @CasePathable enum Alert: Equatable, Codable {
      case confirmDeletion
    }

    enum Delegate: Equatable {
      case confirmDeletion
    }
  }

  @Dependency(\.dismiss) var dismiss

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .alert(.presented(.confirmDeletion)):
        return .run { send in
          await send(.delegate(.confirmDeletion))
          await dismiss()
        }
      case .alert, .delegate:
        return .none
      case .deleteButtonTapped:
        state.alert = .deleteContact
        return .none
      }
    }
    .ifLet(\.$alert, action: \.alert)
  }
}

extension AlertState where Action == ContactDetail.Action.Alert {
  static let deleteContact = AlertState(
    title: "Are you sure?",
    buttons: [
      ButtonState(label: "Delete", role: .destructive, action: .confirmDeletion),
      ButtonState(label: "Cancel", role: .cancel),
    ])
}

/// A list with a sheet and an alert in one enum destination, and a stack of details.
struct Contacts: Reducer {
  struct State: Equatable {
    var contacts: IdentifiedArrayOf<Contact> = []
    @Presents var destination: Destination.State? = nil
    var path = StackState<ContactDetail.State>()
  }

  @CasePathable
  enum Action: Equatable {
    case addButtonTapped
    case contactTapped(Contact)
    case deleteButtonTapped(id: UUID)
    case destination(PresentationAction<Destination.Action>)
    case path(StackActionOf<ContactDetail>)

    @CasePathable
    enum Alert: Equatable {
      case confirmDeletion(id: UUID)
    }
  }

  struct Destination: Reducer {
    @CasePathable
    enum State: Equatable {
      case addContact(AddContact.State)
      case alert(AlertState<Contacts.Action.Alert>)
    }

    @CasePathable
    enum Action: Equatable {
      case addContact(AddContact.Action)
      case alert(Contacts.Action.Alert)
    }

    var body: some Reducer<State, Action> {
      Scope(state: \.addContact, action: \.addContact) { AddContact() }
    }
  }

  @Dependency(\.uuid) var uuid

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .addButtonTapped:
        state.destination = .addContact(AddContact.State(contact: Contact(id: uuid(), name: "")))
        return .none
      case .contactTapped(let contact):
        state.path.append(ContactDetail.State(contact: contact))
        return .none
      case .deleteButtonTapped(let id):
        state.destination = .alert(
          AlertState(
            title: "Are you sure?",
            buttons: [ButtonState(label: "Delete", role: .destructive, action: .confirmDeletion(id: id))]))
        return .none
      case .destination(.presented(.addContact(.delegate(.saveContact(let contact))))):
        state.contacts.append(contact)
        return .none
      case .destination(.presented(.alert(.confirmDeletion(let id)))):
        state.contacts.remove(id: id)
        return .none
      case .destination:
        return .none
      case .path(.element(id: let id, action: .delegate(.confirmDeletion))):
        guard let detail = state.path[id: id] else { return .none }
        state.contacts.remove(id: detail.contact.id)
        return .none
      case .path:
        return .none
      }
    }
    .ifLet(\.$destination, action: \.destination) { Destination() }
    .forEach(\.path, action: \.path) { ContactDetail() }
  }
}
