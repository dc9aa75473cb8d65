import CasePaths
import Foundation
import ReducerCore
import ReducerCoreSpecs

// A feature of shared state for the runner's tests: an in-memory count that it writes and
// reads back through a reader, and a file it appends to; an effect that counts and then
// sends a note. Not registered with the fixture runner.

/// A count kept in memory and read back, and notes kept in a file.
@Reducer
public struct Sharing {
  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    @Shared(.inMemory("count")) public var count = 0
    @SharedReader(.inMemory("count")) public var seen = 0
    @Shared(.fileStorage(URL(fileURLWithPath: "/tmp/sharing/notes.json"))) public var notes: [String] = []
    public init() {}
  }

  @CasePathable
  public enum Action: Codable, Equatable, Sendable {
    case increment
    case note(String)
    case countThenNote(String)
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .increment:
        state.$count.withLock { $0 += 1 }
      case .note(let text):
        state.$notes.withLock { $0.append(text) }
      case .countThenNote(let text):
        return .run { [count = state.$count] send in
          count.withLock { $0 += 1 }
          await send(.note(text))
        }
      }
      return .none
    }
  }
}

public let sharingFeature = Feature("Sharing", initialState: Sharing.State()) {
  Sharing()
}
