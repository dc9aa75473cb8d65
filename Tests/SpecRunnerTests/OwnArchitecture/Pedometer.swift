import Dependencies
import Foundation
import SpecRunner

/// A feature of the plain architecture: steps counted toward a goal, which the reducer
/// announces, when they reach it, by returning `.goalReached`.
enum Pedometer {
  struct State: Codable, Equatable, Sendable {
    var steps = 0
    var goal = 3
    var goalReached = false
    var walk: UUID?
  }

  enum Action: Codable, Equatable, Sendable {
    /// Starts counting again, for a new walk.
    case startWalk
    case step
    /// Two steps at once: the reducer returns them, to be fed back.
    case stepTwice
    /// What the reducer returns when the steps reach the goal.
    case goalReached
  }

  static func reduce(_ state: inout State, _ action: Action) -> [Action] {
    switch action {
    case .startWalk:
      @Dependency(\.uuid) var uuid
      state = State(goal: state.goal, walk: uuid())
      return []
    case .step:
      state.steps += 1
      return state.steps == state.goal ? [.goalReached] : []
    case .stepTwice:
      return [.step, .step]
    case .goalReached:
      state.goalReached = true
      return []
    }
  }
}

let pedometerFeature = Feature("Pedometer", initialState: Pedometer.State(), reduce: Pedometer.reduce)
