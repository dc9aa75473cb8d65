import CasePaths
import Dependencies
import Foundation
import IssueReporting
import ReducerCore
import ReducerCoreSpecs

// A feature for the runner's tests of identified elements, action paths and long-living
// effects: a list of identified items (a plain `[Item]` with `UUID` ids from the `uuid`
// dependency), an effect that listens to streams of screenshots and messages for as long as
// the screen is shown, and a timer started by a cancellable send.

public struct ScreenClient: Sendable {
  public var screenshots: @Sendable () async -> AsyncStream<Void>
  public var messages: @Sendable () -> AsyncStream<String>
}

extension ScreenClient: TestDependencyKey {
  public static let testValue = ScreenClient(
    screenshots: {
      reportIssue("Unimplemented: ScreenClient.screenshots")
      return AsyncStream { $0.finish() }
    },
    messages: {
      reportIssue("Unimplemented: ScreenClient.messages")
      return AsyncStream { $0.finish() }
    })
}

extension DependencyValues {
  public var screen: ScreenClient {
    get { self[ScreenClient.self] }
    set { self[ScreenClient.self] = newValue }
  }
}

public struct Checklist: Reducer, Sendable {
  public struct Item: Codable, Equatable, Identifiable, Sendable {
    public var id: UUID
    public var title: String
    public var isDone = false
  }

  public struct State: Codable, Equatable, Sendable {
    public var items: [Item] = []
    public var screenshots = 0
    public var messages: [String] = []
    public var seconds = 0
    public init() {}
  }

  /// What an item does.
  @CasePathable
  public enum ItemAction: Codable, Equatable, Sendable {
    case toggle
    case rename(String)
  }

  /// An action of one item, by its id: TCA's `IdentifiedAction`.
  @CasePathable
  public enum ItemsAction: Codable, Equatable, Sendable {
    case element(id: UUID, action: ItemAction)
  }

  @CasePathable
  public enum Action: Codable, Equatable, Sendable {
    case add(String)
    case items(ItemsAction)
    case remove(id: UUID)
    /// Listens to screenshots and messages until the task is cancelled.
    case onAppear
    case screenshotTaken
    case messageReceived(String)
    case startTimer
    case tick
    case stopTimer
  }

  @Dependency(\.uuid) var uuid
  @Dependency(\.screen) var screen
  @Dependency(\.continuousClock) var clock
  enum CancelID { case timer }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let title):
      state.items.append(Item(id: uuid(), title: title))
      return .none
    case .items(.element(let id, let action)):
      guard let index = state.items.firstIndex(where: { $0.id == id }) else { return .none }
      switch action {
      case .toggle: state.items[index].isDone.toggle()
      case .rename(let title): state.items[index].title = title
      }
      return .none
    case .remove(let id):
      state.items.removeAll { $0.id == id }
      return .none
    case .onAppear:
      return .merge(
        .run { [screen] send in
          for await _ in await screen.screenshots() { await send(.screenshotTaken) }
        },
        .run { [screen] send in
          for await message in screen.messages() { await send(.messageReceived(message)) }
        })
    case .screenshotTaken:
      state.screenshots += 1
      return .none
    case .messageReceived(let message):
      state.messages.append(message)
      return .none
    case .startTimer:
      return .run { [clock] send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
      .cancellable(id: CancelID.timer, cancelInFlight: true)
    case .tick:
      state.seconds += 1
      return .none
    case .stopTimer:
      return .cancel(id: CancelID.timer)
    }
  }
}

public let checklistFeature = Feature(
  "Checklist", initialState: Checklist.State(),
  stubs: [
    .stream("screen.screenshots", \.screen.screenshots),
    .stream("screen.messages", \.screen.messages),
  ]
) {
  Checklist()
}
