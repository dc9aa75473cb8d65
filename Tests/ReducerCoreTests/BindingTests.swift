import Foundation
import ReducerCore
import TestSupport
import Testing

/// Codable binding actions, their descriptions, BindingReducer and onChange.
@MainActor
@Suite struct BindingTests {
  @Test func aBindingActionDecodesFromAFieldName() throws {
    let decoder = JSONDecoder()
    let action = try decoder.decode(BindingAction<Todo.State>.self, from: Data(#"{"isComplete":true}"#.utf8))
    #expect(action == .set(\.isComplete, true))
    #expect(action != .set(\.isComplete, false))
    var state = Todo.State(id: UUID(0))
    action.apply(to: &state)
    #expect(state.isComplete)

    let text = try decoder.decode(BindingAction<Todo.State>.self, from: Data(#"{"description":"Milk"}"#.utf8))
    #expect(text == .set(\.description, "Milk"))
  }

  @Test func aBindingActionEncodesAsItsFieldAndValue() throws {
    let encoder = JSONEncoder()
    let data = try encoder.encode(BindingAction<Todo.State>.set(\.isComplete, true))
    #expect(String(decoding: data, as: UTF8.self) == #"{"isComplete":true}"#)
    let action = try encoder.encode(Todo.Action.binding(.set(\.description, "Milk")))
    #expect(String(decoding: action, as: UTF8.self) == #"{"binding":{"_0":{"description":"Milk"}}}"#)
  }

  @Test func anUnknownFieldIsAnErrorThatListsTheFields() {
    do {
      _ = try JSONDecoder().decode(BindingAction<Todo.State>.self, from: Data(#"{"isDone":true}"#.utf8))
      Issue.record("decoded an unknown field")
    } catch DecodingError.keyNotFound(let key, let context) {
      #expect(key.stringValue == "isDone")
      #expect(
        context.debugDescription
          == #""isDone" is not a bindable field of State; the bindable fields are description, isComplete."#)
    } catch {
      Issue.record("unexpected error: \(error)")
    }
  }

  @Test func aBindingActionSetsExactlyOneField() {
    do {
      _ = try JSONDecoder().decode(
        BindingAction<Todo.State>.self, from: Data(#"{"isComplete":true,"description":"x"}"#.utf8))
      Issue.record("decoded two fields")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(
        context.debugDescription
          == "A binding action of State sets one field: { FIELD: VALUE }, FIELD one of description, isComplete; found 2 fields."
      )
    } catch {
      Issue.record("unexpected error: \(error)")
    }
  }

  @Test func aFieldThatIsNotListedDoesNotEncode() {
    struct Form: Equatable, BindableStateFields {
      var name = ""
      var secret = 0
      static let bindableFields: [BindableField<Self>] = [.field("name", \.name)]
    }
    do {
      _ = try JSONEncoder().encode(BindingAction<Form>.set(\.secret, 1))
      Issue.record("encoded a field that is not listed")
    } catch EncodingError.invalidValue(_, let context) {
      #expect(context.debugDescription.hasSuffix(#"is not a bindable field of Form: add it to "bindableFields" to encode its binding actions."#))
    } catch {
      Issue.record("unexpected error: \(error)")
    }
  }

  @Test func aValueOfTheWrongTypeIsAnError() {
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(BindingAction<Todo.State>.self, from: Data(#"{"isComplete":"yes"}"#.utf8))
    }
  }

  @Test func aBindingActionReadsAsTCAWritesIt() {
    #expect(BindingAction<Todo.State>.set(\.isComplete, true).description == #".set(\.isComplete, true)"#)
    #expect(BindingAction<Todo.State>.set(\.description, "Milk").description == #".set(\.description, "Milk")"#)
    var text = ""
    customDump(Todo.Action.binding(.set(\.isComplete, true)), to: &text)
    #expect(text == #"Todo.Action.binding(.set(\.isComplete, true))"#)
  }

  @Test func aBindingReducerWithOnChange() async {
    let store = TestStore(initialState: Todo.State(id: UUID(0))) { Todo() } withDependencies: {
      $0.continuousClock = ImmediateClock()
    }
    await store.send(.binding(.set(\.description, "Milk"))) { $0.description = "Milk" }
    // onChange runs only when the value changes; here it leaves a description alone.
    await store.send(.binding(.set(\.isComplete, true))) { $0.isComplete = true }
    await store.send(.binding(.set(\.isComplete, true)))
    await store.send(.binding(.set(\.description, ""))) { $0.description = "" }
    await store.send(.binding(.set(\.isComplete, false))) { $0.isComplete = false }
    await store.send(.binding(.set(\.isComplete, true))) {
      $0.isComplete = true
      $0.description = "Done"
    }
  }

  @Test func receivingABindingByItsField() async {
    let store = TestStore(initialState: Todos.State(todos: [Todo.State(id: UUID(0))])) { Todos() } withDependencies: {
      $0.continuousClock = ImmediateClock()
    }
    await store.send(.todos(.element(id: UUID(0), action: .binding(.set(\.isComplete, true))))) {
      $0.todos[id: UUID(0)]?.isComplete = true
      $0.todos[id: UUID(0)]?.description = "Done"
    }
    await store.receive(.sortCompletedTodos)
  }

  @Test func aBindingReducerOfAViewAction() async {
    let store = TestStore(initialState: CodeForm.State()) { CodeForm() }
    await store.send(.view(.binding(.set(\.code, "12")))) {
      $0.code = "12"
    }
    await store.send(.view(.binding(.set(\.code, "1234")))) {
      $0.code = "1234"
      $0.isValid = true
    }
    await store.send(.verified)
  }
}

/// A form whose view actions carry its bindings, as TicTacToe's two-factor form, without the
/// macros: `BindingReducer(action: \.view)` applies them before the form validates the code.
private struct CodeForm: Reducer {
  struct State: Equatable {
    var code = ""
    var isValid = false
  }
  @CasePathable enum Action: Equatable, ViewAction {
    case verified
    case view(View)
    @CasePathable enum View: Equatable, BindableAction {
      case binding(BindingAction<State>)
    }
  }
  var body: some ReducerOf<Self> {
    BindingReducer(action: \.view)
    Reduce { state, action in
      if case .view(.binding) = action {
        state.isValid = state.code.count >= 4
      }
      return .none
    }
  }
}

import Clocks
import CustomDump
