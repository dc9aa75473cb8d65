import Foundation
import SpecFixtures
import Testing

@testable import SpecRunner

/// Shared state in specs, on the `Sharing` fixture: a reader checked against its key, seeds
/// of each storage, and scenarios that never see each other's values.
@MainActor @Suite struct SharedStateSpecTests {
  func failures(_ run: (file: String, loaded: LoadedFile, results: [ScenarioResult])) -> [[String]] {
    run.results.map { result in
      result.failures.map {
        "\($0.location)".replacingOccurrences(of: run.file, with: "spec.yaml") + ": " + $0.message
      }
    }
  }

  @Test func eachScenarioStartsFromEmptyStoragesAndSeedsAreReadByTheirKeys() async throws {
    let run = try await runSpec(
      """
      feature: Sharing
      scenarios:
        - name: counts
          steps:
            - send: increment
              state: { count: 1 }
        - name: starts again from 0
          steps:
            - send: increment
              state: { count: 1 }
        - name: seeded
          shared:
            inMemory: { count: 41 }
            fileStorage: { /tmp/sharing/notes.json: [a] }
          steps:
            - assert: { count: 41, notes: [a] }
            - send: { note: b }
              state: { notes: [a, b] }
        - name: set through the key by the initial state
          initialState: { count: 5 }
          steps:
            - assert: { count: 5 }
      """, features: [sharingFeature])
    #expect(run.loaded.errors.isEmpty)
    #expect(failures(run) == [[], [], [], []])
    #expect(!FileManager.default.fileExists(atPath: "/tmp/sharing/notes.json"))
  }

  @Test func aFileWithoutANameIsAnErrorAtItsKey() async throws {
    let run = try await runSpec(
      """
      feature: Sharing
      shared:
        fileStorage: { "": [a] }
      scenarios:
        - name: a file without a name
          steps:
            - assert: { notes: [] }
      """, features: [sharingFeature])
    #expect(
      run.loaded.errors.map { $0.description.replacingOccurrences(of: run.file, with: "spec.yaml") } == [
        "spec.yaml:3:18: error: a file of `shared.fileStorage` needs a name (`\"sync-ups.json\"`)"
      ])
  }

  @Test func aReaderIsCheckedAgainstItsKeysValue() async throws {
    let run = try await runSpec(
      """
      feature: Sharing
      scenarios:
        - name: a reader set apart from its key
          steps:
            - send: increment
              state: { count: 1, seen: 2 }
      """, features: [sharingFeature])
    #expect(
      failures(run) == [
        [
          "spec.yaml:5:9: cannot decode Sharing.State: `seen` follows its key (`@SharedReader`) and cannot be set: leave it out, and set the field that writes the key, or the key's value with `shared:`",
          """
          spec.yaml:5:9: A state change does not match expectation.

              \u{2007} Sharing.State(
              −   _count: 0,
              +   _count: 1,
              \u{2007}   _seen: Int(↩︎),
              \u{2007}   _notes: []
              \u{2007} )

          (Expected: −, Actual: +)
          """,
        ]
      ])
  }

  @Test func aSharedChangeLeftUnassertedFailsAtItsStep() async throws {
    let run = try await runSpec(
      """
      feature: Sharing
      scenarios:
        - name: forgets the count
          steps:
            - send: increment
      """, features: [sharingFeature])
    #expect(
      failures(run) == [
        [
          """
          spec.yaml:5:9: State was not expected to change, but a change occurred.

              \u{2007} Sharing.State(
              −   _count: 0,
              +   _count: 1,
              \u{2007}   _seen: Int(↩︎),
              \u{2007}   _notes: []
              \u{2007} )

          (Expected: −, Actual: +)
          """
        ]
      ])
  }
}
