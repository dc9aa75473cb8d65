import CustomDump
import Foundation
import IssueReporting
import ReducerCore
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
  static let specFileID: StaticString = "reducer-spec/spec"

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

  package func record(_ message: String, at location: FileLocation) {
    let failure = StepFailure(
      location: location, message: Self.withSentAction(sentAction, in: Self.forSpecs(message)),
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

  /// A message about an action for a missing element, with the action a step sent shown whole
  /// (`.element(id: 7, action: .toggle)`) where TCA's wording abbreviates it to its cases
  /// (`.element(id:, action:)`), which leaves out the id that is missing.
  static func withSentAction(_ action: Any?, in message: String) -> String {
    guard let action, message.contains("for a missing element.") else { return message }
    let abbreviated = "\n    \(debugCaseOutput(action))\n"
    guard message.contains(abbreviated) else { return message }
    let whole = String(customDumping: action).split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
    return message.replacingOccurrences(of: abbreviated, with: "\n\(whole)\n")
  }

  /// TestStore's advice for Swift tests, said the way a spec author acts on it.
  static func forSpecs(_ message: String) -> String {
    var message = message
    for (swift, spec) in adviceForSpecs where message.contains(swift) {
      message = message.replacingOccurrences(of: swift, with: spec)
    }
    return message
  }

  /// TestStore's words for a Swift test, and what a spec author does instead.
  private static let adviceForSpecs = [
    (
      TestStoreMessage.effectStillRunningAdvice,
      """
      To fix, make every effect that this action starts finish by the end of the scenario:

      • If an effect sleeps on a test clock, add an "advance:" step that moves the clock far enough \
      for it to wake up.

      • If an effect waits for a response held with "after:", add an "advance:" step past it.

      • If an effect is long-living (a timer, a stream), cancel it with a later action, or name the \
      send with "as:" and add a "cancel:" step for it.

      • If an effect only needs a moment, add a "finish: true" step.

      To leave the effects running unchecked, add a "skipInFlightEffects: true" step, or check less \
      with "exhaustivity: off".
      """
    ),
    (
      "but the test did not override it. Give it a value in the \"withDependencies\" closure of the test store.",
      "but the scenario does not stub it. Stub it under `dependencies:` (for example `uuid: incrementing`, "
        + "`date: 2024-05-01T09:00:00Z`, `random: { seed: 42 }`)."
    ),
    (
      "To fix, explicitly assert against these actions using \"store.receive\", skip these actions by performing "
        + "\"await store.skipReceivedActions()\", or consider using a non-exhaustive test store: "
        + "\"store.exhaustivity = .off\".",
      "To fix, receive these actions with \"receive:\" steps, skip them with \"skipReceivedActions: true\", or "
        + "check less with \"exhaustivity: off\"."
    ),
    (
      "configure this assertion with an explicit \"timeout\"",
      "give the step a \"timeout:\" of its own"
    ),
    (
      "try increasing the duration of this assertion's \"timeout\"",
      "give the step a longer \"timeout:\""
    ),
  ]
}
