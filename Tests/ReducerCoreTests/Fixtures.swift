import CasePaths
import Dependencies
import DependenciesMacros
import Foundation
import ReducerCore

// MARK: - A counter with a random secret (the shape of the example Counter)

@DependencyClient
struct GenerateRandom: Sendable {
  var generateRandomInt: @Sendable (_ range: ClosedRange<Int>) -> Int = { _ in 0 }
}

extension GenerateRandom: TestDependencyKey {
  static let testValue = GenerateRandom()
}

extension DependencyValues {
  var generateRandom: GenerateRandom {
    get { self[GenerateRandom.self] }
    set { self[GenerateRandom.self] = newValue }
  }
}

struct Counter: Reducer {
  struct State: Equatable {
    var count = 0
    var secret = 0
  }

  @CasePathable
  enum Action: Equatable {
    case increment
    case decrement
    case setCount(String)
    case playNext
    /// Sleeps a second on the continuous clock, then sends `incremented`.
    case incrementLater
    case incremented
  }

  @Dependency(\.generateRandom) var generateRandom
  @Dependency(\.continuousClock) var clock

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
    case .playNext:
      state.count = 0
      state.secret = generateRandom.generateRandomInt(-100...100)
      return .none
    case .incrementLater:
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        await send(.incremented)
      }
    case .incremented:
      state.count += 1
      return .none
    }
  }
}

// MARK: - Ping-pong: an action whose effect sends another at once

enum PingPong {
  @CasePathable
  enum Action: Equatable {
    case ping
    case pong
    case pongs(Int)
    case pongThenPing
  }

  /// `ping` sends `pong`; `pongs(n)` sends `pong` n times; `pongThenPing` sends both. `pong` counts.
  static var reducer: Reduce<Int, Action> {
    Reduce { state, action in
      switch action {
      case .ping: return .send(.pong)
      case .pong:
        state += 1
        return .none
      case .pongs(let count): return .merge((0..<count).map { _ in .send(.pong) })
      case .pongThenPing: return .concatenate(.send(.pong), .send(.ping))
      }
    }
  }
}
