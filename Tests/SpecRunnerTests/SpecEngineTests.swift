import Foundation
import SpecFixtures
import TestSupport
import Testing
@testable import SpecRunner

// Diffs are swift-custom-dump's: unchanged lines start with a figure space (U+2007).

/// The engine end to end in one process: specs loaded, bound to a feature and run through
/// `TestStore`, with every failure at the line and column of its step.
@MainActor @Suite struct SpecEngineTests {
  /// `path:line:column: message` for each failure of a result, the path shortened to `spec.yaml`.
  func failures(_ result: ScenarioResult, in file: String) -> [String] {
    result.failures.map {
      "\($0.location)".replacingOccurrences(of: file, with: "spec.yaml") + ": " + $0.message
    }
  }

  func errors(_ loaded: LoadedFile) -> [String] {
    loaded.errors.map { $0.description.replacingOccurrences(of: loaded.file, with: "spec.yaml") }
  }

  @Test func aPassingScenarioPasses() async throws {
    let run = try await runSpec("""
      feature: Tally
      scenarios:
        - name: Searching lists the results, then logs them
          dependencies:
            searchClient.search: { returns: [a, b] }
            searchClient.log: { returns: null, calls: ["2"] }
          steps:
            - send: { search: swift }
              state: { query: swift, isLoading: true }
            - receive: { response: { success: [a, b] } }
              state: { isLoading: false, results: [a, b] }
            - receive: .logged
      """)
    #expect(run.loaded.errors.isEmpty)
    #expect(run.results.map(\.outcome) == [.passed])
    #expect(run.results[0].name == "Searching lists the results, then logs them")
    #expect(run.results[0].location.line == 3)
  }

