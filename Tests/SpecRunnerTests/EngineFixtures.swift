import CasePaths
import Dependencies
import Foundation
import IssueReporting
import ReducerCore
@testable import SpecRunner

// A small feature for the engine's tests: a counter with a random number, and a search
// whose request goes through an endpoint and can be cancelled by a newer one.

struct NumberClient: Sendable {
  var next: @Sendable (ClosedRange<Int>) -> Int
}

extension NumberClient: TestDependencyKey {
  static let testValue = NumberClient { _ in
    reportIssue("Unimplemented: NumberClient.next")
    return 0
  }
}

struct SearchClient: Sendable {
  var search: @Sendable (String) async throws -> [String]
  var log: @Sendable (String) async -> Void
}

extension SearchClient: TestDependencyKey {
  static let testValue = SearchClient(
    search: { _ in
      reportIssue("Unimplemented: SearchClient.search")
      return []
    },
    log: { _ in reportIssue("Unimplemented: SearchClient.log") })
}

extension DependencyValues {
  var numbers: NumberClient {
    get { self[NumberClient.self] }
    set { self[NumberClient.self] = newValue }
  }
  var searchClient: SearchClient {
    get { self[SearchClient.self] }
    set { self[SearchClient.self] = newValue }
  }
}

struct Tally: Reducer {
  struct State: Codable, Equatable, Sendable {
    var count = 0
    var secret = 0
    var query = ""
    var results: [String] = []
    var isLoading = false
  }

  @CasePathable
  enum Action: Codable, Equatable, Sendable {
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

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
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

let tallyFeature = Feature(
  "Tally", initialState: Tally.State(),
  stubs: [
    .value("numbers", as: Int.self) { dependencies, next in dependencies.numbers.next = { _ in next() } },
    .endpoint("searchClient.search", \.searchClient.search),
    .endpoint("searchClient.log", \.searchClient.log),
  ]
) {
  Tally()
}

/// Writes a spec to a temporary file and returns its path.
func writeSpec(_ text: String, name: String = "spec.yaml") throws -> String {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("reducer-spec-tests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  let url = directory.appendingPathComponent(name)
  try text.write(to: url, atomically: true, encoding: .utf8)
  return url.path
}

/// Loads a spec and runs every scenario of it, in order.
@MainActor
func runSpec(_ text: String) async throws -> (file: String, loaded: LoadedFile, results: [ScenarioResult]) {
  let path = try writeSpec(text)
  let engine = SpecEngine(features: [tallyFeature])
  let loaded = engine.load(files: [path])[0]
  var results: [ScenarioResult] = []
  for scenario in loaded.scenarios {
    results.append(await engine.run(scenario.id, timeout: .seconds(10)) { _ in })
  }
  return (path, loaded, results)
}
