import Clocks
import Dependencies
import Foundation
import ReducerCore
import TestSupport
import Testing

/// forEach over identified collections, ifLet with @Presents, stacks, alerts and dismiss.
@MainActor
@Suite struct NavigationTests {
  // MARK: forEach

  @Test func forEachRunsTheElementAndTheParentSortsLater() async {
    let clock = TestClock()
    let store = TestStore(initialState: Todos.State()) { Todos() } withDependencies: {
      $0.uuid = .incrementing
      $0.continuousClock = clock
    }
    await store.send(.addTodoButtonTapped) { $0.todos = [Todo.State(id: UUID(0))] }
    await store.send(.addTodoButtonTapped) { $0.todos = [Todo.State(id: UUID(1)), Todo.State(id: UUID(0))] }
    await store.send(.todos(.element(id: UUID(1), action: .binding(.set(\.isComplete, true))))) {
      $0.todos[id: UUID(1)]?.isComplete = true
      $0.todos[id: UUID(1)]?.description = "Done"  // the element's onChange
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.sortCompletedTodos) {
      $0.todos = [
        Todo.State(id: UUID(0)), Todo.State(id: UUID(1), description: "Done", isComplete: true),
      ]
    }
  }

  @Test func aNewerCompletionChangeCancelsTheWait() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: Todos.State(todos: [Todo.State(id: UUID(0)), Todo.State(id: UUID(1))])
    ) { Todos() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(\.todos[id: UUID(0)].binding, .set(\.isComplete, true)) {
      $0.todos[id: UUID(0)]?.isComplete = true
      $0.todos[id: UUID(0)]?.description = "Done"
    }
    await clock.advance(by: .milliseconds(500))
    await store.send(\.todos[id: UUID(0)].binding, .set(\.isComplete, false)) {
      $0.todos[id: UUID(0)]?.isComplete = false
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.sortCompletedTodos)
  }

  @Test func removingAnElementCancelsItsEffects() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: Todos.State(todos: [Todo.State(id: UUID(0))])) { Todos() } withDependencies: {
        $0.continuousClock = TestClock()
      }
      await store.send(.todos(.element(id: UUID(0), action: .completeLater)))
      #expect(store.effectsInFlight.count == 1)
      await store.send(.delete([UUID(0)])) { $0.todos = [] }
      #expect(store.effectsInFlight.isEmpty)
      store.completed()
    }
    #expect(issues == [])
  }

  @Test func anActionForAMissingElement() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: Todos.State()) { Todos() } withDependencies: {
        $0.continuousClock = TestClock()
      }
      await store.send(.todos(.element(id: UUID(7), action: .completed)))
    }
    #expect(
      issues.first?.message == """
        A "forEach" at "ReducerCoreTests/NavigationFixtures.swift:105" received an action for a missing element.

          Action:
            Todos.Action.todos(.element(id:, action: .completed))

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
        """)
    #expect(issues.count == 1)
  }

  // MARK: ifLet, @Presents and dismiss

  @Test func aSheetSavesThroughItsDelegateAndDismissesItself() async {
    let store = TestStore(initialState: Contacts.State()) { Contacts() } withDependencies: {
      $0.uuid = .incrementing
    }
    await store.send(.addButtonTapped) {
      $0.destination = .addContact(AddContact.State(contact: Contact(id: UUID(0), name: "")))
    }
    await store.send(\.destination.addContact.setName, "Blob") {
      $0.$destination[case: \.addContact]?.contact.name = "Blob"
    }
    await store.send(.destination(.presented(.addContact(.saveButtonTapped))))
    await store.receive(\.destination.addContact.delegate.saveContact, Contact(id: UUID(0), name: "Blob")) {
      $0.contacts = [Contact(id: UUID(0), name: "Blob")]
    }
    await store.receive(.destination(.dismiss)) { $0.destination = nil }
  }

  @Test func cancellingTheSheetDismissesIt() async {
    let store = TestStore(initialState: Contacts.State()) { Contacts() } withDependencies: {
      $0.uuid = .incrementing
    }
    await store.send(.addButtonTapped) {
      $0.destination = .addContact(AddContact.State(contact: Contact(id: UUID(0), name: "")))
    }
    await store.send(.destination(.presented(.addContact(.cancelButtonTapped))))
    await store.receive(\.destination.dismiss) { $0.destination = nil }
  }

  @Test func aLiveStoreDismissesToo() async {
    let store = Store(initialState: Contacts.State()) { Contacts() } withDependencies: {
      $0.uuid = .incrementing
    }
    store.send(.addButtonTapped)
    #expect(store.state.destination != nil)
    await store.send(.destination(.presented(.addContact(.cancelButtonTapped)))).finish()
    #expect(store.state.destination == nil)
    #expect(store.effectCount == 0)
  }

  @Test func dismissingTheSheetCancelsItsEffects() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: Contacts.State()) { Contacts() } withDependencies: {
        $0.uuid = .incrementing
        $0.continuousClock = TestClock()
      }
      await store.send(.addButtonTapped) {
        $0.destination = .addContact(AddContact.State(contact: Contact(id: UUID(0), name: "")))
      }
      await store.send(.destination(.presented(.addContact(.task))))
      #expect(store.effectsInFlight.count == 1)
      await store.send(.destination(.dismiss)) { $0.destination = nil }
      #expect(store.effectsInFlight.isEmpty)
      store.completed()
    }
    #expect(issues == [])
  }

  @Test func anAlertIsDismissedByItsAction() async {
    let id = UUID(0)
    let store = TestStore(
      initialState: Contacts.State(contacts: [Contact(id: id, name: "Blob")])
    ) { Contacts() }
    await store.send(.deleteButtonTapped(id: id)) {
      $0.destination = .alert(
        AlertState(
          title: "Are you sure?",
          buttons: [ButtonState(label: "Delete", role: .destructive, action: .confirmDeletion(id: id))]))
    }
    await store.send(.destination(.presented(.alert(.confirmDeletion(id: id))))) {
      $0.contacts = []
      $0.destination = nil
    }
  }

  @Test func anAlertWithoutAReducerIsDismissedByItsAction() async {
    let store = TestStore(initialState: ContactDetail.State(contact: Contact(id: UUID(0), name: "Blob"))) {
      ContactDetail()
    } withDependencies: {
      $0.dismiss = DismissEffect {}
    }
    await store.send(.deleteButtonTapped) { $0.alert = .deleteContact }
    await store.send(.alert(.presented(.confirmDeletion))) { $0.alert = nil }
    await store.receive(.delegate(.confirmDeletion))
  }

  @Test func aPresentationActionWhileNothingIsPresented() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: Contacts.State()) { Contacts() }
      await store.send(.destination(.dismiss))
    }
    #expect(
      issues.map(\.message) == [
        """
        An "ifLet" at "ReducerCoreTests/NavigationFixtures.swift:286" received a presentation action when \
        destination state was absent.

          Action:
            Contacts.Action.destination(.dismiss)

        This is generally considered an application logic error, and can happen for a few reasons:

        A parent reducer set destination state to "nil" before this reducer ran. This reducer must \
        run before any other reducer sets destination state to "nil". This ensures that destination \
        reducers can handle their actions while their state is still present.

        This action was sent to the store while destination state was "nil". Make sure that actions \
        for this reducer can only be sent from a store when state is present, or from effects that \
        start from this reducer.
        """
      ])
  }

  @Test func dismissOutsideAPresentation() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let dismiss = DependencyValues._current.dismiss
      line = #line + 1
      await dismiss()
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            A reducer requested dismissal at "ReducerCoreTests/NavigationTests.swift:\(line)", but couldn't be \
            dismissed.

            This is generally considered an application logic error, and can happen when a reducer \
            assumes it runs in a presentation context. If a reducer can run at both the root level \
            of an application, as well as in a presentation destination, use \
            @Dependency(\\.isPresented) to determine if the reducer is being presented before \
            calling @Dependency(\\.dismiss).
            """, line: line)
      ])
  }

  // MARK: Stacks

  @Test func aStackPushesRunsItsElementsAndPopsOnDismiss() async {
    let contact = Contact(id: UUID(0), name: "Blob")
    let store = TestStore(initialState: Contacts.State(contacts: [contact])) { Contacts() }
    await store.send(.path(.push(id: 0, state: ContactDetail.State(contact: contact)))) {
      $0.path[id: 0] = ContactDetail.State(contact: contact)
    }
    await store.send(.path(.element(id: 0, action: .deleteButtonTapped))) {
      $0.path[id: 0]?.alert = .deleteContact
    }
    await store.send(\.path[id: 0].alert.confirmDeletion) {
      $0.path[id: 0]?.alert = nil
    }
    await store.receive(.path(.element(id: 0, action: .delegate(.confirmDeletion)))) {
      $0.contacts = []
    }
    await store.receive(.path(.popFrom(id: 0))) { $0.path = [] }
  }

  @Test func stackIDsCountFromZeroInEachStore() async {
    let contact = Contact(id: UUID(0), name: "Blob")
    for _ in 0..<2 {
      let store = TestStore(initialState: Contacts.State()) { Contacts() }
      await store.send(.contactTapped(contact)) {
        $0.path.append(ContactDetail.State(contact: contact))
      }
      #expect(store.state.path.ids == [0])
      await store.send(.contactTapped(contact)) {
        $0.path[id: 1] = ContactDetail.State(contact: contact)
      }
      await store.send(.path(.popFrom(id: 0))) { $0.path = [] }
      await store.send(.contactTapped(contact)) {
        $0.path[id: 2] = ContactDetail.State(contact: contact)
      }
    }
  }

  @Test func aPopForAMissingElement() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: Contacts.State()) { Contacts() }
      await store.send(.path(.popFrom(id: 3)))
    }
    #expect(
      issues.map(\.message) == [
        """
        A "forEach" at "ReducerCoreTests/NavigationFixtures.swift:287" received a "popFrom" action for a missing element.

          ID:
            #3
          Path IDs:
            []
        """
      ])
  }

  @Test func pushingAnIDThatIsThereOrTooFarAhead() async {
    let contact = Contact(id: UUID(0), name: "Blob")
    let issues = await collectIssues {
      let store = TestStore(initialState: Contacts.State()) { Contacts() }
      await store.send(.path(.push(id: 0, state: ContactDetail.State(contact: contact)))) {
        $0.path[id: 0] = ContactDetail.State(contact: contact)
      }
      await store.send(.path(.push(id: 0, state: ContactDetail.State(contact: contact))))
      await store.send(.path(.push(id: 5, state: ContactDetail.State(contact: contact)))) {
        $0.path[id: 5] = ContactDetail.State(contact: contact)
      }
    }
    #expect(
      issues.map(\.message) == [
        """
        A "forEach" at "ReducerCoreTests/NavigationFixtures.swift:287" received a "push" action for an element it already \
        contains.

          ID:
            #0
          Path IDs:
            [#0]
        """,
        """
        A "forEach" at "ReducerCoreTests/NavigationFixtures.swift:287" received a "push" action with an unexpected \
        generational ID.

          Received ID:
            #5
          Expected ID:
            #1
        """,
      ])
  }

  @Test func stackStateSubscriptsAndPops() {
    withDependencies {
      $0.stackElementID = .incrementing
      $0.context = .live
    } operation: {
      var path: StackState<Int> = [10, 20, 30]
      #expect(path.ids == [0, 1, 2])
      #expect(path[id: 1] == 20)
      path[id: 1] = 21
      #expect(Array(path) == [10, 21, 30])
      path.pop(to: 0)
      #expect(Array(path) == [10])
      path.append(40)
      #expect(path.ids == [0, 3])
      path.pop(from: 3)
      #expect(path.ids == [0])
    }
  }

  @Test func assigningAtAMissingIDOutsideATest() async {
    let issues = await collectIssues {
      withDependencies { $0.context = .live } operation: {
        var path = StackState<Int>()
        path[id: 4] = 1
        #expect(path.isEmpty)
      }
    }
    #expect(issues.map(\.message) == ["Can't assign element at missing ID."])
  }

  // MARK: Codable forms

  @Test func codableForms() throws {
    let decoder = JSONDecoder()
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys

    let alert = try decoder.decode(
      AlertState<ContactDetail.Action.Alert>.self,
      from: Data(
        #"{"title":"Are you sure?","buttons":[{"label":"Delete","role":"destructive","action":{"confirmDeletion":{}}},{"label":"Cancel","role":"cancel"}]}"#
          .utf8))
    #expect(alert == .deleteContact)
    #expect(
      String(decoding: try encoder.encode(alert), as: UTF8.self)
        == #"{"buttons":[{"action":{"confirmDeletion":{}},"label":"Delete","role":"destructive"},{"label":"Cancel","role":"cancel"}],"title":"Are you sure?"}"#
    )
    let plain = try decoder.decode(AlertState<Never>.self, from: Data(#"{"title":"Oops","message":"Offline"}"#.utf8))
    #expect(plain == AlertState(title: "Oops", message: "Offline"))

    let presented = try decoder.decode(PresentationState<AddContact.State>.self, from: Data("null".utf8))
    #expect(presented.wrappedValue == nil)
    let sheet = try decoder.decode(
      PresentationState<AddContact.State>.self,
      from: Data(#"{"contact":{"id":"00000000-0000-0000-0000-000000000000","name":"Blob"}}"#.utf8))
    #expect(sheet.wrappedValue == AddContact.State(contact: Contact(id: UUID(0), name: "Blob")))
    #expect(String(decoding: try encoder.encode(PresentationState<Int>(wrappedValue: nil)), as: UTF8.self) == "null")

    #expect(
      try decoder.decode(PresentationAction<Todo.Action>.self, from: Data(#"{"dismiss":{}}"#.utf8)) == .dismiss)
    #expect(
      try decoder.decode(
        IdentifiedActionOf<Todo>.self,
        from: Data(
          #"{"element":{"id":"00000000-0000-0000-0000-000000000001","action":{"binding":{"_0":{"isComplete":true}}}}}"#
            .utf8))
        == .element(id: UUID(1), action: .binding(.set(\.isComplete, true))))

    let push = try decoder.decode(
      StackAction<Int, Todo.Action>.self, from: Data(#"{"push":{"id":0,"state":7}}"#.utf8))
    #expect(push == .push(id: 0, state: 7))
    #expect(
      try decoder.decode(StackAction<Int, Todo.Action>.self, from: Data(#"{"popFrom":{"id":2}}"#.utf8))
        == .popFrom(id: 2))
    #expect(String(decoding: try encoder.encode(push), as: UTF8.self) == #"{"push":{"id":0,"state":7}}"#)

    try withDependencies { $0.stackElementID = .incrementing } operation: {
      let text = #"[{"id":0,"state":3},{"id":2,"state":4}]"#
      var path = try decoder.decode(StackState<Int>.self, from: Data(text.utf8))
      #expect(path.ids == [0, 2])
      #expect(Array(path) == [3, 4])
      #expect(String(decoding: try encoder.encode(path), as: UTF8.self) == text)
      // The next id comes after the decoded ones.
      path.append(5)
      #expect(path.ids == [0, 2, 3])
      #expect {
        try decoder.decode(StackState<Int>.self, from: Data(#"[{"id":1,"state":3},{"id":1,"state":4}]"#.utf8))
      } throws: { error in
        guard case DecodingError.dataCorrupted(let context) = error else { return false }
        return context.debugDescription == "the stack has two elements with the id 1"
      }
    }
  }

  @Test func dumps() {
    var text = ""
    customDump(StackElementID(generation: 2), to: &text)
    #expect(text == "#2")
    let state = ContactDetail.State(contact: Contact(id: UUID(0), name: "Blob"), alert: .deleteContact)
    var diffText = diff(state, ContactDetail.State(contact: state.contact)) ?? ""
    diffText = diffText.replacingOccurrences(of: "\u{2007}", with: " ")
    // A @Presents field dumps under its storage's name, `_alert`, as TCA's macro-made storage does.
    #expect(diffText.contains("-   _alert: AlertState(\n-     title: \"Are you sure?\","))
    #expect(diffText.contains("+   _alert: nil"))
    var stateText = ""
    let contact = Contact(id: UUID(0), name: "Blob")
    withDependencies { $0.stackElementID = .incrementing } operation: {
      customDump(Contacts.State(path: [ContactDetail.State(contact: contact)]), to: &stateText, maxDepth: 2)
    }
    #expect(
      stateText == """
        Contacts.State(
          contacts: [],
          _destination: nil,
          path: [
            #0: ContactDetail.State(…)
          ]
        )
        """)
  }
}

import CustomDump
