import Foundation
import ReducerCore

// `AlertState` alone names RepositorySearch's alert in this module; the generic alerts below
// are ReducerCore's, `ReducerCore.AlertState<Action>`.

// MARK: - Model

/// A contact of the list.
public struct Contact: Codable, Equatable, Hashable, Identifiable, Sendable {
  /// The contact's identifier, from the `uuid` dependency.
  public var id: UUID
  /// The contact's name.
  public var name: String

  /// A contact.
  public init(id: UUID, name: String) {
    self.id = id
    self.name = name
  }
}

// MARK: - Contacts

/// A list of contacts, with a sheet to add one, an alert to delete one, and a stack of
/// detail screens: TCA's navigation tutorial in this package's words.
///
/// The sheet and the list's alert are the two cases of one enum destination (`@Presents`,
/// `ifLet`); the detail screens are a navigation stack (`StackState`, `forEach`). The
/// children talk to the list through delegate actions, and close themselves with the
/// `dismiss` dependency:
///
/// ```swift
/// let store = TestStore(initialState: Contacts.State()) {
///   Contacts()
/// } withDependencies: {
///   $0.uuid = .incrementing
/// }
/// await store.send(.addButtonTapped) {
///   $0.destination = .addContact(AddContact.State(contact: Contact(id: UUID(0), name: "")))
/// }
/// await store.send(\.destination.addContact.saveButtonTapped)
/// await store.receive(\.destination.addContact.delegate.saveContact) {
///   $0.contacts = [Contact(id: UUID(0), name: "")]
/// }
/// await store.receive(\.destination.dismiss) { $0.destination = nil }
/// ```
///
/// Registered with `reducer-spec` as `Contacts`; its dependencies are `uuid` and `dismiss`
/// (the architecture's own: a spec does not stub it).
@Reducer
public struct Contacts {
  /// What the list presents: the sheet that adds a contact, or the alert that deletes one.
  @Reducer
  public enum Destination {
    /// The sheet that adds a contact.
    case addContact(AddContact)
    /// The alert that confirms a deletion; its buttons send `Contacts.Action.Alert`.
    case alert(ReducerCore.AlertState<Contacts.Action.Alert>)
  }

  /// The contacts, what is presented over them, and the stack of detail screens.
  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    /// The contacts, in the order they were added.
    public var contacts: IdentifiedArrayOf<Contact> = []
    /// The sheet or alert on show, if any.
    @Presents public var destination: Destination.State?
    /// The detail screens pushed over the list, bottom first.
    public var path = StackState<ContactDetail.State>()

    /// A state; `State()` is the feature's default state: no contacts, nothing presented,
    /// nothing pushed.
    public init(
      contacts: IdentifiedArrayOf<Contact> = [],
      destination: Destination.State? = nil,
      path: StackState<ContactDetail.State> = []
    ) {
      self.contacts = contacts
      self.destination = destination
      self.path = path
    }
  }

  /// What the user does on the list, and the actions of what it presents and pushes.
  public enum Action: Codable, Equatable, Sendable {
    /// The add button was tapped: presents the sheet with a new, unnamed contact.
    case addButtonTapped
    /// A contact's delete button was tapped: presents an alert that confirms the deletion.
    case deleteButtonTapped(id: UUID)
    /// An action of the sheet or the alert, or their dismissal.
    case destination(PresentationAction<Destination.Action>)
    /// An action of a detail screen, or a push or a pop of the stack.
    case path(StackActionOf<ContactDetail>)

    /// The actions of the list's alert's buttons.
    @CasePathable
    public enum Alert: Codable, Equatable, Hashable, Sendable {
      /// Deletes the contact with this id.
      case confirmDeletion(id: UUID)
    }
  }

  @Dependency(\.uuid) var uuid

  /// The list's reducer.
  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addButtonTapped:
        state.destination = .addContact(AddContact.State(contact: Contact(id: uuid(), name: "")))
        return .none

      case .deleteButtonTapped(let id):
        state.destination = .alert(.deleteContact(id: id))
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
    .ifLet(\.$destination, action: \.destination)
    .forEach(\.path, action: \.path) {
      ContactDetail()
    }
  }
}

extension Contacts.Destination.State: Codable, Equatable, Sendable {}
extension Contacts.Destination.Action: Codable, Equatable, Sendable {}

