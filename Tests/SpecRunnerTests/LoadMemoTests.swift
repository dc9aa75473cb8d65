import Foundation
import SpecFixtures
import Testing
import TestSupport

@testable import SpecRunner

/// An engine decodes each action and parses each state path once for all the files it
/// loads; what a file's loading reports must not depend on the files loaded before it.
@MainActor
@Suite struct LoadMemoTests {
  let first = """
    feature: Tally
    scenarios:
      - name: Counting
        steps:
          - send: increment
            state: { count: 1 }
          - send: { setCount: "7" }
            state: { count: 7 }
          - send: { setCount: "7" }
    """

  let second = """
    feature: Tally
    scenarios:
      - name: Counting again
        steps:
          - send: increment
            state: { count: 1 }
          - send: incremnt
          - send: { setCount: "7" }
            state: { count: 7, "a..b": 1 }
          - send: incremnt
          - send: { setCount: [7] }
            state: { "a..b": 2 }
      - name: Counting right
        steps:
          - send: { setCount: "7" }
            state: { count: 7 }
    """

  func describe(_ loaded: LoadedFile) -> [String] {
    loaded.errors.map { $0.description.replacingOccurrences(of: loaded.file, with: "spec.yaml") }
  }

  @Test func aFileReportsTheSameAfterOtherFiles() throws {
    let firstFile = try TemporaryFile(Array(first.utf8))
    let secondFile = try TemporaryFile(Array(second.utf8))
    let (firstPath, secondPath) = (firstFile.path, secondFile.path)
    let alone = SpecEngine(features: [tallyFeature]).load(files: [secondPath])[0]
    let engine = SpecEngine(features: [tallyFeature])
    let loaded = engine.load(files: [firstPath, secondPath])
    #expect(loaded[0].errors.isEmpty)
    #expect(loaded[0].scenarios.count == 1)
    #expect(describe(loaded[1]) == describe(alone))
    // Every bad action and path, each at its own line, though `increment` and the paths
    // were read before.
    let lines = loaded[1].errors.map(\.location.line)
    #expect(lines == [7, 9, 10, 11, 12])
    // And the engine's memo does not change a file that loads cleanly after them.
    let again = engine.load(files: [firstPath])[0]
    #expect(again.errors.isEmpty)
    withExtendedLifetime((firstFile, secondFile)) {}
  }

  @Test func aFileLoadsTheSameTwice() throws {
    let file = try TemporaryFile(Array(second.utf8))
    let engine = SpecEngine(features: [tallyFeature])
    let once = describe(engine.load(files: [file.path])[0])
    let other = try TemporaryFile(Array(second.utf8))
    let twice = engine.load(files: [other.path])[0]
    withExtendedLifetime((file, other)) {}
    #expect(describe(twice) == once)
    #expect(!once.isEmpty)
  }
}
