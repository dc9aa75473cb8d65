import CasePaths
import Clocks
import Dependencies
import DependenciesMacros
import Foundation
import ReducerCore
import Testing

// MARK: - A repository search (the shape of the example app)

private struct Repository: Equatable, Sendable, Identifiable {
  var id: Int
  var name: String
  var stars: Int
}

@DependencyClient
private struct RepositoryClient: Sendable {
  var fetchRepositories: @Sendable (_ query: String) async throws -> [Repository]
}

extension RepositoryClient: TestDependencyKey {
  static let testValue = RepositoryClient()
}

extension DependencyValues {
  fileprivate var scenarioRepositoryClient: RepositoryClient {
    get { self[RepositoryClient.self] }
    set { self[RepositoryClient.self] = newValue }
  }
}

private struct SearchAlert: Equatable {
  var title: String
  var message: String
}

private struct RepositorySearch: Reducer {
  struct State: Equatable {
    var searchText = ""
    var isLoading = false
    var repositories: [Repository] = []
    var alert: SearchAlert?
  }

  @CasePathable
  enum Action: Equatable, BindableAction {
    case binding(BindingAction<State>)
    case onSearchButtonTapped
    case fetchRepositoriesResponse(TaskResult<[Repository]>)
    case alertDismissed

    var binding: BindingAction<State>? {
      if case .binding(let action) = self { return action }
      return nil
    }
  }

  enum CancelID: Hashable, Sendable { case search }

  @Dependency(\.scenarioRepositoryClient) var repositoryClient

  var body: some Reducer<State, Action> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding:
        return .none

      case .onSearchButtonTapped:
        state.isLoading = true
        return .run { [query = state.searchText, repositoryClient] send in
          await send(
            .fetchRepositoriesResponse(
              TaskResult { try await repositoryClient.fetchRepositories(query) }))
        }
        .cancellable(id: CancelID.search, cancelInFlight: true)

      case .fetchRepositoriesResponse(.success(let repositories)):
        state.isLoading = false
        state.repositories = repositories
        return .none

      case .fetchRepositoriesResponse(.failure(let error)):
        state.isLoading = false
        state.alert = SearchAlert(title: "Search failed", message: error.localizedDescription)
        return .none

      case .alertDismissed:
        state.alert = nil
        return .none
      }
    }
  }
}

private struct SearchUnavailable: LocalizedError {
  var errorDescription: String? { "The search service is unavailable." }
}

private let swiftRepositories = [
  Repository(id: 1, name: "apple/swift", stars: 67_000),
  Repository(id: 2, name: "pointfreeco/swift-composable-architecture", stars: 12_000),
]

/// Runs a test body with the issues it reports collected, and expects none.
///
/// The test target does not link IssueReportingTestSupport, so on Linux an issue that a
/// `TestStore` reports is only printed, and does not fail the test. Create the store inside
/// `body`, so that its end-of-test checks run inside too.
@MainActor
private func expectNoIssues(
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: @MainActor () async -> Void
) async {
  let issues = await collectIssues(body)
  #expect(issues == [], sourceLocation: sourceLocation)
}

// MARK: - Tests

@MainActor
@Suite struct ExampleScenarioTests {
  // MARK: Counter

  @Test func counterPlayNextResetsTheCountAndDrawsTheStubbedSecret() async {
    await expectNoIssues {
      let store = TestStore(initialState: Counter.State()) {
        Counter()
      } withDependencies: {
        $0.generateRandom.generateRandomInt = { range in
          #expect(range == -100...100)
          return 4
        }
      }
      await store.send(.increment) { $0.count = 1 }
      await store.send(.increment) { $0.count = 2 }
      await store.send(.decrement) { $0.count = 1 }
      await store.send(.playNext) {
        $0.count = 0
        $0.secret = 4
      }
      await store.send(.setCount("12")) { $0.count = 12 }
    }
  }

