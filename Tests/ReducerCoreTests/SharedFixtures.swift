import CasePaths
import Dependencies
import Foundation
import IdentifiedCollections
import ReducerCore

// MARK: - A counter whose count is shared in memory

extension SharedKey where Self == InMemoryKey<Int> {
  /// The count that ``SharedCounter`` and ``SharedCountViewer`` share.
  static var sharedCount: Self { inMemory("count") }
}

/// A counter whose count lives in memory, under the key `count`.
@Reducer
struct SharedCounter {
  @ObservableState
  struct State: Equatable {
    @Shared(.sharedCount) var count = 0
    var title = ""
  }

  @CasePathable
  enum Action: Equatable {
    case increment
    case incrementTwice
    /// Sends `increment` from an effect.
    case incrementFromEffect
    /// Increments the count in the body of an effect, then sends `incremented`.
    case incrementInEffect
    /// Increments the count in the body of an effect, and sends nothing.
    case incrementInEffectQuietly
    case incremented
    /// Sends `increment` twice from an effect.
    case incrementTwiceFromEffect
    case setTitle(String)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .increment:
        state.$count.withLock { $0 += 1 }
        return .none
      case .incrementTwice:
        state.$count.withLock { $0 += 1 }
        state.$count.withLock { $0 += 1 }
        return .none
      case .incrementFromEffect:
        return .run { send in await send(.increment) }
      case .incrementInEffect:
        return .run { [count = state.$count] send in
          count.withLock { $0 += 1 }
          await send(.incremented)
        }
      case .incrementInEffectQuietly:
        return .run { [count = state.$count] _ in
          count.withLock { $0 += 1 }
        }
      case .incremented:
        return .none
      case .incrementTwiceFromEffect:
        return .run { send in
          await send(.increment)
          await send(.increment)
        }
      case .setTitle(let title):
        state.title = title
        return .none
      }
    }
  }
}

/// A second feature holding the same key as ``SharedCounter``: it reads the count and resets it.
@Reducer
struct SharedCountViewer {
  @ObservableState
  struct State: Equatable {
    @Shared(.sharedCount) var count = 0
  }

  enum Action: Equatable {
    case reset
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .reset:
        state.$count.withLock { $0 = 0 }
        return .none
      }
    }
  }
}

/// Both features side by side, as CaseStudies' shared-state tabs are.
@Reducer
struct SharedTabs {
  @ObservableState
  struct State: Equatable {
    var counter = SharedCounter.State()
    var viewer = SharedCountViewer.State()
  }

  @CasePathable
  enum Action: Equatable {
    case counter(SharedCounter.Action)
    case viewer(SharedCountViewer.Action)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.counter, action: \.counter) { SharedCounter() }
    Scope(state: \.viewer, action: \.viewer) { SharedCountViewer() }
  }
}

// MARK: - User defaults

enum Theme: String, Codable, Sendable {
  case light, dark
}

/// A feature with a user default of each kind.
@Reducer
struct Settings {
  @ObservableState
  struct State: Equatable {
    @Shared(.appStorage("isOn")) var isOn = false
    @Shared(.appStorage("volume")) var volume = 5
    @Shared(.appStorage("theme")) var theme = Theme.light
  }

  enum Action: Equatable {
    case toggle
    case setVolume(Int)
    case setTheme(Theme)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .toggle:
        state.$isOn.withLock { $0.toggle() }
        return .none
      case .setVolume(let volume):
        state.$volume.withLock { $0 = volume }
        return .none
      case .setTheme(let theme):
        state.$theme.withLock { $0 = theme }
        return .none
      }
    }
  }
}

// MARK: - Files, a key with a default, and derived shares (the shape of SyncUps)

struct Member: Codable, Equatable, Identifiable, Sendable {
  var id: Int
  var name = ""
}

struct Team: Codable, Equatable, Identifiable, Sendable {
  var id: Int
  var members: IdentifiedArrayOf<Member> = []
  var title = ""
}

extension URL {
  /// The file of ``SharedKey/teams``, in the documents directory as SyncUps' is: the tests'
  /// in-memory file storage never writes it.
  static let teamsFile = URL.documentsDirectory.appending(component: "reducer-core-tests-teams.json")
}

extension SharedKey where Self == FileStorageKey<IdentifiedArrayOf<Team>>.Default {
  /// The teams, in a file, empty by default: SyncUps' `.syncUps`.
  static var teams: Self {
    Self[.fileStorage(.teamsFile), default: []]
  }
}

/// The list of teams, saved in a file.
@Reducer
struct TeamsList {
  @ObservableState
  struct State: Equatable {
    @Shared(.teams) var teams
  }

  @CasePathable
  enum Action: Equatable {
    case add(Team)
    case remove(id: Team.ID)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .add(let team):
        state.$teams.withLock { _ = $0.append(team) }
        return .none
      case .remove(let id):
        state.$teams.withLock { _ = $0.remove(id: id) }
        return .none
      }
    }
  }
}

/// The detail of a team, which its parent hands over as a shared reference, and a child that
/// gets a reference to the members only.
@Reducer
struct TeamDetail {
  @ObservableState
  struct State: Equatable {
    @Shared var team: Team
    var members: MembersEditor.State?
  }

  @CasePathable
  enum Action: Equatable {
    case rename(String)
    case editMembers
    case members(MembersEditor.Action)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .rename(let title):
        state.$team.withLock { $0.title = title }
        return .none
      case .editMembers:
        state.members = MembersEditor.State(members: state.$team.members)
        return .none
      case .members:
        return .none
      }
    }
    .ifLet(\.members, action: \.members) { MembersEditor() }
  }
}

/// Edits the members of a team, through a shared reference derived from the team's.
@Reducer
struct MembersEditor {
  @ObservableState
  struct State: Equatable {
    @Shared var members: IdentifiedArrayOf<Member>
  }

  @CasePathable
  enum Action: Equatable {
    case add(Member)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .add(let member):
        state.$members.withLock { _ = $0.append(member) }
        return .none
      }
    }
  }
}
