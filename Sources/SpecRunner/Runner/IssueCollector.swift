import Foundation
import IssueReporting
import SpecYAML

/// Collects the issues of one scenario as step failures.
///
/// The runner passes each YAML step's line and column to `TestStore` with the file ID
/// ``IssueCollector/specFileID``; issues reported with it are placed at that line and
/// column of the spec. Anything else reported while a step runs — an unimplemented
/// dependency, a stub called too often, an action sent to a case the state is not in — is
/// placed at the step that was running.
package final class IssueCollector: IssueReporter, @unchecked Sendable {
  /// The file ID that marks a location as a line and column of the spec file.
  package static let specFileID: StaticString = "reducer-spec/spec"

  let file: String
  let source: SourceFile?
  private let lock = NSLock()
  private var _failures: [StepFailure] = []
  private var _notes: [StepFailure] = []
  private var _current: FileLocation

  package init(file: String, source: SourceFile?, start: FileLocation) {
    self.file = file
    self.source = source
    self._current = start
  }

  var failures: [StepFailure] { lock.withLock { _failures } }
  /// What `TestStore` noted without failing: with `exhaustivity: { off: { showSkippedAssertions: true } }`,
  /// the assertions it skipped (reported as expected issues).
  var notes: [StepFailure] { lock.withLock { _notes } }

  /// The step that is running, where issues from outside the spec are placed.
  package var currentStep: FileLocation {
    get { lock.withLock { _current } }
    set { lock.withLock { _current = newValue } }
  }

  /// The action the running `send:` step sent, if it is one: a message about it can show it
  /// whole where `TestStore` abbreviates it.
  package var sentAction: Any? {
    get { lock.withLock { _sentAction } }
    set { lock.withLock { _sentAction = newValue } }
  }
  private var _sentAction: Any?

  /// Says a store's message as a spec's author acts on it (``SpecStore/messageForSpecs(_:sentAction:)``),
  /// given the action of the running `send:`.
  package var messages: @Sendable (_ message: String, _ sentAction: Any?) -> String {
    get { lock.withLock { _messages } }
    set { lock.withLock { _messages = newValue } }
  }
  private var _messages: @Sendable (String, Any?) -> String = { message, _ in message }

  package func record(_ message: String, at location: FileLocation) {
    let failure = StepFailure(
      location: location, message: messages(message, sentAction),
      sourceLine: location.line > 0 ? source?.line(location.line) : nil)
    lock.withLock { _failures.append(failure) }
  }

  package func reportIssue(
    _ message: @autoclosure () -> String?, severity: IssueSeverity, fileID: StaticString, filePath: StaticString,
    line: UInt, column: UInt
  ) {
    guard severity == .error else { return }
    record(message() ?? "Issue reported", at: location(fileID: fileID, line: line, column: column))
  }

  package func reportIssue(
    _ error: any Error, _ message: @autoclosure () -> String?, fileID: StaticString, filePath: StaticString,
    line: UInt, column: UInt
  ) {
    let text = message().map { "\($0): \(error)" } ?? "Caught error: \(error)"
    record(text, at: location(fileID: fileID, line: line, column: column))
  }

  package func expectIssue(
    _ message: @autoclosure () -> String?, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) {
    let location = location(fileID: fileID, line: line, column: column)
    let note = StepFailure(
      location: location, message: message() ?? "Issue expected",
      sourceLine: location.line > 0 ? source?.line(location.line) : nil)
    lock.withLock { _notes.append(note) }
  }

  package func expectIssue(
    _ error: any Error, _ message: @autoclosure () -> String?, fileID: StaticString, filePath: StaticString,
    line: UInt, column: UInt
  ) {}

  private func location(fileID: StaticString, line: UInt, column: UInt) -> FileLocation {
    if fileID.description == Self.specFileID.description {
      return FileLocation(file: file, line: Int(line), column: Int(column))
    }
    return currentStep
  }
}
