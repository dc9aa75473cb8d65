import Testing
@testable import SpecRunner

/// What an `assert:` step checks: the state as of the last step asserted, as TCA's
/// `store.assert` does. An action that an effect sent changes it only when a `receive:`
/// step takes it.
@MainActor @Suite struct SpecAssertTimingTests {
  func failures(_ result: ScenarioResult?, in file: String) -> [String] {
    guard let result else { return ["no result"] }
    return result.failures.map { "\($0.location)".replacingOccurrences(of: file, with: "spec.yaml") + ": " + $0.message }
  }

  @Test func anAssertBeforeAReceiveSeesTheStateBeforeTheReceivedAction() async throws {
    let run = try await runSpec("""
      feature: Tally
      dependencies:
        searchClient.search: { returns: [a] }
        searchClient.log: { returns: null }
      scenarios:
        - name: the response is sent, not yet received
          steps:
            - send: { search: x }
              state: { query: x, isLoading: true }
            - assert: { isLoading: true, results: [] }
            - receive: { response: { success: [a] } }
              state: { isLoading: false, results: [a] }
            - assert: { isLoading: false, results: [a] }
            - receive: logged
        - name: the state of the response is not there yet
          steps:
            - send: { search: x }
              state: { query: x, isLoading: true }
            - assert: { isLoading: false, results: [a] }
            - skipReceivedActions: true
      """)
    #expect(run.results.first?.outcome == .passed, "\(run.results.first?.failures ?? [])")
    #expect(
      failures(run.results.dropFirst().first, in: run.file) == [
        """
        spec.yaml:19:9: A state change does not match expectation.

            \u{2007} Tally.State(
            \u{2007}   count: 0,
            \u{2007}   secret: 0,
            \u{2007}   query: "x",
            \u{2007}   results: [
            −     [0]: "a"
            \u{2007}   ],
            −   isLoading: false
            +   isLoading: true
            \u{2007} )

        (Expected: −, Actual: +)
        """
      ])
  }
}