  @Test func counterIncrementLaterArrivesAfterASecondOnTheClock() async {
    await expectNoIssues {
      let clock = TestClock()
      let store = TestStore(initialState: Counter.State()) {
        Counter()
      } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.incrementLater)
      await clock.advance(by: .milliseconds(999))
      #expect(store.state.count == 0)
      await clock.advance(by: .milliseconds(1))
      await store.receive(.incremented) { $0.count = 1 }
    }
  }

  // MARK: Repository search

  @Test func searchShowsTheRepositoriesFound() async {
    await expectNoIssues {
      let store = TestStore(initialState: RepositorySearch.State()) {
        RepositorySearch()
      } withDependencies: {
        $0.scenarioRepositoryClient.fetchRepositories = { query in
          query == "swift" ? swiftRepositories : []
        }
      }
      await store.send(.binding(.set(\.searchText, "swift"))) { $0.searchText = "swift" }
      await store.send(.onSearchButtonTapped) { $0.isLoading = true }
      await store.receive(.fetchRepositoriesResponse(.success(swiftRepositories))) {
        $0.isLoading = false
        $0.repositories = swiftRepositories
      }
    }
  }

  @Test func searchThatFailsShowsAnAlertWithTheErrorMessage() async {
    await expectNoIssues {
      let store = TestStore(initialState: RepositorySearch.State()) {
        RepositorySearch()
      } withDependencies: {
        $0.scenarioRepositoryClient.fetchRepositories = { _ in throw SearchUnavailable() }
      }
      await store.send(.set(\.searchText, "swift")) { $0.searchText = "swift" }
      await store.send(.onSearchButtonTapped) { $0.isLoading = true }
      // A failure compares by message, so the test can state it with a TaskFailure.
      await store.receive(
        .fetchRepositoriesResponse(.failure(TaskFailure("The search service is unavailable.")))
      ) {
        $0.isLoading = false
        $0.alert = SearchAlert(title: "Search failed", message: "The search service is unavailable.")
      }
      await store.send(.alertDismissed) { $0.alert = nil }
    }
  }

  @Test func aNewSearchCancelsTheOneInFlight() async {
    await expectNoIssues {
      let clock = TestClock()
      let tcaRepositories = [Repository(id: 3, name: "pointfreeco/swift-dependencies", stars: 1_700)]
      let store = TestStore(initialState: RepositorySearch.State()) {
        RepositorySearch()
      } withDependencies: {
        $0.scenarioRepositoryClient.fetchRepositories = { query in
          try await clock.sleep(for: .seconds(1))
          return query == "swift" ? swiftRepositories : tcaRepositories
        }
      }
      await store.send(.set(\.searchText, "swift")) { $0.searchText = "swift" }
      await store.send(.onSearchButtonTapped) { $0.isLoading = true }
      await clock.advance(by: .milliseconds(500))
      await store.send(.set(\.searchText, "tca")) { $0.searchText = "tca" }
      await store.send(.onSearchButtonTapped)
      #expect(store.effectsInFlight.count == 1)
      // t = 1s: the first search would answer now, had it not been cancelled.
      await clock.advance(by: .milliseconds(500))
      #expect(store.state.repositories == [])
      await clock.advance(by: .milliseconds(500))
      await store.receive(.fetchRepositoriesResponse(.success(tcaRepositories))) {
        $0.isLoading = false
        $0.repositories = tcaRepositories
      }
    }
  }

  @Test func searchWithAnUnimplementedClientEndpointReportsItByName() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: RepositorySearch.State()) { RepositorySearch() }
      store.exhaustivity = .off
      await store.send(.onSearchButtonTapped) { $0.isLoading = true }
      await store.receive(\.fetchRepositoriesResponse)
      // The unimplemented endpoint throws, so the search ends in the failure branch.
      #expect(store.state.isLoading == false)
      #expect(store.state.alert?.title == "Search failed")
    }
    #expect(issues.map(\.message) == ["Unimplemented: 'RepositoryClient.fetchRepositories'"])
  }
}
