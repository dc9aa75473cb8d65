import ReducerCore

// MARK: - Models

/// A dish of the archive, as ``ArchiveClient`` returns it.
public struct ArchiveEntry: Codable, Equatable, Hashable, Identifiable, Sendable {
  /// The entry's identifier.
  public var id: Int
  /// The dish.
  public var dishName: String
  /// The shop that serves it.
  public var shopName: String
  /// Its category, as `Ramen`.
  public var category: String
  /// A short introduction.
  public var introduction: String

  /// An entry.
  public init(id: Int, dishName: String, shopName: String, category: String, introduction: String) {
    self.id = id
    self.dishName = dishName
    self.shopName = shopName
    self.category = category
    self.introduction = introduction
  }
}

/// An entry as the list shows it: with whether the user stored it.
public struct ArchiveItem: Codable, Equatable, Hashable, Identifiable, Sendable {
  /// The entry's identifier.
  public var id: Int
  /// The dish.
  public var dishName: String
  /// The shop that serves it.
  public var shopName: String
  /// Its category.
  public var category: String
  /// A short introduction.
  public var introduction: String
  /// Whether the user stored it as a favourite.
  public var isStored: Bool

  /// An item.
  public init(
    id: Int, dishName: String, shopName: String, category: String, introduction: String, isStored: Bool
  ) {
    self.id = id
    self.dishName = dishName
    self.shopName = shopName
    self.category = category
    self.introduction = introduction
    self.isStored = isStored
  }

  /// The item of an entry.
  public init(_ entry: ArchiveEntry, isStored: Bool) {
    self.init(
      id: entry.id, dishName: entry.dishName, shopName: entry.shopName, category: entry.category,
      introduction: entry.introduction, isStored: isStored)
  }
}

/// What ``ArchiveClient/fetch`` searches for: a keyword and a category (empty for any).
public struct ArchiveQuery: Codable, Equatable, Hashable, Sendable {
  /// Text to look for; empty matches every entry.
  public var keyword: String
  /// The category to keep; empty keeps every category.
  public var category: String

  /// A query.
  public init(keyword: String, category: String) {
    self.keyword = keyword
    self.category = category
  }
}

// MARK: - Feature

/// A filtered list of dishes, each of which the user can store as a favourite (ported from a
/// Redux app).
///
/// Every change of the keyword or the category fetches the list again, cancelling a fetch in
/// flight; the stored identifiers come from ``StoredArchiveClient`` (`storedArchive`), the
/// entries from ``ArchiveClient`` (`archiveClient`).
///
/// ```swift
/// let store = TestStore(initialState: Archive.State()) {
///   Archive()
/// } withDependencies: {
///   $0.storedArchive.storedIds = { [1] }
///   $0.archiveClient.fetch = { _ in entries }
/// }
/// await store.send(.onAppear) { $0.isLoading = true }
/// await store.receive(.archiveLoaded(entries: entries, storedIds: [1])) { … }
/// ```
///
/// Registered with `reducer-spec` as `Archive`.
@Reducer
public struct Archive {
  /// The filters, the list and the loading status.
  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    /// The keyword typed.
    public var inputText = ""
    /// The category selected; empty for none.
    public var selectedCategory = ""
    /// The list.
    public var items: [ArchiveItem] = []
    /// Whether a fetch is running.
    public var isLoading = false
    /// Whether the last fetch failed.
    public var isError = false

    /// A state; `State()` is the feature's default state.
    public init(
      inputText: String = "",
      selectedCategory: String = "",
      items: [ArchiveItem] = [],
      isLoading: Bool = false,
      isError: Bool = false
    ) {
      self.inputText = inputText
      self.selectedCategory = selectedCategory
      self.items = items
      self.isLoading = isLoading
      self.isError = isError
    }

    /// The query that the current filters make.
    public var query: ArchiveQuery {
      ArchiveQuery(keyword: inputText, category: selectedCategory)
    }
  }

  /// What the user does, and the answers of a fetch.
  public enum Action: Codable, Equatable, Sendable {
    /// The screen appeared: fetches the list.
    case onAppear
    /// The keyword changed: fetches the list.
    case inputTextChanged(String)
    /// A category was tapped: selects it, or clears it when it was the selected one; fetches
    /// the list.
    case categorySelected(String)
    /// A fetch succeeded: the entries, and the identifiers of the stored ones.
    case archiveLoaded(entries: [ArchiveEntry], storedIds: [Int])
    /// A fetch failed.
    case archiveFailed
    /// The store button of an item was tapped: stores or un-stores it.
    case toggleStored(id: Int)
  }

  private enum CancelID: Hashable, Sendable {
    case fetch
  }

  @Dependency(\.archiveClient) var archiveClient
  @Dependency(\.storedArchive) var storedArchive

  /// The archive's reducer.
  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .onAppear:
        state.isLoading = true
        return fetch(state.query)

      case .inputTextChanged(let text):
        state.inputText = text
        state.isLoading = true
        return fetch(state.query)

      case .categorySelected(let category):
        state.selectedCategory = category == state.selectedCategory ? "" : category
        state.isLoading = true
        return fetch(state.query)

      case .archiveLoaded(let entries, let storedIds):
        state.isLoading = false
        state.isError = false
        let stored = Set(storedIds)
        state.items = entries.map { ArchiveItem($0, isStored: stored.contains($0.id)) }
        return .none

      case .archiveFailed:
        state.isLoading = false
        state.isError = true
        state.items = []
        return .none

      case .toggleStored(let id):
        guard let index = state.items.firstIndex(where: { $0.id == id }) else { return .none }
        state.items[index].isStored.toggle()
        let isStored = state.items[index].isStored
        return .run { [storedArchive] _ in
          if isStored {
            await storedArchive.add(id)
          } else {
            await storedArchive.remove(id)
          }
        }
      }
    }
  }

  /// Reads the stored identifiers, then fetches the entries for `query`; a newer fetch
  /// cancels this one.
  private func fetch(_ query: ArchiveQuery) -> Effect<Action> {
    .run { [archiveClient, storedArchive] send in
      let storedIds = await storedArchive.storedIds()
      do {
        let entries = try await archiveClient.fetch(query)
        await send(.archiveLoaded(entries: entries, storedIds: storedIds))
      } catch is CancellationError {
        return
      } catch {
        await send(.archiveFailed)
      }
    }
    .cancellable(id: CancelID.fetch, cancelInFlight: true)
  }
}

