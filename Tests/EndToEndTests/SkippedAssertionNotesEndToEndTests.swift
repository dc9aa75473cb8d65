import Foundation
import Testing

/// `exhaustivity: { off: { showSkippedAssertions: true } }`: what `TestStore` skipped is
/// reported as notes under the scenario, which still passes, and as JUnit `<system-out>`.
@Suite(.serialized) struct SkippedAssertionNotesEndToEndTests {
  @Test func skippedAssertionsAreNotesOnTheConsoleAndInJUnit() async throws {
    let junit = FileManager.default.temporaryDirectory.appendingPathComponent("notes-\(UUID().uuidString).xml")
    defer { try? FileManager.default.removeItem(at: junit) }
    let run = try await BuiltCommand.run(
      ["Tests/Fixtures/notes/skipped.yaml", "--junit", junit.path], executable: ReducerSpecEndToEndTests.fixtures)
    #expect(run.status == 0)
    let console = run.stdout.replacingOccurrences(of: "\u{2007}", with: "·")
      .replacingOccurrences(of: #"\([0-9.]+s\)"#, with: "(TIME)", options: .regularExpression)
    #expect(
      console == """
        Tests/Fixtures/notes/skipped.yaml
          ✓ Skipped assertions are notes (TIME)
            Tests/Fixtures/notes/skipped.yaml:9:9: note: Skipped receiving Checklist.Action.tick
            Tests/Fixtures/notes/skipped.yaml:9:9: note: Skipped receiving Checklist.Action.tick
            Tests/Fixtures/notes/skipped.yaml:10:9: note: A state change does not match expectation.

                  · Checklist.State(
                  ·   items: [
                  +     [0]: Checklist.Item(
                  +       id: UUID(00000000-0000-0000-0000-000000000000),
                  +       title: "Milk",
                  +       isDone: false
                  +     )
                  ·   ],
                  ·   screenshots: 0,
                  ·   messages: [],
                  ·   seconds: 2
                  · )

              (Expected: −, Actual: +)

        1 passed, 0 failed, 0 skipped

        """)
    let xml = try String(contentsOf: junit, encoding: .utf8)
    #expect(xml.contains("<system-out>Tests/Fixtures/notes/skipped.yaml:9:9: note: Skipped receiving Checklist.Action.tick\n\n"))
    #expect(xml.contains("failures=\"0\""))
    try await JUnitSchema.validate(junit.path)
  }
}
