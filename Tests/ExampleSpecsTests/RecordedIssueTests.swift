import ExampleFeatureRegistry
import Foundation
import SpecTesting
import Testing

/// A failing spec, a skipped scenario and a file that cannot run, under Tests/Fixtures: what
/// `SpecScenario.run()` records, its place in the YAML and its text exactly.
@Suite struct RecordedIssueTests {
  static let directory = FileManager.default.currentDirectoryPath + "/Tests/Fixtures/spectesting"

  /// The issues that `body` records, each expected (so that the test passes).
  static func recordedIssues(_ body: () async -> Void) async -> [Issue] {
    let issues = Recorded()
    await withKnownIssue {
      await body()
    } matching: { issue in
      issues.append(issue)
      return true
    }
    return issues.all
  }

  /// The issues seen so far (the matcher is `@Sendable`).
  final class Recorded: @unchecked Sendable {
    private let lock = NSLock()
    private var issues: [Issue] = []
    func append(_ issue: Issue) { lock.withLock { issues.append(issue) } }
    var all: [Issue] { lock.withLock { issues } }
  }

  @Test func theScenariosOfAFileAreNamedAsInTheJUnitReport() {
    let scenarios = SpecSuite.scenarios(in: "Tests/Fixtures/spectesting/wrong-count.yaml", features: exampleFeatures)
    #expect(
      scenarios.map(\.testDescription) == [
        "Tests/Fixtures/spectesting/wrong-count.yaml › Incrementing twice is expected to give three",
        "Tests/Fixtures/spectesting/wrong-count.yaml › Not written yet",
      ])
  }

  @Test func aFailedStepIsRecordedAtItsLineWithTheConsoleReportsText() async throws {
    let scenario = try #require(
      SpecSuite.scenarios(in: "Tests/Fixtures/spectesting/wrong-count.yaml", features: exampleFeatures).first)
    let issues = await Self.recordedIssues { await scenario.run() }
    try #require(issues.count == 1)
    let location = try #require(issues[0].sourceLocation)
    #expect(location.filePath == Self.directory + "/wrong-count.yaml")
    #expect(location.fileID == "spectesting/wrong-count.yaml")
    #expect(location.line == 9)
    #expect(location.column == 9)
    #expect(issues[0].severity == .error)
    #expect(
      issues[0].comments.map(\.rawValue) == [
        """
        A state change does not match expectation.
              - send: increment
                ^

            \u{2007} Counter.State(
            −   count: 3,
            +   count: 2,
            \u{2007}   secret: 0
            \u{2007} )

        (Expected: −, Actual: +)
        """
      ])
  }

  @Test func aSkippedScenarioPassesWithAWarningThatGivesItsReason() async throws {
    let scenario = try #require(
      SpecSuite.scenarios(in: "Tests/Fixtures/spectesting/wrong-count.yaml", features: exampleFeatures).last)
    let issues = await Self.recordedIssues { await scenario.run() }
    try #require(issues.count == 1)
    #expect(issues[0].severity == .warning)
    #expect(issues[0].comments.map(\.rawValue) == ["Skipped: waiting for the design"])
    #expect(issues[0].sourceLocation?.line == 12)
  }

  @Test func aFileThatCannotRunIsOneTestCaseThatRecordsItsErrors() async throws {
    let scenarios = SpecSuite.scenarios(
      in: "Tests/Fixtures/spectesting/unknown-feature.yaml", features: exampleFeatures)
    try #require(scenarios.count == 1)
    #expect(
      scenarios[0].testDescription
        == "Tests/Fixtures/spectesting/unknown-feature.yaml › Tests/Fixtures/spectesting/unknown-feature.yaml")
    let issues = await Self.recordedIssues { await scenarios[0].run() }
    try #require(issues.count == 1)
    #expect(issues[0].sourceLocation?.filePath == Self.directory + "/unknown-feature.yaml")
    #expect(issues[0].sourceLocation?.line == 2)
    #expect(issues[0].sourceLocation?.column == 10)
    #expect(issues[0].comments.first?.rawValue.hasPrefix("unknown feature `Countr`") == true)
  }

  @Test func aPathThatDoesNotExistIsOneTestCaseThatSaysSo() async throws {
    let scenarios = SpecSuite.scenarios(in: "Tests/Fixtures/spectesting/nothing-here", features: exampleFeatures)
    try #require(scenarios.count == 1)
    let issues = await Self.recordedIssues { await scenarios[0].run() }
    #expect(
      issues.map { $0.comments.map(\.rawValue) } == [
        ["no such file or directory: '\(Self.directory)/nothing-here'"]
      ])
  }

  @Test func aPathIsResolvedAgainstTheGivenDirectory() {
    let root = SpecSuite.packageDirectory()
    #expect(root == FileManager.default.currentDirectoryPath)
    let scenarios = SpecSuite.scenarios(in: "specs/counter.yaml", features: exampleFeatures, relativeTo: root)
    #expect(scenarios.count > 1)
    #expect(scenarios.allSatisfy { $0.file == "specs/counter.yaml" && $0.fileErrors.isEmpty })
  }
}