// MARK: - Dependencies

/// Fetches the archive: `archiveClient` in `DependencyValues`.
///
/// The live value is a demo: it filters a small built-in list in memory (the keyword matches
/// the dish, the shop or the introduction, ignoring case), with no network. In tests it is
/// unimplemented: a call fails the test.
@DependencyClient
public struct ArchiveClient: Sendable {
  /// The entries that match `query`.
  public var fetch: @Sendable (_ query: ArchiveQuery) async throws -> [ArchiveEntry]
}

extension ArchiveClient: DependencyKey {
  /// A demo that filters a built-in list of dishes, in memory.
  public static let liveValue = ArchiveClient(fetch: { query in
    let keyword = query.keyword.lowercased()
    return demoEntries.filter { entry in
      (query.category.isEmpty || entry.category == query.category)
        && (keyword.isEmpty
          || [entry.dishName, entry.shopName, entry.introduction].contains { $0.lowercased().contains(keyword) })
    }
  })
  /// Unimplemented: a call reports an issue and throws.
  public static let testValue = ArchiveClient()
}

/// The identifiers of the entries the user stored: `storedArchive` in `DependencyValues`.
///
/// The live value keeps them in memory for the life of the process (a demo: nothing is
/// written to disk). In tests it is unimplemented: a call fails the test.
@DependencyClient
public struct StoredArchiveClient: Sendable {
  /// The identifiers stored, in the order they were added.
  public var storedIds: @Sendable () async -> [Int] = { [] }
  /// Stores an identifier.
  public var add: @Sendable (_ id: Int) async -> Void = { _ in }
  /// Removes an identifier.
  public var remove: @Sendable (_ id: Int) async -> Void = { _ in }
}

extension StoredArchiveClient: DependencyKey {
  /// Identifiers kept in memory, for the life of the process.
  public static let liveValue: StoredArchiveClient = {
    let ids = StoredIDs()
    return StoredArchiveClient(
      storedIds: { await ids.all },
      add: { await ids.add($0) },
      remove: { await ids.remove($0) })
  }()
  /// Unimplemented: a call reports an issue (and `storedIds` returns `[]`).
  public static let testValue = StoredArchiveClient()
}

extension DependencyValues {
  /// Fetches the archive (``ArchiveClient``).
  public var archiveClient: ArchiveClient {
    get { self[ArchiveClient.self] }
    set { self[ArchiveClient.self] = newValue }
  }

  /// The identifiers of the stored entries (``StoredArchiveClient``).
  public var storedArchive: StoredArchiveClient {
    get { self[StoredArchiveClient.self] }
    set { self[StoredArchiveClient.self] = newValue }
  }
}

/// The stored identifiers of the live ``StoredArchiveClient``.
private actor StoredIDs {
  private(set) var all: [Int] = []

  func add(_ id: Int) {
    if !all.contains(id) { all.append(id) }
  }

  func remove(_ id: Int) {
    all.removeAll { $0 == id }
  }
}

/// The dishes that the demo live client knows.
private let demoEntries = [
  ArchiveEntry(
    id: 1, dishName: "Tonkotsu Ramen", shopName: "Ichiran", category: "Ramen",
    introduction: "A rich pork-bone broth with thin noodles."),
  ArchiveEntry(
    id: 2, dishName: "Shoyu Ramen", shopName: "Harukiya", category: "Ramen",
    introduction: "A clear soy-sauce broth, as in Tokyo."),
  ArchiveEntry(
    id: 3, dishName: "Margherita", shopName: "Da Michele", category: "Pizza",
    introduction: "Tomato, mozzarella and basil on a wood-fired base."),
  ArchiveEntry(
    id: 4, dishName: "Katsu Curry", shopName: "CoCo Ichibanya", category: "Curry",
    introduction: "A breaded pork cutlet with Japanese curry."),
  ArchiveEntry(
    id: 5, dishName: "Tsukemen", shopName: "Fuunji", category: "Ramen",
    introduction: "Thick noodles dipped in a concentrated broth."),
]
