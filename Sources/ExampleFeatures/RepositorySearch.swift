import Foundation
import ReducerCore

// MARK: - Models

/// A repository that a search found.
public struct Repository: Codable, Equatable, Hashable, Identifiable, Sendable {
  /// The repository's identifier.
  public var id: Int
  /// `owner/name`, as `apple/swift`.
  public var fullName: String
  /// The repository's description, if it has one.
  public var description: String?
  /// Its number of stars.
  public var stars: Int

  /// A repository.
  public init(id: Int, fullName: String, description: String? = nil, stars: Int) {
    self.id = id
    self.fullName = fullName
    self.description = description
    self.stars = stars
  }
}

/// An alert that ``RepositorySearch`` shows: a title, a message and its buttons.
public struct AlertState: Codable, Equatable, Hashable, Sendable {
  /// The alert's title.
  public var title: String
  /// The text under the title, if any.
  public var message: String?
  /// The buttons, in order.
  public var buttons: [Button]

  /// An alert.
  public init(title: String, message: String? = nil, buttons: [Button]) {
    self.title = title
    self.message = message
    self.buttons = buttons
  }

  /// A button of an alert: its title, and the action it sends when tapped (none only
  /// dismisses the alert).
  public struct Button: Codable, Equatable, Hashable, Sendable {
    /// The button's title.
    public var title: String
    /// The action the button sends, if any.
    public var action: RepositorySearch.Action.Alert?

    /// A button.
    public init(title: String, action: RepositorySearch.Action.Alert? = nil) {
      self.title = title
      self.action = action
    }
  }
}

// MARK: - Feature

/// Searches repositories; a failed search shows an alert whose Retry button searches again.
///
/// ```swift
/// let store = TestStore(initialState: RepositorySearch.State(searchText: "swift")) {
///   RepositorySearch()
/// } withDependencies: {
///   $0.repositoryClient.fetchRepositories = { _ in [Repository(id: 1, fullName: "apple/swift", stars: 60000)] }
/// }
/// await store.send(.onSearchButtonTapped) { $0.isLoading = true }
/// await store.receive(.fetchRepositoriesResponse(.success([…]))) { … }
/// ```
///
/// Registered with `reducer-spec` as `RepositorySearch`; its dependency is
/// ``RepositoryClient`` (`repositoryClient`).
@Reducer
public struct RepositorySearch {
  /// The search field, the results and the alert.
  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    /// The text of the search field.
    public var searchText = ""
    /// Whether a search is running.
    public var isLoading = false
    /// The repositories the last successful search found.
    public var repositories: [Repository] = []
    /// The alert on screen, if any.
    public var alert: AlertState?

    /// A state; `State()` is the feature's default state.
    public init(
      searchText: String = "", isLoading: Bool = false, repositories: [Repository] = [], alert: AlertState? = nil
    ) {
      self.searchText = searchText
      self.isLoading = isLoading
      self.repositories = repositories
      self.alert = alert
    }
  }

  /// What the user does, and the answers of the search.
  public enum Action: Codable, Equatable, Sendable {
    /// The search field's text changed. An empty text also empties the results.
    case onTextChanged(String)
    /// The search button was tapped: searches `searchText`, cancelling a search in flight.
    case onSearchButtonTapped
    /// The answer of a search.
    case fetchRepositoriesResponse(TaskResult<[Repository]>)
    /// A button of the alert was tapped.
    case alert(Alert)

    /// The actions of the alert's buttons.
    @CasePathable
    public enum Alert: String, Codable, CaseIterable, Equatable, Hashable, Sendable {
      /// Dismisses the alert and searches again.
      case retry
      /// Dismisses the alert.
      case dismiss
    }
  }

  private enum CancelID: Hashable, Sendable {
    case search
  }

  @Dependency(\.repositoryClient) var repositoryClient

  /// The search's reducer.
  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .onTextChanged(let text):
        state.searchText = text
        if text.isEmpty {
          state.repositories = []
        }
        return .none

      case .onSearchButtonTapped:
        state.isLoading = true
        return search(state.searchText)

      case .fetchRepositoriesResponse(.success(let repositories)):
        state.isLoading = false
        state.repositories = repositories
        return .none

      case .fetchRepositoriesResponse(.failure(let error)):
        state.isLoading = false
        state.alert = .searchFailed(message: message(of: error))
        return .none

      case .alert(.retry):
        state.alert = nil
        state.isLoading = true
        return search(state.searchText)

      case .alert(.dismiss):
        state.alert = nil
        return .none
      }
    }
  }

  /// Fetches the repositories for `query`; a newer search cancels this one.
  private func search(_ query: String) -> Effect<Action> {
    .run { [repositoryClient] send in
      await send(.fetchRepositoriesResponse(TaskResult { try await repositoryClient.fetchRepositories(query) }))
    }
    .cancellable(id: CancelID.search, cancelInFlight: true)
  }
}

extension AlertState {
  /// The alert of a failed search: its error's message, with `OK` and `Retry`.
  public static func searchFailed(message: String) -> Self {
    AlertState(
      title: "An Error has occurred.",
      message: message,
      buttons: [Button(title: "OK"), Button(title: "Retry", action: .retry)])
  }
}

// MARK: - Dependency

/// Searches repositories: `repositoryClient` in `DependencyValues`.
///
/// The live value is a demo: it searches a small built-in list (names and descriptions,
/// ignoring case), with no network. In tests it is unimplemented: a call fails the test.
@DependencyClient
public struct RepositoryClient: Sendable {
  /// The repositories that match `query`.
  public var fetchRepositories: @Sendable (_ query: String) async throws -> [Repository]
}

extension RepositoryClient: DependencyKey {
  /// A demo that searches a built-in list of repositories in memory.
  public static let liveValue = RepositoryClient(fetchRepositories: { query in
    let query = query.trimmingCharacters(in: .whitespaces).lowercased()
    guard !query.isEmpty else { return [] }
    return demoRepositories.filter {
      $0.fullName.lowercased().contains(query) || ($0.description?.lowercased().contains(query) ?? false)
    }
  })
  /// Unimplemented: a call reports an issue and throws.
  public static let testValue = RepositoryClient()
}

extension DependencyValues {
  /// Searches repositories (``RepositoryClient``).
  public var repositoryClient: RepositoryClient {
    get { self[RepositoryClient.self] }
    set { self[RepositoryClient.self] = newValue }
  }
}

/// The repositories that the demo live client searches.
private let demoRepositories = [
  Repository(id: 1, fullName: "apple/swift", description: "The Swift Programming Language", stars: 67_000),
  Repository(
    id: 2, fullName: "pointfreeco/swift-composable-architecture",
    description: "A library for building applications in a consistent and understandable way", stars: 12_000),
  Repository(
    id: 3, fullName: "pointfreeco/swift-dependencies",
    description: "A dependency management library inspired by SwiftUI's environment", stars: 1_700),
  Repository(id: 4, fullName: "apple/swift-argument-parser", description: "Straightforward, type-safe argument parsing for Swift", stars: 3_300),
  Repository(id: 5, fullName: "jpsim/Yams", description: "A Sweet and Swifty YAML parser", stars: 1_100),
]
