import Foundation
import ReducerCore

// MARK: - Book

/// A book of the ``ReadingList``.
@CodableDefaults
public struct Book: Codable, Equatable, Identifiable, Sendable {
  /// The book's identifier, from the `uuid` dependency.
  public let id: UUID
  /// Its title; empty until the user types one.
  public var title = ""
  /// Whether the user has read it.
  public var isFinished = false

  /// A book; `Book(id: uuid())` is a new one without a title.
  public init(id: UUID, title: String = "", isFinished: Bool = false) {
    self.id = id
    self.title = title
    self.isFinished = isFinished
  }
}

extension SharedKey where Self == FileStorageKey<IdentifiedArrayOf<Book>>.Default {
  /// The reading list, kept in `reading-list.json` in the documents directory: the list a
  /// user finds again when the app starts.
  public static var readingList: Self {
    Self[.fileStorage(.documentsDirectory.appending(component: "reading-list.json")), default: []]
  }
}

// MARK: - BookEditor

/// The sheet that edits one book of the ``ReadingList``. It holds the book as a share of the
/// list's (`@Shared var book`): what it changes, the list has, and the list's file keeps.
///
/// ```swift
/// let store = TestStore(initialState: BookEditor.State(book: Shared(value: Book(id: UUID(0))))) {
///   BookEditor()
/// }
/// await store.send(.titleChanged("Dune")) { $0.$book.withLock { $0.title = "Dune" } }
/// ```
@Reducer
public struct BookEditor {
  /// The book being edited.
  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    /// The book, shared with the list that presented the sheet.
    @Shared public var book: Book

    /// A sheet for `book`: `BookEditor.State(book: Shared($books[id: id])!)`.
    public init(book: Shared<Book>) {
      self._book = book
    }
  }

  /// What the user does on the sheet.
  @CasePathable
  public enum Action: Codable, Equatable, Sendable {
    /// The title was edited.
    case titleChanged(String)
    /// The book was marked read, or unread.
    case finishedToggled
    /// The done button was tapped: the sheet dismisses itself (`dismiss`).
    case doneButtonTapped
  }

  @Dependency(\.dismiss) var dismiss

  /// The sheet's reducer.
  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .titleChanged(let title):
        state.$book.withLock { $0.title = title }
        return .none
      case .finishedToggled:
        state.$book.withLock { $0.isFinished.toggle() }
        return .none
      case .doneButtonTapped:
        return .run { [dismiss] _ in await dismiss() }
      }
    }
  }
}

// MARK: - ReadingList

/// A reading list kept in a file: add a book, edit it on a sheet, mark it read, hide the
/// books read, delete books.
///
/// Its state is shared state (`@Shared`). The books live in the file `reading-list.json`
/// (``SharedReaderKey/readingList``): each change is written to it, and the list starts
/// from what it holds. The sheet (``BookEditor``) gets a share of one book of the list, so
/// the parent and the child hold one value. Whether read books are hidden is a user default
/// (`.appStorage("hidesReadBooks")`).
///
/// ```swift
/// let store = TestStore(initialState: ReadingList.State()) {
///   ReadingList()
/// } withDependencies: {
///   $0.uuid = .incrementing
/// }
/// await store.send(.addBookButtonTapped) {
///   $0.$books.withLock { $0 = [Book(id: UUID(0))] }
///   $0.editor = BookEditor.State(book: Shared(value: Book(id: UUID(0))))
/// }
/// ```
///
/// Registered with `reducer-spec` as `ReadingList`; its dependencies are `uuid` and `dismiss`,
/// and its shared keys the file and the user default.
@Reducer
public struct ReadingList {
  /// The books, whether read ones are hidden, and the sheet.
  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    /// Every book, in the order added; kept in `reading-list.json`.
    @Shared(.readingList) public var books
    /// Whether ``visibleBooks`` leaves out the books read; a user default.
    @Shared(.appStorage("hidesReadBooks")) public var hidesReadBooks = false
    /// The sheet that edits a book, when one is open.
    @Presents public var editor: BookEditor.State?

    /// The list as the file and the user default hold it, with no sheet open.
    public init() {}

    /// The books the list shows. Derived: neither stored nor encoded.
    public var visibleBooks: IdentifiedArrayOf<Book> {
      hidesReadBooks ? books.filter { !$0.isFinished } : books
    }
  }

  /// What the user does on the list and on its sheet.
  @CasePathable
  public enum Action: Codable, Equatable, Sendable {
    /// Adds a book without a title, with an id from `uuid`, and opens the sheet on it.
    case addBookButtonTapped
    /// Opens the sheet on the book with this id.
    case bookTapped(UUID)
    /// Removes the books with these ids (a swipe to delete).
    case delete([UUID])
    /// Hides the books read, or shows them again.
    case hidesReadBooksToggled
    /// An action of the sheet, or its dismissal.
    case editor(PresentationAction<BookEditor.Action>)
  }

  @Dependency(\.uuid) var uuid

  /// The list's reducer.
  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addBookButtonTapped:
        let book = Book(id: uuid())
        state.$books.withLock { _ = $0.append(book) }
        state.editor = Shared(state.$books[id: book.id]).map(BookEditor.State.init(book:))
        return .none
      case .bookTapped(let id):
        state.editor = Shared(state.$books[id: id]).map(BookEditor.State.init(book:))
        return .none
      case .delete(let ids):
        state.$books.withLock { $0.removeAll { ids.contains($0.id) } }
        return .none
      case .hidesReadBooksToggled:
        state.$hidesReadBooks.withLock { $0.toggle() }
        return .none
      case .editor:
        return .none
      }
    }
    .ifLet(\.$editor, action: \.editor) {
      BookEditor()
    }
  }
}
