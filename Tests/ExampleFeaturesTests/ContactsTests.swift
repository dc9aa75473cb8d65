import CasePaths
import Dependencies
import ExampleFeatures
import Foundation
import ReducerCore
import Testing

// `AlertState` alone would also name RepositorySearch's alert: the alerts here are
// ReducerCore's.

@MainActor
@Suite struct ContactsTests {
  let blob = Contact(id: UUID(0), name: "Blob")
  let blobJr = Contact(id: UUID(1), name: "Blob Jr.")

  /// The alert of the detail screen, written out: Delete (destructive) and Cancel.
  let detailAlert = ReducerCore.AlertState<ContactDetail.Action.Alert>(
    title: "Are you sure?",
    buttons: [
      ButtonState(label: "Delete", role: .destructive, action: .confirmDeletion),
      ButtonState(label: "Cancel", role: .cancel),
    ])

  /// The alert of the list for the contact `id`, written out: Delete (destructive) only.
  func listAlert(id: UUID) -> ReducerCore.AlertState<Contacts.Action.Alert> {
    ReducerCore.AlertState(
      title: "Are you sure?",
      buttons: [ButtonState(label: "Delete", role: .destructive, action: .confirmDeletion(id: id))])
  }

  // MARK: - The sheet

  @Test func savingANewContactAppendsItThroughTheDelegateAndClosesTheSheet() async {
    let store = TestStore(initialState: Contacts.State()) {
      Contacts()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    await store.send(.addButtonTapped) {
      $0.destination = .addContact(AddContact.State(contact: Contact(id: UUID(0), name: "")))
    }
    await store.send(.destination(.presented(.addContact(.setName("Blob"))))) {
      $0.$destination[case: \.addContact]?.contact.name = "Blob"
    }
    await store.send(.destination(.presented(.addContact(.saveButtonTapped))))
    await store.receive(.destination(.presented(.addContact(.delegate(.saveContact(blob)))))) {
      $0.contacts = [blob]
    }
    await store.receive(.destination(.dismiss)) {
      $0.destination = nil
    }
  }

  @Test func cancellingTheSheetSavesNothingAndTheNextContactGetsTheNextID() async {
    let store = TestStore(initialState: Contacts.State()) {
      Contacts()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    await store.send(.addButtonTapped) {
      $0.destination = .addContact(AddContact.State(contact: Contact(id: UUID(0), name: "")))
    }
    await store.send(\.destination.addContact.setName, "Blob") {
      $0.$destination[case: \.addContact]?.contact.name = "Blob"
    }
    await store.send(.destination(.presented(.addContact(.cancelButtonTapped))))
    await store.receive(\.destination.dismiss) {
      $0.destination = nil
    }
    await store.send(.addButtonTapped) {
      $0.destination = .addContact(AddContact.State(contact: Contact(id: UUID(1), name: "")))
    }
    await store.send(\.destination.addContact.setName, "Blob Jr.") {
      $0.$destination[case: \.addContact]?.contact.name = "Blob Jr."
    }
    await store.send(.destination(.presented(.addContact(.saveButtonTapped))))
    await store.receive(\.destination.addContact.delegate.saveContact, blobJr) {
      $0.contacts = [blobJr]
    }
    await store.receive(\.destination.dismiss) {
      $0.destination = nil
    }
  }

  @Test func theSheetAloneSavesThroughItsDelegateThenDismisses() async {
    let dismissed = LockIsolated(0)
    let store = TestStore(initialState: AddContact.State(contact: blob)) {
      AddContact()
    } withDependencies: {
      $0.dismiss = DismissEffect { dismissed.withValue { $0 += 1 } }
    }
    await store.send(.saveButtonTapped)
    await store.receive(.delegate(.saveContact(blob)))
    await store.finish()
    #expect(dismissed.value == 1)
    // As in TCA, a feature that dismisses itself at the root dismisses the store: cancelling
    // is tried on a store of its own.
    #expect(store.isDismissed)
    let cancelling = TestStore(initialState: AddContact.State(contact: blob)) {
      AddContact()
    } withDependencies: {
      $0.dismiss = DismissEffect { dismissed.withValue { $0 += 1 } }
    }
    await cancelling.send(.cancelButtonTapped).finish()
    #expect(dismissed.value == 2)
  }

  // MARK: - The list's alert

  @Test func deletingFromTheListAsksFirstAndDeleteRemovesTheContact() async {
    let store = TestStore(initialState: Contacts.State(contacts: [blob, blobJr])) {
      Contacts()
    }
    await store.send(.deleteButtonTapped(id: blobJr.id)) {
      $0.destination = .alert(listAlert(id: blobJr.id))
    }
    await store.send(.destination(.presented(.alert(.confirmDeletion(id: blobJr.id))))) {
      $0.contacts = [blob]
      $0.destination = nil
    }
  }

  @Test func dismissingTheListsAlertDeletesNothing() async {
    let store = TestStore(initialState: Contacts.State(contacts: [blob])) {
      Contacts()
    }
    await store.send(.deleteButtonTapped(id: blob.id)) {
      $0.destination = .alert(.deleteContact(id: blob.id))
    }
    await store.send(.destination(.dismiss)) {
      $0.destination = nil
    }
  }

  // MARK: - The stack

  @Test func pushingAContactsScreenAndPoppingIt() async {
    let store = TestStore(initialState: Contacts.State(contacts: [blob])) {
      Contacts()
    }
    await store.send(.path(.push(id: 0, state: ContactDetail.State(contact: blob)))) {
      $0.path[id: 0] = ContactDetail.State(contact: blob)
    }
    await store.send(.path(.popFrom(id: 0))) {
      $0.path = []
    }
  }

  @Test func poppingAScreenPopsEveryScreenAboveIt() async {
    let store = TestStore(initialState: Contacts.State(contacts: [blob, blobJr])) {
      Contacts()
    }
    await store.send(.path(.push(id: 0, state: ContactDetail.State(contact: blob)))) {
      $0.path[id: 0] = ContactDetail.State(contact: blob)
    }
    await store.send(.path(.push(id: 1, state: ContactDetail.State(contact: blobJr)))) {
      $0.path[id: 1] = ContactDetail.State(contact: blobJr)
    }
    await store.send(.path(.popFrom(id: 0))) {
      $0.path = []
    }
  }

  @Test func deletingFromAContactsScreenRemovesTheContactAndPopsTheScreen() async {
    let store = TestStore(initialState: Contacts.State(contacts: [blob, blobJr])) {
      Contacts()
    }
    await store.send(.path(.push(id: 0, state: ContactDetail.State(contact: blobJr)))) {
      $0.path[id: 0] = ContactDetail.State(contact: blobJr)
    }
    await store.send(.path(.element(id: 0, action: .deleteButtonTapped))) {
      $0.path[id: 0]?.alert = detailAlert
    }
    await store.send(\.path[id: 0].alert.confirmDeletion) {
      $0.path[id: 0]?.alert = nil
    }
    await store.receive(.path(.element(id: 0, action: .delegate(.confirmDeletion)))) {
      $0.contacts = [blob]
    }
    await store.receive(.path(.popFrom(id: 0))) {
      $0.path = []
    }
  }

  @Test func cancellingAContactsAlertKeepsTheContactAndTheScreen() async {
    let store = TestStore(initialState: Contacts.State(contacts: [blob])) {
      Contacts()
    }
    await store.send(.path(.push(id: 0, state: ContactDetail.State(contact: blob)))) {
      $0.path[id: 0] = ContactDetail.State(contact: blob)
    }
    await store.send(.path(.element(id: 0, action: .deleteButtonTapped))) {
      $0.path[id: 0]?.alert = .confirmDeletion
    }
    await store.send(.path(.element(id: 0, action: .alert(.dismiss)))) {
      $0.path[id: 0]?.alert = nil
    }
  }

  // MARK: - Codable forms

  @Test func theStateRoundTripsAndDecodesLeniently() throws {
    var state = Contacts.State(contacts: [blob])
    state.destination = .alert(listAlert(id: blob.id))
    state.path.append(ContactDetail.State(contact: blob, alert: detailAlert))
    try expectRoundTrip(state)
    try expectRoundTrip(Contacts.State(destination: .addContact(AddContact.State(contact: blobJr))))

    #expect(try decode(Contacts.State.self, from: "{}") == Contacts.State())
    let detail = try decode(
      ContactDetail.State.self, from: #"{"contact":{"id":"00000000-0000-0000-0000-000000000000","name":"Blob"}}"#)
    #expect(detail == ContactDetail.State(contact: blob))
  }

  @Test func theActionsRoundTrip() throws {
    try expectRoundTrip(Contacts.Action.deleteButtonTapped(id: blob.id))
    try expectRoundTrip(Contacts.Action.destination(.presented(.addContact(.delegate(.saveContact(blob))))))
    try expectRoundTrip(Contacts.Action.destination(.presented(.alert(.confirmDeletion(id: blob.id)))))
    try expectRoundTrip(Contacts.Action.destination(.dismiss))
    try expectRoundTrip(Contacts.Action.path(.push(id: 0, state: ContactDetail.State(contact: blob))))
    try expectRoundTrip(Contacts.Action.path(.element(id: 0, action: .alert(.presented(.confirmDeletion)))))
    try expectRoundTrip(Contacts.Action.path(.popFrom(id: 0)))
  }
}
