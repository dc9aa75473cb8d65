import Foundation
import IssueReporting
import ReducerCore
import TestSupport

/// Runs `body` with the issues it reports collected, and returns them.
@MainActor
func collectIssues(_ body: @MainActor () async -> Void) async -> [ReportedIssue] {
  let collector = IssueCollector()
  await withIssueReporters([collector]) {
    await body()
  }
  return collector.issues
}
