import Clocks
import Dependencies
import Foundation
import IssueReporting

extension DependencyValues {
  /// Replaces `uuid`, `date`, `withRandomNumberGenerator`, `continuousClock` and
  /// `suspendingClock` with versions that report an issue naming the dependency when used.
  ///
  /// A ``TestStore`` calls it before its `withDependencies` closure runs, so that a reducer
  /// that uses one of them without an override fails the test, in debug and release builds
  /// alike. (swift-dependencies checks this only in debug builds.)
  public mutating func failOnUnimplementedBuiltIns() {
    uuid = UUIDGenerator {
      reportIssue(unimplementedMessage("uuid"))
      return UUID(uuidString: "DEADBEEF-DEAD-BEEF-DEAD-BEEFDEADBEEF")!
    }
    date = DateGenerator {
      reportIssue(unimplementedMessage("date"))
      return Date(timeIntervalSinceReferenceDate: 0)
    }
    withRandomNumberGenerator = WithRandomNumberGenerator(UnimplementedRandomNumberGenerator())
    continuousClock = ReportingClock(name: "continuousClock")
    suspendingClock = ReportingClock(name: "suspendingClock")
  }
}

/// The message of a dependency that was used without an override.
func unimplementedMessage(_ name: String) -> String {
  """
  Unimplemented: @Dependency(\\.\(name)) …

  The reducer or one of its effects used this dependency, but the test did not override it. \
  Give it a value in the "withDependencies" closure of the test store.
  """
}

/// A random number generator that reports its use (and then counts up, so it still works).
private struct UnimplementedRandomNumberGenerator: RandomNumberGenerator, Sendable {
  var state: UInt64 = 0

  mutating func next() -> UInt64 {
    reportIssue(unimplementedMessage("withRandomNumberGenerator"))
    state &+= 1
    return state
  }
}

/// A clock that reports its use, then behaves as an immediate clock.
private struct ReportingClock: Clock {
  let name: String
  let base = ImmediateClock<Duration>()

  var now: ImmediateClock<Duration>.Instant {
    reportIssue(unimplementedMessage(name))
    return base.now
  }

  var minimumResolution: Duration { base.minimumResolution }

  func sleep(until deadline: ImmediateClock<Duration>.Instant, tolerance: Duration?) async throws {
    reportIssue(unimplementedMessage(name))
    try await base.sleep(until: deadline, tolerance: tolerance)
  }
}
