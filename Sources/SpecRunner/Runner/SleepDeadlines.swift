import Clocks
import Foundation

/// The deadlines of the sleeps that a scenario's effects and stubs start on its test clock,
/// for `reducer-spec record`: it advances the clock from one deadline to the next, so that it
/// sees when, within an `advance:`, each action arrived.
package final class SleepDeadlines: @unchecked Sendable {
  private let lock = NSLock()
  private var deadlines: [TestClock<Duration>.Instant] = []

  package init() {}

  func add(_ deadline: TestClock<Duration>.Instant) {
    lock.lock()
    defer { lock.unlock() }
    deadlines.append(deadline)
  }

  /// The earliest deadline after `now`, up to `end`; the deadlines up to `now` are dropped.
  package func next(after now: TestClock<Duration>.Instant, upTo end: TestClock<Duration>.Instant)
    -> TestClock<Duration>.Instant?
  {
    lock.lock()
    defer { lock.unlock() }
    deadlines.removeAll { $0 <= now }
    return deadlines.filter { $0 <= end }.min()
  }
}

/// A test clock that records the deadline of every sleep in ``SleepDeadlines``.
struct DeadlineRecordingClock: Clock {
  let base: TestClock<Duration>
  let deadlines: SleepDeadlines

  var now: TestClock<Duration>.Instant { base.now }
  var minimumResolution: Duration { base.minimumResolution }

  func sleep(until deadline: TestClock<Duration>.Instant, tolerance: Duration?) async throws {
    deadlines.add(deadline)
    try await base.sleep(until: deadline, tolerance: tolerance)
  }
}
