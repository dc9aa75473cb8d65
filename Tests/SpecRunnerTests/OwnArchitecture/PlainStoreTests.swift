import Foundation
import Testing
@testable import SpecRunner

/// Specs run through ``PlainStore``, the adapter of docs/your-own-architecture.md: what passes,
/// and each failure with its text and its place in the spec.
@MainActor @Suite struct PlainStoreTests {
  /// `spec.yaml:line:column: message` for each failure of each scenario.
  func failures(_ spec: String) async throws -> [String] {
    let run = try await runSpec(spec, features: [pedometerFeature])
    #expect(run.loaded.errors.isEmpty)
    return run.results.flatMap(\.failures).map {
      "\($0.location)".replacingOccurrences(of: run.file, with: "spec.yaml") + ": " + $0.message
    }
  }

  /// The spec that docs/your-own-architecture.md shows.
  static let passingSpec = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/own-architecture/pedometer.yaml")

  @Test func theSpecOfThePagePasses() async throws {
    let run = try await runSpec(String(contentsOf: Self.passingSpec, encoding: .utf8), features: [pedometerFeature])
    #expect(run.loaded.errors.isEmpty)
    #expect(
      run.results.map(\.name) == [
        "Reaching the goal is announced", "The actions fed back are received in order",
        "The reducer runs with the scenario's dependencies", "Not exhaustive, only what the steps state is checked",
        "Skipping drops the actions fed back",
      ])
    #expect(run.results.map(\.outcome) == Array(repeating: .passed, count: 5))
    #expect(run.results.flatMap(\.failures).map(\.message) == [])
  }

  @Test func aWrongStateFailsAtItsStepWithADiff() async throws {
    let failures = try await failures(
      """
      feature: Pedometer
      scenarios:
        - name: counts
          steps:
            - send: step
              state: { steps: 2 }
      """)
    #expect(
      failures == [
        """
        spec.yaml:5:9: A state change does not match expectation.

            \u{2007} Pedometer.State(
            −   steps: 2,
            +   steps: 1,
            \u{2007}   goal: 3,
            \u{2007}   goalReached: false,
            \u{2007}   walk: nil
            \u{2007} )

        (Expected: −, Actual: +)
        """
      ])
  }

  @Test func aChangeThatNoStepStatesFails() async throws {
    let failures = try await failures(
      """
      feature: Pedometer
      scenarios:
        - name: counts
          steps:
            - send: step
      """)
    #expect(
      failures == [
        """
        spec.yaml:5:9: State was not expected to change, but a change occurred.

            \u{2007} Pedometer.State(
            −   steps: 0,
            +   steps: 1,
            \u{2007}   goal: 3,
            \u{2007}   goalReached: false,
            \u{2007}   walk: nil
            \u{2007} )

        (Expected: −, Actual: +)
        """
      ])
  }

  @Test func anActionLeftUnreceivedFailsAtTheScenario() async throws {
    let failures = try await failures(
      """
      feature: Pedometer
      scenarios:
        - name: reaches the goal
          initialState: { goal: 1 }
          steps:
            - send: step
              state: { steps: 1 }
      """)
    #expect(
      failures == [
        """
        spec.yaml:3:5: The store received 1 unexpected action.

          Unhandled actions:
            Pedometer.Action.goalReached

        To fix, receive these actions with "receive:" steps, skip them with "skipReceivedActions: true", \
        or check less with "exhaustivity: off".
        """
      ])
  }

  @Test func actionsLeftUnreceivedFailAtTheNextSendWhichGoesOn() async throws {
    let failures = try await failures(
      """
      feature: Pedometer
      scenarios:
        - name: steps twice, then once
          steps:
            - send: stepTwice
            - send: step
              state: { steps: 3 }
            - receive: goalReached
              state: { goalReached: true }
      """)
    #expect(
      failures == [
        """
        spec.yaml:6:9: The store received 2 unexpected actions.

          Unhandled actions:
            Pedometer.Action.step
            Pedometer.Action.step

        To fix, receive these actions with "receive:" steps, skip them with "skipReceivedActions: true", \
        or check less with "exhaustivity: off".
        """
      ])
  }

  @Test func aReceivedActionThatDiffersFails() async throws {
    let failures = try await failures(
      """
      feature: Pedometer
      scenarios:
        - name: expects the goal first
          initialState: { goal: 2 }
          steps:
            - send: stepTwice
            - receive: goalReached
            - skipReceivedActions: true
      """)
    #expect(
      failures == [
        """
        spec.yaml:7:9: Received unexpected action:

            − Pedometer.Action.goalReached
            + Pedometer.Action.step

        (Expected: −, Received: +)
        """
      ])
  }

  @Test func aReceiveWhenNothingWasFedBackFails() async throws {
    let failures = try await failures(
      """
      feature: Pedometer
      scenarios:
        - name: expects the goal too soon
          steps:
            - send: step
              state: { steps: 1 }
            - receive: goalReached
      """)
    #expect(
      failures == [
        """
        spec.yaml:7:9: Expected to receive the following action, but didn't:

          Pedometer.Action.goalReached
        """
      ])
  }

  @Test func aReceiveOfACaseFailsForAnotherCaseAndForNone() async throws {
    let failures = try await failures(
      """
      feature: Pedometer
      scenarios:
        - name: expects the goal first
          initialState: { goal: 2 }
          steps:
            - send: stepTwice
            - receive: .goalReached
            - skipReceivedActions: true
            - receive: .goalReached
      """)
    #expect(
      failures == [
        """
        spec.yaml:7:9: Received unexpected action:

          Pedometer.Action.step

        (Expected an action in the case .goalReached.)
        """,
        "spec.yaml:9:9: Expected to receive an action in the case .goalReached, but didn't get one.",
      ])
  }

  @Test func skippingWhatIsNotThereFails() async throws {
    let failures = try await failures(
      """
      feature: Pedometer
      scenarios:
        - name: skips nothing
          steps:
            - skipReceivedActions: true
            - skipInFlightEffects: true
            - skipReceivedActions: { strict: false }
      """)
    #expect(
      failures == [
        "spec.yaml:5:9: There were no received actions to skip.",
        "spec.yaml:6:9: There were no in-flight effects to skip.",
      ])
  }

  @Test func aWrongAssertFailsAtItsStep() async throws {
    let failures = try await failures(
      """
      feature: Pedometer
      scenarios:
        - name: asserts
          steps:
            - assert: { goal: 4 }
      """)
    #expect(
      failures == [
        """
        spec.yaml:5:9: A state change does not match expectation.

            \u{2007} Pedometer.State(
            \u{2007}   steps: 0,
            −   goal: 4,
            +   goal: 3,
            \u{2007}   goalReached: false,
            \u{2007}   walk: nil
            \u{2007} )

        (Expected: −, Actual: +)
        """
      ])
  }

  /// swift-dependencies' message, which names the line of `@Dependency(\.uuid)` in Pedometer.swift.
  @Test func anUnstubbedDependencyFailsAtItsStep() async throws {
    let failures = try await failures(
      """
      feature: Pedometer
      scenarios:
        - name: walks
          exhaustivity: off
          steps:
            - send: startWalk
      """)
    #expect(
      failures == [
        """
        spec.yaml:6:9: @Dependency(\\.uuid) has no test implementation, but was accessed from a test context:

          Location:
            SpecRunnerTests/Pedometer.swift:28
          Key:
            DependencyValues.UUIDGeneratorKey
          Value:
            UUIDGenerator

        Dependencies registered with the library are not allowed to use their default, live implementations when \
        run from tests.

        To fix, override 'uuid' with a test value. If you are using the Composable Architecture, mutate the \
        'dependencies' property on your 'TestStore'. Otherwise, use 'withDependencies' to define a scope for the \
        override. If you'd like to provide a default value for all tests, implement the 'testValue' requirement of \
        the 'DependencyKey' protocol.
        """
      ])
  }

  @Test func notExhaustiveAWrongStatedFieldStillFails() async throws {
    let failures = try await failures(
      """
      feature: Pedometer
      scenarios:
        - name: counts
          exhaustivity: off
          steps:
            - send: step
              state: { steps: 2 }
      """)
    #expect(
      failures == [
        """
        spec.yaml:6:9: A state change does not match expectation.

            \u{2007} Pedometer.State(
            −   steps: 2,
            +   steps: 1,
            \u{2007}   goal: 3,
            \u{2007}   goalReached: false,
            \u{2007}   walk: nil
            \u{2007} )

        (Expected: −, Actual: +)
        """
      ])
  }
}
