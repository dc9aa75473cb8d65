import Dependencies
import ExampleFeatures
import Foundation
import ReducerCore
import Testing

private let swift = Repository(id: 1, fullName: "apple/swift", stars: 60_000)
private let tca = Repository(
  id: 2, fullName: "pointfreeco/swift-composable-architecture", description: "TCA", stars: 12_000)

@MainActor
@Suite struct RepositorySearchTests {
  @Test func aSuccessfulSearchListsTheRepositories() async {
    let queries = LockIsolated<[String]>([])
    let store = TestStore(initialState: RepositorySearch.State()) {
      RepositorySearch()
    } withDependencies: {
      $0.repositoryClient.fetchRepositories = { query in
        queries.withValue { $0.append(query) }
        return [swift, tca]
      }
    }
    await store.send(.onTextChanged("swift")) { $0.searchText = "swift" }
    await store.send(.onSearchButtonTapped) { $0.isLoading = true }
    await store.receive(.fetchRepositoriesResponse(.success([swift, tca]))) {
      $0.isLoading = false
      $0.repositories = [swift, tca]
    }
    #expect(queries.value == ["swift"])
  }

  @Test func aFailedSearchShowsAnAlertAndRetrySearchesAgain() async {
    let responses = LockIsolated<[Result<[Repository], TestError>]>([
      .failure(TestError("The Internet connection appears to be offline.")),
      .success([swift]),
    ])
    let queries = LockIsolated<[String]>([])
    let store = TestStore(initialState: RepositorySearch.State(searchText: "swift")) {
      RepositorySearch()
    } withDependencies: {
      $0.repositoryClient.fetchRepositories = { query in
        queries.withValue { $0.append(query) }
        return try responses.withValue { $0.removeFirst() }.get()
      }
    }
    await store.send(.onSearchButtonTapped) { $0.isLoading = true }
    await store.receive(
      .fetchRepositoriesResponse(.failure(TaskFailure("The Internet connection appears to be offline.")))
    ) {
      $0.isLoading = false
      $0.alert = AlertState(
        title: "An Error has occurred.",
        message: "The Internet connection appears to be offline.",
        buttons: [AlertState.Button(title: "OK"), AlertState.Button(title: "Retry", action: .retry)])
    }
    await store.send(.alert(.retry)) {
      $0.alert = nil
      $0.isLoading = true
    }
    await store.receive(.fetchRepositoriesResponse(.success([swift]))) {
      $0.isLoading = false
      $0.repositories = [swift]
    }
    #expect(queries.value == ["swift", "swift"])
  }

  @Test func dismissingTheAlertOnlyClosesIt() async {
    let store = TestStore(
      initialState: RepositorySearch.State(searchText: "swift", alert: .searchFailed(message: "offline"))
    ) {
      RepositorySearch()
    }
    await store.send(.alert(.dismiss)) { $0.alert = nil }
  }

  @Test func anEmptyTextEmptiesTheRepositories() async {
    let store = TestStore(initialState: RepositorySearch.State(searchText: "swift", repositories: [swift])) {
      RepositorySearch()
    }
    await store.send(.onTextChanged("swif")) { $0.searchText = "swif" }
    await store.send(.onTextChanged("")) {
      $0.searchText = ""
      $0.repositories = []
    }
  }

  @Test func aSecondTapCancelsTheSearchInFlight() async {
    let clock = TestClock()
    let queries = LockIsolated<[String]>([])
    let store = TestStore(initialState: RepositorySearch.State(searchText: "swift")) {
      RepositorySearch()
    } withDependencies: {
      $0.repositoryClient.fetchRepositories = { query in
        queries.withValue { $0.append(query) }
        try await clock.sleep(for: .seconds(1))
        return query == "swift" ? [swift] : [tca]
      }
    }
    await store.send(.onSearchButtonTapped) { $0.isLoading = true }
    await clock.advance(by: .milliseconds(500))
    await store.send(.onTextChanged("composable")) { $0.searchText = "composable" }
    await store.send(.onSearchButtonTapped)
    #expect(store.effectsInFlight.count == 1)
    // The first search would answer now, had it not been cancelled.
    await clock.advance(by: .milliseconds(500))
    #expect(store.state.repositories == [])
    await clock.advance(by: .milliseconds(500))
    await store.receive(.fetchRepositoriesResponse(.success([tca]))) {
      $0.isLoading = false
      $0.repositories = [tca]
    }
    #expect(queries.value == ["swift", "composable"])
  }

  @Test func aSearchWithoutAStubFailsNamingTheEndpoint() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: RepositorySearch.State()) { RepositorySearch() }
      store.exhaustivity = .off
      await store.send(.onSearchButtonTapped) { $0.isLoading = true }
      await store.receive(\.fetchRepositoriesResponse)
      // The unimplemented endpoint throws, so the search ends in an alert.
      #expect(store.state.alert?.title == "An Error has occurred.")
    }
    #expect(issues == ["Unimplemented: 'RepositoryClient.fetchRepositories'"])
  }

  @Test func codableShapes() throws {
    try expectRoundTrip(
      RepositorySearch.Action.fetchRepositoriesResponse(.success([swift])),
      json: #"{"fetchRepositoriesResponse":{"_0":{"success":[{"fullName":"apple/swift","id":1,"stars":60000}]}}}"#)
    try expectRoundTrip(
      RepositorySearch.Action.fetchRepositoriesResponse(.failure(TaskFailure("offline"))),
      json: #"{"fetchRepositoriesResponse":{"_0":{"failure":"offline"}}}"#)
    // A thrown error encodes as its message.
    #expect(
      try json(RepositorySearch.Action.fetchRepositoriesResponse(.failure(TestError("offline"))))
        == #"{"fetchRepositoriesResponse":{"_0":{"failure":"offline"}}}"#)
    try expectRoundTrip(RepositorySearch.Action.alert(.retry), json: #"{"alert":{"_0":"retry"}}"#)
    try expectRoundTrip(RepositorySearch.Action.alert(.dismiss), json: #"{"alert":{"_0":"dismiss"}}"#)
    try expectRoundTrip(RepositorySearch.Action.onTextChanged("swift"), json: #"{"onTextChanged":{"_0":"swift"}}"#)
    try expectRoundTrip(RepositorySearch.Action.onSearchButtonTapped, json: #"{"onSearchButtonTapped":{}}"#)

    try expectRoundTrip(
      RepositorySearch.State(searchText: "swift", repositories: [tca], alert: .searchFailed(message: "offline")),
      json: """
        {"alert":{"buttons":[{"title":"OK"},{"action":"retry","title":"Retry"}],"message":"offline",\
        "title":"An Error has occurred."},"isLoading":false,"repositories":[{"description":"TCA",\
        "fullName":"pointfreeco/swift-composable-architecture","id":2,"stars":12000}],"searchText":"swift"}
        """)
    try expectRoundTrip(
      RepositorySearch.State(), json: #"{"isLoading":false,"repositories":[],"searchText":""}"#)
    #expect(
      try decode(RepositorySearch.State.self, from: #"{"searchText":"swift"}"#)
        == RepositorySearch.State(searchText: "swift"))
  }
}
