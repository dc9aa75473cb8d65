import Foundation
import SpecRunner
import Testing

/// One scenario of a spec file (one example row of an outline), or a spec file that
/// cannot run, as a Swift Testing test case: see ``SpecSuite``.
public struct SpecScenario: Sendable, Identifiable, CustomTestStringConvertible, CustomStringConvertible {
  /// What a test case runs.
  enum Kind: Sendable {
    /// A scenario, and where it is written (its `name:`, or its example row).
    case scenario(ScenarioID, FileLocation)
    /// A file that cannot run, and why.
    case fileErrors([SpecFileError])
  }

  /// The spec file's path as ``SpecSuite/scenarios(in:features:relativeTo:)`` was given it
  /// (a directory's files joined to the directory as written).
  public let file: String
  /// The scenario's name as the JUnit report has it: an outline's placeholders filled in,
  /// equal names in a file told apart with ` (2)`, ` (3)`…; the file's path for a file
  /// that cannot run.
  public let name: String
  let kind: Kind
  let suite: SuiteEngine

  init(file: String, name: String, kind: Kind, suite: SuiteEngine) {
    self.file = file
    self.name = name
    self.kind = kind
    self.suite = suite
  }

  /// `specs/counter.yaml › Incrementing counts up`: unique within a suite, so that Swift
  /// Testing can tell the test cases apart.
  public var id: String { description }

  public var description: String { "\(file) › \(name)" }

  public var testDescription: String { description }

  /// The file's errors, when this is a file that cannot run.
  public var fileErrors: [SpecFileError] {
    if case .fileErrors(let errors) = kind { return errors }
    return []
  }

  /// Runs the scenario in this process and returns its result, recording nothing. For a
  /// file that cannot run, an `.error` result without failures: see ``fileErrors``.
  public func result() async -> ScenarioResult {
    switch kind {
    case .scenario(let id, _):
      return await suite.run(id)
    case .fileErrors(let errors):
      let location = errors.first?.location ?? FileLocation(file: file, line: 0, column: 0)
      return ScenarioResult(
        id: ScenarioID(file: location.file, scenario: 0), name: name, location: location, tags: [],
        outcome: .error, duration: 0, errorMessage: errors.first?.message)
    }
  }

  /// Runs the scenario and records each failure as a Swift Testing issue at its step's
  /// line and column in the spec file, its comment the console report's text for it (the
  /// message, the source line, a caret, and for a state or action mismatch the diff and its
  /// legend). A file that cannot run records each of its errors at its place.
  ///
  /// A scenario with `skip:` passes, with a warning (an issue of severity `.warning`) that
  /// gives the reason: Swift Testing cannot mark a test case skipped once it runs.
  public func run() async {
    for issue in await issues() {
      Issue.record(Comment(rawValue: issue.text), severity: issue.isWarning ? .warning : .error,
        sourceLocation: issue.location.sourceLocation)
    }
  }

  /// What ``run()`` records, in order; shared with the XCTest helper.
  func issues() async -> [SpecIssue] {
    if case .fileErrors(let errors) = kind {
      return errors.map { SpecIssue(location: $0.location, text: $0.reportText, isWarning: false) }
    }
    let result = await result()
    var issues = result.failures.map { SpecIssue(location: $0.location, text: $0.reportText, isWarning: false) }
    switch result.outcome {
    case .passed, .failed:
      break
    case .skipped:
      let reason = result.skipReason.map { ": \($0)" } ?? ""
      issues.append(SpecIssue(location: result.location, text: "Skipped\(reason)", isWarning: true))
    case .error:
      issues.append(
        SpecIssue(
          location: result.location, text: result.errorMessage ?? "The scenario did not finish.", isWarning: false))
    }
    // What was noted without failing (`showSkippedAssertions`).
    for note in result.notes ?? [] {
      issues.append(SpecIssue(location: note.location, text: note.message, isWarning: true))
    }
    return issues
  }
}

/// One issue a scenario records: a failure, or a warning (a skip, a note).
struct SpecIssue: Sendable {
  var location: FileLocation
  var text: String
  var isWarning: Bool
}

extension FileLocation {
  /// The location for Swift Testing: the spec file's absolute path, the line and column
  /// (at least 1: a file-wide error is on the first line).
  var sourceLocation: SourceLocation {
    let path = absolutePath
    let url = URL(fileURLWithPath: path)
    let fileID = url.deletingLastPathComponent().lastPathComponent + "/" + url.lastPathComponent
    return SourceLocation(fileID: fileID, filePath: path, line: max(line, 1), column: max(column, 1))
  }

  /// The file's path, made absolute against the current directory when it is relative.
  var absolutePath: String {
    if file.hasPrefix("/") { return file }
    let directory = FileManager.default.currentDirectoryPath
    return directory.hasSuffix("/") ? directory + file : directory + "/" + file
  }
}
