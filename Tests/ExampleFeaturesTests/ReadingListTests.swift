import ConcurrencyExtras
import Dependencies
import ExampleFeatures
import Foundation
import ReducerCore
import Testing

private let readingListFile = URL.documentsDirectory.appending(component: "reading-list.json")

@MainActor
@Suite struct ReadingListTests {
  /// The sheet's book is a share of the list's: one assertion through the sheet's share
  /// changes both, as in TCA.
  @Test func aNewBookIsEditedOnTheSheetAndTheListHasIt() async {
    let store = TestStore(initialState: ReadingList.State()) {
      ReadingList()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    await store.send(.addBookButtonTapped) {
      $0.$books.withLock { $0 = [Book(id: UUID(0))] }
      $0.editor = BookEditor.State(book: Shared(value: Book(id: UUID(0))))
    }
    await store.send(.editor(.presented(.titleChanged("Dune")))) {
      $0.editor?.$book.withLock { $0.title = "Dune" }
    }
    #expect(store.state.books == [Book(id: UUID(0), title: "Dune")])
    await store.send(.editor(.presented(.doneButtonTapped)))
    await store.receive(\.editor.dismiss) { $0.editor = nil }
  }

  @Test func everyChangeIsWrittenToTheFile() async throws {
    let files = LockIsolated<[URL: Data]>([:])
    let store = TestStore(initialState: ReadingList.State()) {
      ReadingList()
    } withDependencies: {
      $0.uuid = .incrementing
      $0.defaultFileStorage = .inMemory(files: files) { _, work in work() }
    }
    await store.send(.addBookButtonTapped) {
      $0.$books.withLock { $0 = [Book(id: UUID(0))] }
      $0.editor = BookEditor.State(book: Shared(value: Book(id: UUID(0))))
    }
    await store.send(.editor(.presented(.titleChanged("Emma")))) {
      $0.$books.withLock { $0[id: UUID(0)]?.title = "Emma" }
    }
    let data = try #require(files.value[readingListFile])
    #expect(try JSONDecoder().decode([Book].self, from: data) == [Book(id: UUID(0), title: "Emma")])
    await store.send(.editor(.dismiss)) { $0.editor = nil }
  }

  @Test func theListStartsFromItsFile() async throws {
    let books = [Book(id: UUID(7), title: "Emma"), Book(id: UUID(8), title: "Ulysses", isFinished: true)]
    let data = try JSONEncoder().encode(books)
    let files = LockIsolated([readingListFile: data])
    let store = TestStore(initialState: ReadingList.State()) {
      ReadingList()
    } withDependencies: {
      $0.defaultFileStorage = .inMemory(files: files) { _, work in work() }
    }
    #expect(store.state.books == IdentifiedArray(uniqueElements: books))
    await store.send(.delete([UUID(8)])) {
      $0.$books.withLock { _ = $0.remove(id: UUID(8)) }
    }
    let written = try #require(files.value[readingListFile])
    #expect(try JSONDecoder().decode([Book].self, from: written) == [books[0]])
  }

  @Test func hidingTheBooksReadIsAUserDefault() async {
    let store = TestStore(initialState: ReadingList.State()) { ReadingList() }
    await store.send(.hidesReadBooksToggled) {
      $0.$hidesReadBooks.withLock { $0 = true }
    }
    @Shared(.appStorage("hidesReadBooks")) var hidesReadBooks = false
    #expect(hidesReadBooks)
    #expect(store.state.visibleBooks.isEmpty)
  }

  @Test func aSharedChangeLeftUnassertedFailsWithTCAsWording() async {
    let store = TestStore(initialState: ReadingList.State()) { ReadingList() }
    await withKnownIssue {
      await store.send(.hidesReadBooksToggled)
    } matching: { issue in
      issue.description.contains("State was not expected to change, but a change occurred.")
    }
  }
}
