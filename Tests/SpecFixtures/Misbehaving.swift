import CasePaths
import Dependencies
import Foundation
import ReducerCore
import ReducerCoreSpecs

// Features that misbehave on purpose, for the end-to-end tests of the command: a reducer
// that traps, an effect that never ends, a reducer that never returns, and a reducer
// that uses dependencies no spec can forget to stub without being told.

/// Traps in the ways Swift code traps.
public struct Trapper: Reducer, Sendable {
  public struct State: Codable, Equatable, Sendable {
    public var values: [Int] = [1, 2, 3]
    public var last = 0
    public init() {}
  }

  @CasePathable
  public enum Action: Codable, Equatable, Sendable {
    case read(index: Int)
    case divide(by: Int)
    case giveUp
  }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .read(let index):
      state.last = state.values[index]
    case .divide(let divisor):
      state.last = 100 / divisor
    case .giveUp:
      fatalError("The reducer gave up")
    }
    return .none
  }
}

/// An effect that runs until it is cancelled, and a reducer that never returns.
public struct Forever: Reducer, Sendable {
  public struct State: Codable, Equatable, Sendable {
    public var ticks = 0
    public init() {}
  }

  @CasePathable
  public enum Action: Codable, Equatable, Sendable {
    case start
    case tick
    case stop
    case spin
  }

  @Dependency(\.continuousClock) var clock
  enum CancelID { case timer }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { [clock] send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
      .cancellable(id: CancelID.timer)
    case .tick:
      state.ticks += 1
      return .none
    case .stop:
      return .cancel(id: CancelID.timer)
    case .spin:
      // Never returns: only the worker's timeout can end it.
      var counter = 0
      while counter >= 0 { counter = (counter &+ 1) % 1_000 }
      return .none
    }
  }
}

/// Uses the built-in `uuid` and `date`, which a spec must stub.
public struct Stamper: Reducer, Sendable {
  public struct State: Codable, Equatable, Sendable {
    public var id: UUID?
    public var stamp: Date?
    public init() {}
  }

  @CasePathable
  public enum Action: Codable, Equatable, Sendable {
    case stamp
  }

  @Dependency(\.uuid) var uuid
  @Dependency(\.date.now) var now

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.id = uuid()
    state.stamp = now
    return .none
  }
}

/// Every fixture feature, as the end-to-end tests' executable registers them.
public let fixtureFeatures: [Feature] = [
  tallyFeature,
  Feature("Trapper", initialState: Trapper.State()) { Trapper() },
  Feature("Forever", initialState: Forever.State()) { Forever() },
  Feature("Stamper", initialState: Stamper.State()) { Stamper() },
  checklistFeature,
  rosterFeature,
  gaugeFeature,
]
