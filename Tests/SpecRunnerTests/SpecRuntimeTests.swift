import Testing
@testable import SpecRunner

/// Time, built-in stubs, skipping and finishing, as scenarios run them.
@MainActor @Suite struct SpecRuntimeTests {
  func failures(_ result: ScenarioResult?, in file: String) -> [String] {
    guard let result else { return ["no result"] }
    return result.failures.map { "\($0.location)".replacingOccurrences(of: file, with: "spec.yaml") + ": " + $0.message }
  }

  @Test func aResponseHeldWithAfterArrivesWhenTheClockAdvances() async throws {
    let run = try await runSpec("""
      feature: Tally
      dependencies:
        searchClient.search: { returns: [a], after: 1s }
        searchClient.log: { returns: null }
      scenarios:
        - name: held, then answered
          steps:
            - send: { search: x }
              state: { query: x, isLoading: true }
            - advance: 999ms
            - advance: 1ms
            - receive: { response: { success: [a] } }
              state: { isLoading: false, results: [a] }
            - receive: logged
        - name: held, and never answered
          steps:
            - send: { search: x }
              state: { query: x, isLoading: true }
      """)
    #expect(run.results.first?.outcome == .passed, "\(run.loaded.errors)")
    #expect(
      failures(run.results.dropFirst().first, in: run.file) == [
        """
        spec.yaml:17:9: An effect returned for this action is still running. It must complete before the end of the test.

        To fix, make every effect that this action starts finish by the end of the scenario:

        • If an effect sleeps on a test clock, add an "advance:" step that moves the clock far enough for it to wake up.

        • If an effect waits for a response held with "after:", add an "advance:" step past it.

        • If an effect is long-living (a timer, a stream), cancel it with a later action, or name the send with "as:" and add a "cancel:" step for it.

        • If an effect only needs a moment, add a "finish: true" step.

        To leave the effects running unchecked, add a "skipInFlightEffects: true" step, or check less with "exhaustivity: off".
        """
      ])
  }

  @Test func aReceiveThatWaitsOnTheClockSaysSo() async throws {
    let run = try await runSpec("""
      feature: Tally
      scenarios:
        - name: forgets to advance
          dependencies:
            searchClient.search: { returns: [a], after: 1s }
          steps:
            - send: { search: x }
              state: { query: x, isLoading: true }
            - receive: .response
              timeout: 50ms
            - skipInFlightEffects: true
      """)
    #expect(
      failures(run.results.first, in: run.file) == [
        """
        spec.yaml:9:9: Expected to receive an action, but received none after 0.05 seconds.

        There are effects in-flight. If the effect that delivers this action uses a clock/scheduler (via "receive(on:)", \
        "delay", "debounce", etc.), make sure that you wait enough time for it to perform the effect. If you are using \
        a test clock/scheduler, advance it so that the effects may complete, or consider using an immediate \
        clock/scheduler to immediately perform the effect instead.

        If you are not yet using a clock/scheduler, or can not use a clock/scheduler, give the step a longer "timeout:".
        """,
        "spec.yaml:9:9: Expected to receive an action in the case .response, but didn't get one.",
      ])
  }

  @Test func theImmediateClockEndsEverySleepAtOnce() async throws {
    let run = try await runSpec("""
      feature: Tally
      scenarios:
        - name: no waiting
          dependencies:
            clock: immediate
            searchClient.search: { returns: [a], after: 1m }
            searchClient.log: { returns: null }
          steps:
            - send: { search: x }
              state: { query: x, isLoading: true }
            - receive: .response.success
              state: { isLoading: false, results: [a] }
            - skipReceivedActions: true
      """)
    #expect(run.results.first?.outcome == .passed, "\(run.loaded.errors)")
  }

  @Test func aStepCanChangeTheStubsFromThereOn() async throws {
    let run = try await runSpec("""
      feature: Tally
      dependencies:
        searchClient.log: { returns: null }
        numbers: 1
      scenarios:
        - name: changes its mind
          steps:
            - send: roll
              state: { secret: 1 }
            - dependencies: { numbers: 6 }
            - send: roll
              state: { secret: 6 }
      """)
    #expect(run.results.first?.outcome == .passed, "\(run.loaded.errors)")
  }

  @Test func aStateAssignmentThatCannotApplyFailsItsStep() async throws {
    let run = try await runSpec("""
      feature: Tally
      scenarios:
        - name: bad index
          steps:
            - send: increment
              state:
                results[3]: x
      """)
    #expect(run.loaded.errors.isEmpty, "\(run.loaded.errors)")
    #expect(
      failures(run.results.first, in: run.file) == [
        "spec.yaml:7:18: cannot set `results[3]`: index 3 is out of range; `results` has 0 elements"
      ])
  }

  @Test func strictSkipsFailWhenThereIsNothingToSkip() async throws {
    let run = try await runSpec("""
      feature: Tally
      scenarios:
        - name: nothing to skip
          steps:
            - skipReceivedActions: true
            - skipInFlightEffects: true
            - skipReceivedActions: { strict: false }
            - finish: true
      """)
    #expect(
      failures(run.results.first, in: run.file) == [
        "spec.yaml:5:9: There were no received actions to skip.",
        "spec.yaml:6:9: There were no in-flight effects to skip.",
      ])
  }

  @Test func initialStateAssignsOntoTheDefaultFileFirst() async throws {
    let run = try await runSpec("""
      feature: Tally
      initialState: { count: 10, query: file }
      scenarios:
        - name: starts from ten
          initialState: { count: 20 }
          steps:
            - send: increment
              state: { count: 21 }
      """)
    #expect(run.results.first?.outcome == .passed, "\(run.loaded.errors)")
  }
}

extension SpecRuntimeTests {
  @Test func aCasePathThatDoesNotMatchNamesTheCase() async throws {
    let run = try await runSpec("""
      feature: Tally
      dependencies:
        searchClient.search: { returns: [] }
        searchClient.log: { returns: null }
      scenarios:
        - name: expects a failure
          steps:
            - send: { search: x }
              state: { query: x, isLoading: true }
            - receive: .response.failure
              state: { isLoading: false }
            - receive: logged
      """)
    #expect(
      failures(run.results.first, in: run.file) == [
        """
        spec.yaml:10:9: Received unexpected action:

          Tally.Action.response(
            .success([])
          )

        (Expected an action in the case .response.failure.)
        """
      ])
  }
}
