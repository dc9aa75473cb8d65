import Testing
@testable import SpecRunner

/// Every error a stub's value can have, word for word, at its place.
@MainActor @Suite struct StubValidationTests {
  /// The errors of a spec whose only scenario has these `dependencies:` (given as lines
  /// under it, indented by six spaces) and one step.
  func errors(_ dependencies: String, step: String = "- send: increment") async throws -> [String] {
    let run = try await runSpec("""
      feature: Tally
      scenarios:
        - name: one
          dependencies:
      \(dependencies)
          steps:
            \(step)
      """)
    return run.loaded.errors.map { $0.description.replacingOccurrences(of: run.loaded.file, with: "spec.yaml") }
  }

  @Test func endpointResponses() async throws {
    #expect(
      try await errors("      searchClient.search: { returns: [], throws: offline }")
        == ["spec.yaml:5:43: error: a response has `returns` or `throws`, not both"])
    #expect(
      try await errors("      searchClient.search: { after: 1s }")
        == ["spec.yaml:5:28: error: a response of `searchClient.search` needs `returns: VALUE` or `throws: MESSAGE`"])
    #expect(
      try await errors("      searchClient.search: []")
        == [
          "spec.yaml:5:28: error: the list of responses for `searchClient.search` is empty: give one response per call, e.g. `{ returns: … }`"
        ])
    #expect(
      try await errors("      searchClient.search: { returns: [], retruns: [] }")
        == ["spec.yaml:5:43: error: unknown key `retruns` in a response of `searchClient.search`; did you mean `returns`?"])
    #expect(
      try await errors("      searchClient.search: { returns: [], after: soon }")
        == [
          "spec.yaml:5:50: error: expected a duration (`300ms`, `1.5s`, `2m`, or a number of seconds) for `after`, found the string \"soon\""
        ])
    #expect(
      try await errors("      searchClient.log: { throws: offline }")
        == ["spec.yaml:5:27: error: `searchClient.log` cannot throw (it is `async` without `throws`): give it `returns:`"])
    #expect(
      try await errors("      searchClient.search: { calls: [a] }")
        == [
          "spec.yaml:5:28: error: `searchClient.search` lists `calls` but no response: add `returns: …` (or `responses: […]`) beside it"
        ])
    #expect(
      try await errors("      searchClient.search: { responses: [], calls: a }")
        == [
          "spec.yaml:5:52: error: expected a list of the inputs `searchClient.search` must be called with for `calls`, found the string \"a\""
        ])
    #expect(
      try await errors("      searchClient.search: 3")
        == [
          "spec.yaml:5:28: error: expected a response for `searchClient.search` (`returns: VALUE` or `throws: MESSAGE`), found the number 3"
        ])
  }

  @Test func builtIns() async throws {
    #expect(
      try await errors("      uuid: random")
        == ["spec.yaml:5:13: error: `uuid` takes `incrementing` or a list of UUIDs (one per use), found the string \"random\""])
    #expect(
      try await errors("      timeZone: Mars/Olympus")
        == ["spec.yaml:5:17: error: unknown time zone `Mars/Olympus`: write an identifier such as `UTC` or `Europe/Paris`"])
    #expect(
      try await errors("      random: 42")
        == ["spec.yaml:5:15: error: `random` takes `{ seed: NUMBER }`, found the number 42"])
    #expect(
      try await errors("      clock: slow")
        == ["spec.yaml:5:14: error: `clock` is `test` (the default) or `immediate`, found the string \"slow\""])
    #expect(
      try await errors("      clock: immediate", step: "- advance: 1s")
        == [
          "spec.yaml:7:9: error: `advance` moves the test clock, but this scenario uses `clock: immediate`, whose sleeps end at once: remove the step, or use the test clock"
        ])
    #expect(
      try await errors("      numbers: 1", step: "- dependencies: { clock: immediate }")
        == [
          "spec.yaml:7:25: error: `clock` is chosen for the whole scenario: set it in the scenario's or the file's `dependencies`"
        ])
  }
}
