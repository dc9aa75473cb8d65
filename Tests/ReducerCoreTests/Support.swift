import Foundation
import IssueReporting
import ReducerCore

/// An issue reported through IssueReporting: its message and the line it points at.
struct Reported: Equatable, CustomStringConvertible {
  var message: String
  var line: UInt
  var isExpected = false

  var description: String { "\(isExpected ? "expected " : "")line \(line): \(message)" }
}

/// Collects every issue instead of failing the test, so tests can assert the exact text.
final class IssueCollector: IssueReporter, @unchecked Sendable {
  private let lock = NSLock()
  private var items: [Reported] = []

  var issues: [Reported] {
    lock.lock()
    defer { lock.unlock() }
    return items
  }

  func reportIssue(
    _ message: @autoclosure () -> String?, severity: IssueSeverity, fileID: StaticString, filePath: StaticString,
    line: UInt, column: UInt
  ) {
    let text = message() ?? ""
    lock.lock()
    items.append(Reported(message: text, line: line))
    lock.unlock()
  }

  func expectIssue(
    _ message: @autoclosure () -> String?, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) {
    let text = message() ?? ""
    lock.lock()
    items.append(Reported(message: text, line: line, isExpected: true))
    lock.unlock()
  }
}

/// Runs `body` with the issues it reports collected, and returns them.
@MainActor
func collectIssues(_ body: @MainActor () async -> Void) async -> [Reported] {
  let collector = IssueCollector()
  await withIssueReporters([collector]) {
    await body()
  }
  return collector.issues
}