extension ReducerCore.AlertState where Action == Contacts.Action.Alert {
  /// The list's alert: *Are you sure?*, with a destructive *Delete* button that deletes the
  /// contact `id`.
  public static func deleteContact(id: UUID) -> Self {
    Self(
      title: "Are you sure?",
      buttons: [
        ButtonState(label: "Delete", role: .destructive, action: .confirmDeletion(id: id))
      ])
  }
}

// MARK: - AddContact

/// The sheet that adds a contact: the user names it, then saves or cancels.
///
/// Saving tells the parent through the delegate action `saveContact`, then closes the sheet
/// with the `dismiss` dependency; cancelling only closes it.
@Reducer
public struct AddContact {
  /// The contact being added.
  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    /// The new contact, named as the user types.
    public var contact: Contact

    /// A state.
    public init(contact: Contact) {
      self.contact = contact
    }
  }

  /// What the user does on the sheet, and what it tells its parent.
  public enum Action: Codable, Equatable, Sendable {
    /// The name field changed.
    case setName(String)
    /// The save button was tapped: sends `delegate(.saveContact(contact))`, then dismisses.
    case saveButtonTapped
    /// The cancel button was tapped: dismisses, saving nothing.
    case cancelButtonTapped
    /// What the sheet tells its parent; the sheet itself does nothing with it.
    case delegate(Delegate)

    /// What the sheet tells its parent.
    @CasePathable
    public enum Delegate: Codable, Equatable, Sendable {
      /// Save this contact.
      case saveContact(Contact)
    }
  }

  @Dependency(\.dismiss) var dismiss

  /// The sheet's reducer.
  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .setName(let name):
        state.contact.name = name
        return .none

      case .saveButtonTapped:
        return .run { [contact = state.contact, dismiss] send in
          await send(.delegate(.saveContact(contact)))
          await dismiss()
        }

      case .cancelButtonTapped:
        return .run { [dismiss] _ in
          await dismiss()
        }

      case .delegate:
        return .none
      }
    }
  }
}

// MARK: - ContactDetail

/// The screen of one contact, pushed on the list's stack. Its delete button asks for
/// confirmation with an alert; confirming tells the parent through the delegate action
/// `confirmDeletion`, then pops the screen with the `dismiss` dependency.
@Reducer
public struct ContactDetail {
  /// The contact on show, and the alert.
  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    /// The contact on show.
    public var contact: Contact
    /// The alert that confirms the deletion, if on show.
    @Presents public var alert: ReducerCore.AlertState<Action.Alert>?

    /// A state.
    public init(contact: Contact, alert: ReducerCore.AlertState<Action.Alert>? = nil) {
      self.contact = contact
      self.alert = alert
    }
  }

  /// What the user does on the screen and its alert, and what it tells its parent.
  public enum Action: Codable, Equatable, Sendable {
    /// The delete button was tapped: presents the alert.
    case deleteButtonTapped
    /// A button of the alert was tapped (any of them dismisses it).
    case alert(PresentationAction<Alert>)
    /// What the screen tells its parent; the screen itself does nothing with it.
    case delegate(Delegate)

    /// The actions of the alert's buttons.
    @CasePathable
    public enum Alert: Codable, Equatable, Hashable, Sendable {
      /// Sends `delegate(.confirmDeletion)`, then dismisses the screen.
      case confirmDeletion
    }

    /// What the screen tells its parent.
    @CasePathable
    public enum Delegate: Codable, Equatable, Sendable {
      /// Delete this screen's contact.
      case confirmDeletion
    }
  }

  @Dependency(\.dismiss) var dismiss

  /// The screen's reducer.
  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .deleteButtonTapped:
        state.alert = .confirmDeletion
        return .none

      case .alert(.presented(.confirmDeletion)):
        return .run { [dismiss] send in
          await send(.delegate(.confirmDeletion))
          await dismiss()
        }

      case .alert, .delegate:
        return .none
      }
    }
    .ifLet(\.$alert, action: \.alert)
  }
}

extension ReducerCore.AlertState where Action == ContactDetail.Action.Alert {
  /// The detail screen's alert: *Are you sure?*, with a destructive *Delete* button and a
  /// *Cancel* button.
  public static let confirmDeletion = Self(
    title: "Are you sure?",
    buttons: [
      ButtonState(label: "Delete", role: .destructive, action: .confirmDeletion),
      ButtonState(label: "Cancel", role: .cancel),
    ])
}