  @Test func aWrongExpectationFailsAtItsStepWithADiff() async throws {
    let run = try await runSpec("""
      feature: Tally
      scenarios:
        - name: counts
          steps:
            - send: increment
              state: { count: 1 }
            - send: increment
              state: { count: 3 }
      """)
    #expect(run.results[0].outcome == .failed)
    #expect(
      failures(run.results[0], in: run.file) == [
        """
        spec.yaml:7:9: A state change does not match expectation.

            \u{2007} Tally.State(
            −   count: 3,
            +   count: 2,
            \u{2007}   secret: 0,
            \u{2007}   query: "",
            \u{2007}   results: [],
            \u{2007}   isLoading: false
            \u{2007} )

        (Expected: −, Actual: +)
        """
      ])
    #expect(run.results[0].failures[0].sourceLine == "      - send: increment")
  }

  @Test func anUnstubbedEndpointNamesItselfAndTheScenarioGoesOn() async throws {
    let run = try await runSpec("""
      feature: Tally
      scenarios:
        - name: forgets the stub
          steps:
            - send: { search: swift }
              state: { query: swift, isLoading: true }
            - receive: .response.failure
              state: { isLoading: false }
      """)
    #expect(
      failures(run.results[0], in: run.file) == [
        "spec.yaml:5:9: `searchClient.search` was called, but the scenario does not stub it: add `searchClient.search: { returns: … }` to its `dependencies:`"
      ])
  }

  @Test func responsesAreUsedOnePerCallAndCallsAreChecked() async throws {
    let run = try await runSpec("""
      feature: Tally
      dependencies:
        searchClient.log: { returns: null }
      scenarios:
        - name: two searches
          dependencies:
            searchClient.search:
              responses: [{ returns: [a] }, { throws: offline }]
              calls: [swift, swiftui]
          steps:
            - send: { search: swift }
              state: { query: swift, isLoading: true }
            - receive: { response: { success: [a] } }
              state: { isLoading: false, results: [a] }
            - receive: logged
            - send: { search: vapor }
              state: { query: vapor, isLoading: true }
            - receive: { response: { failure: offline } }
              state: { isLoading: false, results: [] }
            - send: { search: again }
              state: { query: again, isLoading: true }
            - receive: .response
              state: { isLoading: false }
      """)
    #expect(
      failures(run.results[0], in: run.file) == [
        "spec.yaml:20:9: `searchClient.search` was called 3 times, but its stub gives 2 responses: add a response for each call (a single response, not in a list, answers every call)",
        """
        spec.yaml:9:9: `searchClient.search` was not called with the inputs that `calls` lists: …

            \u{2007} [
            \u{2007}   [0]: "swift",
            −   [1]: "swiftui",
            +   [1]: "vapor",
            +   [2]: "again"
            \u{2007} ]

        (Expected: −, Actual: +)
        """,
      ])
  }

  @Test func valueStubsGiveOneValuePerUse() async throws {
    let run = try await runSpec("""
      feature: Tally
      scenarios:
        - name: rolls
          dependencies: { numbers: [4, 2] }
          steps:
            - send: roll
              state: { secret: 4 }
            - send: roll
              state: { secret: 2 }
            - send: roll
      """)
    #expect(
      failures(run.results[0], in: run.file) == [
        "spec.yaml:10:9: `numbers` was used 3 times, but the spec gives 2 values: give one value per use (a single value, not in a list, serves every use)"
      ])
  }

  @Test func unreceivedActionsFailAtTheEndAtTheScenario() async throws {
    let run = try await runSpec("""
      feature: Tally
      scenarios:
        - name: leaves a response
          dependencies: { searchClient.search: { returns: [] }, searchClient.log: { returns: null } }
          steps:
            - send: { search: x }
              state: { query: x, isLoading: true }
      """)
    #expect(
      failures(run.results[0], in: run.file) == [
        """
        spec.yaml:3:5: The store received 2 unexpected actions.

          Unhandled actions:
            .response(.success)
            .logged

        To fix, receive these actions with "receive:" steps, skip them with "skipReceivedActions: true", \
        or check less with "exhaustivity: off".
        """
      ])
  }

  @Test func outlinesRunOncePerRowWithTheirValues() async throws {
    let run = try await runSpec("""
      feature: Tally
      scenarios:
        - name: Typing "<text>" sets the count to <count>
          examples:
            - { text: "42", count: 42 }
            - { text: "-7", count: -7 }
          steps:
            - send: { setCount: <text> }
              state: { count: <count> }
      """)
    #expect(run.loaded.scenarios.map(\.name) == [#"Typing "42" sets the count to 42"#, #"Typing "-7" sets the count to -7"#])
    #expect(run.loaded.scenarios.map(\.id.row) == [0, 1])
    #expect(run.loaded.scenarios.map(\.location.line) == [5, 6])
    #expect(run.results.map(\.outcome) == [.passed, .passed])
  }

  @Test func exhaustivityOffChecksOnlyWhatIsStated() async throws {
    let run = try await runSpec("""
      feature: Tally
      scenarios:
        - name: only the results
          exhaustivity: off
          dependencies: { searchClient.search: { returns: [a] }, searchClient.log: { returns: null } }
          steps:
            - send: { search: x }
            - receive: .response
              state: { results: [a] }
      """)
    #expect(run.results[0].outcome == .passed)
  }

  @Test func aSkippedScenarioIsReportedWithItsReason() async throws {
    let run = try await runSpec("""
      feature: Tally
      scenarios:
        - name: later
          skip: Waiting for the design
          steps:
            - send: increment
      """)
    #expect(run.results[0].outcome == .skipped)
    #expect(run.results[0].skipReason == "Waiting for the design")
  }

  // MARK: - Validation

  @Test func everyProblemOfAFileIsReportedAtItsPlace() async throws {
    let run = try await runSpec("""
      feature: Tally
      scenarios:
        - name: one
          steps:
            - send: incremnt
              stat: { count: 1 }
            - send: increment
              receive: increment
            - state: { count: 1 }
            - advance: soon
        - name: one
          dependencies: { serchClient.search: { returns: [] }, numbers: many }
          steps:
            - receive: .respons
            - send: increment
              timeout: 1s
      """)
    #expect(run.results.isEmpty)
    #expect(
      errors(run.loaded) == [
        "spec.yaml:5:15: error: unknown case `incremnt` for Tally.Action; did you mean `increment`?",
        "spec.yaml:6:9: error: unknown key `stat` in a step; did you mean `state`?",
        "spec.yaml:8:9: error: a step has one kind, but this one has 2: `send`, `receive`; write one step for each",
        "spec.yaml:9:9: error: this step has `state` but no kind: write one of `send`, `receive`, `advance`, `dependencies`, `skipReceivedActions`, `skipInFlightEffects`, `finish`, `assert`, `cancel`, `emit`, `close`, `exhaustivity`",
        "spec.yaml:10:18: error: expected a duration (`300ms`, `1.5s`, `2m`, or a number of seconds) for `advance`, found the string \"soon\"",
        "spec.yaml:11:11: error: duplicate scenario name `one` (first at 3:11); scenario names are unique in a file",
        "spec.yaml:12:21: error: unknown dependency `serchClient.search` for Tally; did you mean `searchClient.search`?; it stubs `numbers`, `searchClient.search`, `searchClient.log`, `uuid`, `date`, `random`, `locale`, `timeZone`, `calendar`, `clock`",
        "spec.yaml:12:67: error: expected Int for `numbers`, found the string \"many\"",
        "spec.yaml:14:18: error: unknown case `respons` for Tally.Action in the case path `.respons`; did you mean `response`?; the cases of Tally.Action are `increment`, `decrement`, `setCount`, `roll`, `search`, `response`, `logged`",
        "spec.yaml:16:9: error: `timeout` goes with `receive` or `finish`, not with `send`",
      ])
  }

  @Test func anUnknownFeatureIsNamedWithTheClosestOne() async throws {
    let run = try await runSpec("""
      feature: Taly
      scenarios:
        - name: one
          steps:
            - send: increment
      """)
    #expect(errors(run.loaded) == ["spec.yaml:1:10: error: unknown feature `Taly`; did you mean `Tally`?; the registered features are `Tally`"])
  }

  @Test func aPlaceholderNoRowDefinesIsAnError() async throws {
    let run = try await runSpec("""
      feature: Tally
      scenarios:
        - name: Typing <text>
          examples:
            - { text: "42" }
          steps:
            - send: { setCount: <text> }
              state: { count: <cont> }
      """)
    #expect(
      errors(run.loaded) == [
        "spec.yaml:8:25: error: the placeholder `<cont>` is not defined by the example row (every row of `examples` gives a value for each placeholder)"
      ])
  }

  /// Each segment of a `receive:` case path names a case of the enum that the case before
  /// it holds: a misspelt segment is an error when the file is read, at the segment, with
  /// the cases it could be.
  @Test func aMisspeltSegmentOfACasePathIsAnErrorAtTheSegment() async throws {
    let run = try await runSpec("""
      feature: Tally
      scenarios:
        - name: one
          steps:
            - send: { search: x }
            - receive: .response.sucess
            - receive: .logged.again
            - receive: .response.success
      """)
    #expect(run.results.isEmpty)
    #expect(
      errors(run.loaded) == [
        "spec.yaml:6:28: error: unknown case `sucess` for TaskResult<Array<String>> in the case path `.response.sucess`; did you mean `success`?; the cases of TaskResult<Array<String>> are `success`, `failure`",
        "spec.yaml:7:26: error: the case `logged` of Tally.Action has no value, so the case path `.logged.again` cannot go on past it: end it at `.logged`",
      ])
  }

  /// A binding action of a field that is not bindable names the field and the bindable
  /// fields, in a `send:` and in a `receive:` case path.
  @Test func aMisspeltBindableFieldIsNamedWithTheBindableFields() async throws {
    let run = try await runSpec(
      """
      feature: Roster
      scenarios:
        - name: one
          dependencies: { uuid: incrementing }
          steps:
            - send: addButtonTapped
            - send: { members: { element: { id: 0, action: { binding: { isFavorit: true } } } } }
            - receive: .members.element
            - receive: .destination.presented.addMember.delegate.saveMembr
      """, features: [rosterFeature])
    #expect(
      errors(run.loaded) == [
        "spec.yaml:7:67: error: unknown bindable field `isFavorit` for Roster.Action.members.element.action.binding; did you mean `isFavorite`?; the bindable fields of RosterMember.State are `name`, `isFavorite`",
        "spec.yaml:9:60: error: unknown case `saveMembr` for AddMember.Action.Delegate in the case path `.destination.presented.addMember.delegate.saveMembr`; did you mean `saveMember`?; the cases of AddMember.Action.Delegate are `saveMember`",
      ])
    let member = Feature("Member", initialState: RosterMember.State(id: UUID(uuidString: "00000000-0000-0000-0000-000000000000")!, name: "Blob")) { RosterMember() }
    let path = try await runSpec(
      """
      feature: Member
      scenarios:
        - name: one
          steps:
            - send: { binding: { isFavorite: true } }
            - receive: .binding.isFavorit
      """, features: [member])
    #expect(
      errors(path.loaded) == [
        "spec.yaml:6:27: error: unknown bindable field `isFavorit` in the case path `.binding.isFavorit`; did you mean `isFavorite`?; the bindable fields of RosterMember.State are `name`, `isFavorite`"
      ])
  }

  /// A step that sends an action to an element that is not there fails with TCA's message,
  /// the action shown whole, with the id that is missing, where TCA abbreviates it to
  /// `.element(id:, action:)`.
  @Test func anActionForAMissingElementShowsItsID() async throws {
    let run = try await runSpec(
      """
      feature: Roster
      scenarios:
        - name: one
          steps:
            - send: { members: { element: { id: 00000000-0000-0000-0000-000000000007, action: { binding: { isFavorite: true } } } } }
      """, features: [rosterFeature])
    let failures = failures(run.results[0], in: run.loaded.file)
    #expect(failures.count == 1)
    #expect(
      failures.first?.hasPrefix(
        """
        spec.yaml:5:9: A "forEach" at "SpecFixtures/Roster.swift:
        """) == true)
    #expect(
      failures.first?.contains(
        """
        received an action for a missing element.

          Action:
            Roster.Action.members(
              .element(
                id: UUID(00000000-0000-0000-0000-000000000007),
                action: .binding(.set(\\.isFavorite, true))
              )
            )

        This is generally considered an application logic error
        """) == true, "\(failures)")
  }

  /// With `exhaustivity: { off: { showSkippedAssertions: true } }`, a `state:` path that the
  /// state after the step has but the state before it had not (a field of a destination
  /// that the step presents) passes, as TCA's non-exhaustive assertion does, and what it
  /// could not check against the state before is a note; exhaustively, it is an error.
  @Test func aPathIntoAPresentedDestinationPassesNonExhaustively() async throws {
    func spec(_ exhaustivity: String) -> String {
      """
      feature: Roster
      scenarios:
        - name: one
          exhaustivity: \(exhaustivity)
          steps:
            - send: clearButtonTapped
              state: { destination.alert.title: Remove everyone? }
      """
    }
    let off = try await runSpec(spec("{ off: { showSkippedAssertions: true } }"), features: [rosterFeature])
    #expect(off.loaded.errors.isEmpty)
    #expect(off.results.map(\.outcome) == [.passed])
    #expect(failures(off.results[0], in: off.file) == [])
    let notes = (off.results[0].notes ?? []).map {
      "\($0.location)".replacingOccurrences(of: off.file, with: "spec.yaml") + ": " + $0.message
    }
    #expect(
      notes == [
        """
        spec.yaml:6:9: A state change does not match expectation.

            \u{2007} Roster.State(
            \u{2007}   members: [],
            −   _destination: nil,
            +   _destination: .alert(
            +     AlertState(
            +       title: "Remove everyone?",
            +       message: nil,
            +       buttons: [
            +         [0]: ButtonState(
            +           label: "Remove",
            +           role: .destructive,
            +           action: .confirmClear
            +         ),
            +         [1]: ButtonState(
            +           label: "Cancel",
            +           role: .cancel,
            +           action: nil
            +         )
            +       ]
            +     )
            +   ),
            \u{2007}   path: [:]
            \u{2007} )

        (Expected: −, Actual: +)
        """
      ])
    let on = try await runSpec(spec("on"), features: [rosterFeature])
    #expect(on.results.map(\.outcome) == [.failed])
    #expect(
      failures(on.results[0], in: on.file) == [
        "spec.yaml:7:30: cannot set `destination.alert.title`: `destination` is nil, so it has no field `alert`"
      ])
  }
}
