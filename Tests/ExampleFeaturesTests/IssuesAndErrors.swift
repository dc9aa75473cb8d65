import Foundation
import IssueReporting
import TestSupport
import Testing

// MARK: - Errors

/// An error with a message, as a failing endpoint throws it.
struct TestError: LocalizedError, Equatable {
  var message: String

  init(_ message: String) {
    self.message = message
  }

  var errorDescription: String? { message }
}

// MARK: - Issues

/// Runs `body` with the issues it reports collected, and returns their messages.
///
/// Create the store inside `body`, so that its end-of-test checks are collected too.
@MainActor
func collectIssues(_ body: @MainActor () async -> Void) async -> [String] {
  let collector = IssueCollector()
  await withIssueReporters([collector]) {
    await body()
  }
  return collector.issues.map(\.message)
}
