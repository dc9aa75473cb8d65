import Dependencies
import ExampleFeatures
import Foundation
import ReducerCore
import Testing

private let milk = Todo.State(id: UUID(0), description: "Milk")
private let eggs = Todo.State(id: UUID(1), description: "Eggs")
private let bread = Todo.State(id: UUID(2), description: "Bread")

/// `.todos(.element(id:action:))` for a binding of `isComplete`.
private func complete(_ id: Int, _ isComplete: Bool = true) -> Todos.Action {
  .todos(.element(id: UUID(id), action: .binding(.set(\.isComplete, isComplete))))
}

@MainActor
@Suite struct TodosTests {
  @Test func newTodosAreAddedAtTheTopWithIncrementingIds() async {
    let store = TestStore(initialState: Todos.State()) {
      Todos()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    await store.send(.addTodoButtonTapped) { $0.todos = [Todo.State(id: UUID(0))] }
    await store.send(.addTodoButtonTapped) { $0.todos = [Todo.State(id: UUID(1)), Todo.State(id: UUID(0))] }
  }

  @Test func aTodosDescriptionIsEditedThroughABinding() async {
    let store = TestStore(initialState: Todos.State(todos: [Todo.State(id: UUID(0))])) { Todos() }
    await store.send(.todos(.element(id: UUID(0), action: .binding(.set(\.description, "Buy milk"))))) {
      $0.todos[id: UUID(0)]?.description = "Buy milk"
    }
  }

  @Test func aCompletedTodoMovesBelowTheOthersOneSecondLater() async {
    let clock = TestClock()
    let store = TestStore(initialState: Todos.State(todos: [milk, eggs, bread])) {
      Todos()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(complete(0)) { $0.todos[id: UUID(0)]?.isComplete = true }
    await clock.advance(by: .milliseconds(999))
    await clock.advance(by: .milliseconds(1))
    await store.receive(.sortCompletedTodos) {
      $0.todos = [eggs, bread, Todo.State(id: UUID(0), description: "Milk", isComplete: true)]
    }
  }

  @Test func twoQuickCompletionsGiveOneSort() async {
    let clock = TestClock()
    let store = TestStore(initialState: Todos.State(todos: [milk, eggs, bread])) {
      Todos()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(complete(0)) { $0.todos[id: UUID(0)]?.isComplete = true }
    await clock.advance(by: .milliseconds(500))
    await store.send(complete(1)) { $0.todos[id: UUID(1)]?.isComplete = true }
    // One second after the first completion: its wait was cancelled by the second.
    await clock.advance(by: .milliseconds(500))
    #expect(store.effectsInFlight.count == 1)
    await clock.advance(by: .milliseconds(500))
    await store.receive(.sortCompletedTodos) {
      $0.todos = [
        bread,
        Todo.State(id: UUID(0), description: "Milk", isComplete: true),
        Todo.State(id: UUID(1), description: "Eggs", isComplete: true),
      ]
    }
    // Exhaustive: a second sort would be an unexpected action at the end of the test.
    await clock.advance(by: .seconds(5))
  }

  @Test func untickingATodoSortsItBackAmongTheIncompleteOnes() async {
    let clock = TestClock()
    var doneEggs = eggs
    doneEggs.isComplete = true
    var doneBread = bread
    doneBread.isComplete = true
    let store = TestStore(initialState: Todos.State(todos: [milk, doneEggs, doneBread])) {
      Todos()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(complete(2, false)) { $0.todos[id: UUID(2)]?.isComplete = false }
    await clock.advance(by: .seconds(1))
    await store.receive(.sortCompletedTodos) { $0.todos = [milk, bread, doneEggs] }
  }

  @Test func settingIsCompleteToItsValueStartsNoSort() async {
    let store = TestStore(initialState: Todos.State(todos: [milk, eggs])) { Todos() }
    // No clock is stubbed: an effect that slept would fail the test.
    await store.send(complete(0, false))
    await store.send(.todos(.element(id: UUID(0), action: .binding(.set(\.description, "Oat milk"))))) {
      $0.todos[id: UUID(0)]?.description = "Oat milk"
    }
    #expect(store.effectsInFlight.isEmpty)
  }

  @Test func clearingCompletedTodosRemovesOnlyThem() async {
    var doneEggs = eggs
    doneEggs.isComplete = true
    let store = TestStore(initialState: Todos.State(todos: [milk, doneEggs, bread])) { Todos() }
    await store.send(.clearCompletedButtonTapped) { $0.todos = [milk, bread] }
    await store.send(.clearCompletedButtonTapped)
  }

  @Test func deletingRemovesTheTodosWithTheIdsGiven() async {
    let store = TestStore(initialState: Todos.State(todos: [milk, eggs, bread])) { Todos() }
    await store.send(.delete([UUID(0), UUID(2)])) { $0.todos = [eggs] }
    await store.send(.delete([UUID(1), UUID(7)])) { $0.todos = [] }
  }

  @Test func aTodoDeletedWhileTheSortWaitsIsGoneWhenTheSortComes() async {
    let clock = TestClock()
    let store = TestStore(initialState: Todos.State(todos: [milk, eggs, bread])) {
      Todos()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(complete(0)) { $0.todos[id: UUID(0)]?.isComplete = true }
    await store.send(.delete([UUID(1)])) { $0.todos.remove(id: UUID(1)) }
    await clock.advance(by: .seconds(1))
    await store.receive(.sortCompletedTodos) {
      $0.todos = [bread, Todo.State(id: UUID(0), description: "Milk", isComplete: true)]
    }
  }

  @Test func theFilterChoosesTheTodosShown() async {
    var doneEggs = eggs
    doneEggs.isComplete = true
    let store = TestStore(initialState: Todos.State(todos: [milk, doneEggs])) { Todos() }
    #expect(store.state.filteredTodos == [milk, doneEggs])
    await store.send(.filterPicked(.active)) { $0.filter = .active }
    #expect(store.state.filteredTodos == [milk])
    await store.send(.filterPicked(.completed)) { $0.filter = .completed }
    #expect(store.state.filteredTodos == [doneEggs])
    await store.send(.filterPicked(.all)) { $0.filter = .all }
    #expect(store.state.filteredTodos == [milk, doneEggs])
  }

  @Test func anUnstubbedUuidFailsTheTest() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: Todos.State()) { Todos() }
      store.exhaustivity = .off
      await store.send(.addTodoButtonTapped)
    }
    #expect(issues.count == 1)
    #expect(issues.first?.contains("@Dependency(\\.uuid)") == true)
  }

  @Test func codableShapes() throws {
    try expectRoundTrip(
      Todo.State(id: UUID(1), description: "Milk", isComplete: true),
      json: #"{"description":"Milk","id":"00000000-0000-0000-0000-000000000001","isComplete":true}"#)
    #expect(try decode(Todo.State.self, from: #"{"id":"00000000-0000-0000-0000-000000000001"}"#) == Todo.State(id: UUID(1)))
    try expectRoundTrip(Todos.State(todos: [milk, eggs], filter: .completed))
    #expect(try decode(Todos.State.self, from: "{}") == Todos.State())
    try expectRoundTrip(Todos.Action.filterPicked(.active), json: #"{"filterPicked":{"_0":"active"}}"#)
    try expectRoundTrip(Todos.Action.delete([UUID(0)]))
    try expectRoundTrip(complete(1))
    try expectRoundTrip(Todos.Action.todos(.element(id: UUID(1), action: .binding(.set(\.description, "Milk")))))
    try expectRoundTrip(Todos.Action.sortCompletedTodos, json: #"{"sortCompletedTodos":{}}"#)
  }
}
