import CasePaths
import Dependencies
import Foundation
import IssueReporting
import ReducerCore
import ReducerCoreSpecs

// A small feature for the runner's tests: a counter with a random number, and a search
// whose request goes through an endpoint and can be cancelled by a newer one.

public struct NumberClient: Sendable {
  public var next: @Sendable (ClosedRange<Int>) -> Int
}

extension NumberClient: TestDependencyKey {
  public static let testValue = NumberClient { _ in
    reportIssue("Unimplemented: NumberClient.next")
    return 0
  }
}

public struct SearchClient: Sendable {
  public var search: @Sendable (String) async throws -> [String]
  public var log: @Sendable (String) async -> Void
}

extension SearchClient: TestDependencyKey {
  public static let testValue = SearchClient(
    search: { _ in
      reportIssue("Unimplemented: SearchClient.search")
      return []
    },
    log: { _ in reportIssue("Unimplemented: SearchClient.log") })
}

extension DependencyValues {
  public var numbers: NumberClient {
    get { self[NumberClient.self] }
    set { self[NumberClient.self] = newValue }
  }
  public var searchClient: SearchClient {
    get { self[SearchClient.self] }
    set { self[SearchClient.self] = newValue }
  }
}

public struct Tally: Reducer, Sendable {
  public struct State: Codable, Equatable, Sendable {
    public var count = 0
    public var secret = 0
    public var query = ""
    public var results: [String] = []
    public var isLoading = false
    public init() {}
  }

  @CasePathable
  public enum Action: Codable, Equatable, Sendable {
    case increment
    case decrement
    case setCount(String)
    case roll
    case search(String)
    case response(TaskResult<[String]>)
    case logged
  }

  @Dependency(\.numbers) var numbers
  @Dependency(\.searchClient) var searchClient
  enum CancelID { case search }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .decrement:
      state.count -= 1
      return .none
    case .setCount(let text):
      if let value = Int(text) { state.count = value }
      return .none
    case .roll:
      state.secret = numbers.next(1...6)
      return .none
    case .search(let query):
      state.query = query
      state.isLoading = true
      return .run { send in
        await send(.response(TaskResult { try await searchClient.search(query) }))
      }
      .cancellable(id: CancelID.search, cancelInFlight: true)
    case .response(.success(let results)):
      state.isLoading = false
      state.results = results
      return .run { [count = results.count] send in
        await searchClient.log("\(count)")
        await send(.logged)
      }
    case .response(.failure):
      state.isLoading = false
      state.results = []
      return .none
    case .logged:
      return .none
    }
  }
}

public let tallyFeature = Feature(
  "Tally", initialState: Tally.State(),
  stubs: [
    .value("numbers", as: Int.self) { dependencies, next in dependencies.numbers.next = { _ in next() } },
    .endpoint("searchClient.search", \.searchClient.search),
    .endpoint("searchClient.log", \.searchClient.log),
  ]
) {
  Tally()
}

