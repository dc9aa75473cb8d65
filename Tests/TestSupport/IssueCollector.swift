import Foundation
import IssueReporting

/// An issue reported through IssueReporting: its message and the line it points at.
public struct ReportedIssue: Equatable, Sendable, CustomStringConvertible {
  public var message: String
  public var line: UInt
  /// Reported through `expectIssue` (`withExpectedIssue`) rather than as a failure.
  public var isExpected: Bool

  public init(message: String, line: UInt, isExpected: Bool = false) {
    self.message = message
    self.line = line
    self.isExpected = isExpected
  }

  public var description: String { "\(isExpected ? "expected " : "")line \(line): \(message)" }
}

/// Collects every issue reported while it is installed (`withIssueReporters([collector])`)
/// instead of failing the test, so that a test can assert the exact text.
public final class IssueCollector: IssueReporter, @unchecked Sendable {
  private let lock = NSLock()
  private var items: [ReportedIssue] = []

  public init() {}

  public var issues: [ReportedIssue] {
    lock.lock()
    defer { lock.unlock() }
    return items
  }

  public func reportIssue(
    _ message: @autoclosure () -> String?, severity: IssueSeverity, fileID: StaticString, filePath: StaticString,
    line: UInt, column: UInt
  ) {
    append(ReportedIssue(message: message() ?? "", line: line))
  }

  public func expectIssue(
    _ message: @autoclosure () -> String?, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) {
    append(ReportedIssue(message: message() ?? "", line: line, isExpected: true))
  }

  private func append(_ issue: ReportedIssue) {
    lock.lock()
    items.append(issue)
    lock.unlock()
  }
}
