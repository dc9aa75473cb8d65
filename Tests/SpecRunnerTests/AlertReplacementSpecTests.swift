import CasePaths
import ReducerCore
import Testing
@testable import SpecRunner

/// A feature whose failure alert's Retry button fails again and presents the next alert.
struct Retrier: Reducer {
  struct State: Codable, Equatable {
    @PresentationState var alert: AlertState<Action.Alert>?
    var attempts = 0
  }

  @CasePathable
  enum Action: Codable, Equatable {
    case alert(PresentationAction<Alert>)
    case fail

    enum Alert: Codable, Equatable {
      case retry
      case giveUp
    }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .fail, .alert(.presented(.retry)):
        state.attempts += 1
        state.alert = AlertState(
          title: "Attempt \(state.attempts) failed",
          buttons: [ButtonState(label: "Retry", action: .retry), ButtonState(label: "Give up", action: .giveUp)])
      case .alert:
        break
      }
      return .none
    }
    .ifLet(\.$alert, action: \.alert)
  }
}

let retrierFeature = Feature("Retrier", initialState: Retrier.State()) { Retrier() }

/// A spec of an alert that a button of its own replaces: the new alert stays presented, as in
/// TCA; any other action of the alert dismisses it.
@MainActor @Suite struct AlertReplacementSpecTests {
  @Test func anAlertReplacedFromItsOwnButtonStaysPresented() async throws {
    let run = try await runSpec(
      """
      feature: Retrier
      scenarios:
        - name: Retrying from the alert shows the next alert, giving up closes it
          steps:
            - send: fail
              state:
                attempts: 1
                alert:
                  title: Attempt 1 failed
                  buttons: [{ label: Retry, action: retry }, { label: Give up, action: giveUp }]
            - send: { alert: { presented: retry } }
              state:
                attempts: 2
                alert.title: Attempt 2 failed
            - send: { alert: { presented: giveUp } }
              state: { alert: null }
      """, features: [retrierFeature])
    #expect(run.loaded.errors.isEmpty)
    #expect(run.results.map(\.outcome) == [.passed])
    #expect(run.results.flatMap(\.failures).map(\.message) == [])
  }
}
