import CasePaths
import Dependencies
import Foundation
import IssueReporting
import ReducerCore
import ReducerCoreSpecs

// A feature whose endpoints take two and three arguments, as a Redux app's repositories do,
// for the tests of `calls:`, `features` and `schema`. Not registered with the fixture runner.

/// A client whose endpoints take several arguments.
public struct ShelfClient: Sendable {
  public var find: @Sendable (_ keyword: String, _ category: String) async throws -> [String]
  public var mark: @Sendable (_ title: String, _ shelf: Int, _ isRead: Bool) async -> Void
}

extension ShelfClient: TestDependencyKey {
  public static let testValue = ShelfClient(
    find: { _, _ in
      reportIssue("Unimplemented: ShelfClient.find")
      return []
    },
    mark: { _, _, _ in reportIssue("Unimplemented: ShelfClient.mark") })
}

extension DependencyValues {
  public var shelfClient: ShelfClient {
    get { self[ShelfClient.self] }
    set { self[ShelfClient.self] = newValue }
  }
}

public struct Shelf: Reducer, Sendable {
  public init() {}

  public struct State: Codable, Equatable, Sendable {
    public var titles: [String] = []
    public init() {}
  }

  @CasePathable
  public enum Action: Codable, Equatable, Sendable {
    case find(keyword: String, category: String)
    case found([String])
    case mark(String)
    case marked
  }

  @Dependency(\.shelfClient) var shelfClient

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .find(let keyword, let category):
        return .run { send in await send(.found((try? await shelfClient.find(keyword, category)) ?? [])) }
      case .found(let titles):
        state.titles = titles
        return .none
      case .mark(let title):
        return .run { send in
          await shelfClient.mark(title, 2, true)
          await send(.marked)
        }
      case .marked:
        return .none
      }
    }
  }
}

public let shelfFeature = Feature(
  "Shelf", initialState: Shelf.State(),
  stubs: [.endpoint("shelfClient.find", \.shelfClient.find), .endpoint("shelfClient.mark", \.shelfClient.mark)]
) {
  Shelf()
}
