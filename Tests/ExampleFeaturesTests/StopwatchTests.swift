import Dependencies
import ExampleFeatures
import Foundation
import ReducerCore
import Testing

@MainActor
@Suite struct StopwatchTests {
  @Test func theTimerCountsTheSecondsUntilItIsStopped() async {
    let clock = TestClock()
    let store = TestStore(initialState: Stopwatch.State()) {
      Stopwatch()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.toggleButtonTapped) { $0.isRunning = true }
    await clock.advance(by: .seconds(1))
    await store.receive(.timerTicked) { $0.secondsElapsed = 1 }
    await clock.advance(by: .seconds(2))
    await store.receive(.timerTicked) { $0.secondsElapsed = 2 }
    await store.receive(.timerTicked) { $0.secondsElapsed = 3 }
    await store.send(.toggleButtonTapped) { $0.isRunning = false }
    #expect(store.effectsInFlight.isEmpty)
    await clock.advance(by: .seconds(5))
  }

  @Test func stoppingBetweenTwoTicksLosesThePartOfASecondCounted() async {
    let clock = TestClock()
    let store = TestStore(initialState: Stopwatch.State()) {
      Stopwatch()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.toggleButtonTapped) { $0.isRunning = true }
    await clock.advance(by: .milliseconds(1500))
    await store.receive(.timerTicked) { $0.secondsElapsed = 1 }
    await store.send(.toggleButtonTapped) { $0.isRunning = false }
    await store.send(.toggleButtonTapped) { $0.isRunning = true }
    await clock.advance(by: .milliseconds(999))
    await clock.advance(by: .milliseconds(1))
    await store.receive(.timerTicked) { $0.secondsElapsed = 2 }
    await store.send(.toggleButtonTapped) { $0.isRunning = false }
  }

  @Test func screenshotsRecordLapsWhileTheScreenIsShown() async {
    let clock = TestClock()
    let (screenshots, continuation) = AsyncStream<Void>.makeStream()
    let store = TestStore(initialState: Stopwatch.State()) {
      Stopwatch()
    } withDependencies: {
      $0.continuousClock = clock
      $0.screenshots.screenshots = { screenshots }
    }
    let task = await store.send(.task)
    continuation.yield()
    await store.receive(.screenshotTaken) { $0.laps = [0] }
    await store.send(.toggleButtonTapped) { $0.isRunning = true }
    await clock.advance(by: .seconds(2))
    await store.receive(.timerTicked) { $0.secondsElapsed = 1 }
    await store.receive(.timerTicked) { $0.secondsElapsed = 2 }
    continuation.yield()
    await store.receive(.screenshotTaken) { $0.laps = [0, 2] }
    await store.send(.toggleButtonTapped) { $0.isRunning = false }
    continuation.yield()
    await store.receive(.screenshotTaken) { $0.laps = [0, 2, 2] }
    await task.cancel()
  }

  @Test func cancellingTheTaskEndsTheStreamEffect() async {
    let terminated = LockIsolated(false)
    let (screenshots, continuation) = AsyncStream<Void>.makeStream()
    continuation.onTermination = { _ in terminated.setValue(true) }
    let store = TestStore(initialState: Stopwatch.State()) {
      Stopwatch()
    } withDependencies: {
      $0.screenshots.screenshots = { screenshots }
    }
    let task = await store.send(.task)
    #expect(store.effectsInFlight.count == 1)
    await task.cancel()
    #expect(store.effectsInFlight.isEmpty)
    #expect(terminated.value)
    // The stream is no longer listened to: a screenshot now sends nothing.
    continuation.yield()
  }

  @Test func theTaskEndsWhenTheStreamEnds() async {
    let (screenshots, continuation) = AsyncStream<Void>.makeStream()
    let store = TestStore(initialState: Stopwatch.State()) {
      Stopwatch()
    } withDependencies: {
      $0.screenshots.screenshots = { screenshots }
    }
    let task = await store.send(.task)
    continuation.yield()
    await store.receive(.screenshotTaken) { $0.laps = [0] }
    continuation.finish()
    await task.finish()
  }

  @Test func resetSetsTheTimeBackToZeroAndForgetsTheLaps() async {
    let store = TestStore(initialState: Stopwatch.State(secondsElapsed: 42, laps: [7, 30])) { Stopwatch() }
    await store.send(.resetButtonTapped) {
      $0.secondsElapsed = 0
      $0.laps = []
    }
  }

  @Test func resetWhileRunningKeepsTheTimerRunning() async {
    let clock = TestClock()
    let store = TestStore(initialState: Stopwatch.State()) {
      Stopwatch()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.toggleButtonTapped) { $0.isRunning = true }
    await clock.advance(by: .seconds(2))
    await store.receive(.timerTicked) { $0.secondsElapsed = 1 }
    await store.receive(.timerTicked) { $0.secondsElapsed = 2 }
    await store.send(.resetButtonTapped) { $0.secondsElapsed = 0 }
    await clock.advance(by: .seconds(1))
    await store.receive(.timerTicked) { $0.secondsElapsed = 1 }
    await store.send(.toggleButtonTapped) { $0.isRunning = false }
  }

  @Test func anUnstubbedScreenshotsStreamFailsNamingTheEndpoint() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: Stopwatch.State()) { Stopwatch() }
      await store.send(.task).finish()
    }
    #expect(issues == ["Unimplemented: 'ScreenshotsClient.screenshots'"])
  }

  @Test func codableShapes() throws {
    try expectRoundTrip(
      Stopwatch.State(isRunning: true, secondsElapsed: 3, laps: [1, 2]),
      json: #"{"isRunning":true,"laps":[1,2],"secondsElapsed":3}"#)
    #expect(try decode(Stopwatch.State.self, from: #"{"laps":[4]}"#) == Stopwatch.State(laps: [4]))
    #expect(try decode(Stopwatch.State.self, from: "{}") == Stopwatch.State())
    try expectRoundTrip(Stopwatch.Action.task, json: #"{"task":{}}"#)
    try expectRoundTrip(Stopwatch.Action.screenshotTaken, json: #"{"screenshotTaken":{}}"#)
    try expectRoundTrip(Stopwatch.Action.toggleButtonTapped, json: #"{"toggleButtonTapped":{}}"#)
    try expectRoundTrip(Stopwatch.Action.timerTicked, json: #"{"timerTicked":{}}"#)
    try expectRoundTrip(Stopwatch.Action.resetButtonTapped, json: #"{"resetButtonTapped":{}}"#)
  }
}
