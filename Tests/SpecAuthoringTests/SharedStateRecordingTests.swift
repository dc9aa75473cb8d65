import Foundation
import SpecFixtures
import SpecRunner
import Testing
import TestSupport

@testable import SpecAuthoring

/// `record` on states that hold shared values: each step's `state:` says the shared values
/// that changed as the test store checks them (an effect's change at the `receive:` that
/// follows it), and leaves out the fields that only read a key.
@MainActor @Suite struct SharedStateRecordingTests {
  func recorded(_ text: String) async throws -> String {
    let spec = try TemporaryFile(Array(text.utf8))
    let recorded = await SpecRecorder.record(
      spec.path, filter: nil, engine: SpecEngine(features: [sharingFeature]), onScenario: {}, onStep: { _ in })
    #expect(recorded.errors == "")
    return String(decoding: recorded.rewritten ?? Array(text.utf8), as: UTF8.self)
  }

  /// Each scenario's failures, when the spec is run.
  func failuresOfARun(_ text: String) async throws -> [[String]] {
    let spec = try TemporaryFile(Array(text.utf8))
    let engine = SpecEngine(features: [sharingFeature])
    let loaded = engine.load(files: [spec.path])[0]
    #expect(loaded.errors.map(\.message) == [])
    var failures: [[String]] = []
    for scenario in loaded.scenarios {
      failures.append(await engine.run(scenario.id, timeout: .seconds(60)) { _ in }.failures.map(\.message))
    }
    return failures
  }

  @Test func aReceiveTakesTheSharedChangesOfTheEffectsBeforeItAndReadersAreLeftOut() async throws {
    let rewritten = try await recorded(
      """
      feature: Sharing
      scenarios:
        - name: counted by an effect
          steps:
            - send: increment
            - send: { countThenNote: done }
            - receive: { note: done }

      """)
    #expect(
      rewritten == """
        feature: Sharing
        scenarios:
          - name: counted by an effect
            steps:
              - send: increment
                state: { count: 1 }
              - send: { countThenNote: done }
              - receive: { note: done }
                state: { count: 2, notes: [done] }

        """)
    #expect(try await failuresOfARun(rewritten) == [[]])
  }
}
