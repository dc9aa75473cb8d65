import ReducerCore

// MARK: - Feature

/// A stopwatch whose timer ticks every second while it runs, and which records a lap each time
/// the user takes a screenshot, for as long as the screen is shown.
///
/// Two effects outlive the action that starts them: the timer, which runs until the toggle
/// stops it (cancel id `timer`), and the screen's `task`, which listens to
/// ``ScreenshotsClient/screenshots`` until the view goes away and cancels it.
///
/// ```swift
/// let clock = TestClock()
/// let (screenshots, continuation) = AsyncStream<Void>.makeStream()
/// let store = TestStore(initialState: Stopwatch.State()) {
///   Stopwatch()
/// } withDependencies: {
///   $0.continuousClock = clock
///   $0.screenshots.screenshots = { screenshots }
/// }
/// let task = await store.send(.task)
/// await store.send(.toggleButtonTapped) { $0.isRunning = true }
/// await clock.advance(by: .seconds(1))
/// await store.receive(.timerTicked) { $0.secondsElapsed = 1 }
/// continuation.yield()
/// await store.receive(.screenshotTaken) { $0.laps = [1] }
/// await store.send(.toggleButtonTapped) { $0.isRunning = false }
/// await task.cancel()
/// ```
///
/// Registered with `reducer-spec` as `Stopwatch`; its dependencies are ``ScreenshotsClient``
/// (`screenshots`, stubbed in a spec as `{ stream: open }`) and the continuous clock.
@Reducer
public struct Stopwatch {
  /// The time elapsed, the laps, and whether the timer runs.
  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    /// Whether the timer is running.
    public var isRunning = false
    /// The seconds counted since the last reset.
    public var secondsElapsed = 0
    /// The `secondsElapsed` of each screenshot taken, in order.
    public var laps: [Int] = []

    /// A state; `State()` is the feature's default state (stopped at zero, no laps).
    public init(isRunning: Bool = false, secondsElapsed: Int = 0, laps: [Int] = []) {
      self.isRunning = isRunning
      self.secondsElapsed = secondsElapsed
      self.laps = laps
    }
  }

  /// What the user does, the timer's ticks, and the screenshots.
  public enum Action: Codable, Equatable, Sendable {
    /// The screen appeared (SwiftUI's `.task`): listens to screenshots until the task is
    /// cancelled, sending `screenshotTaken` for each.
    case task
    /// A screenshot was taken: records `secondsElapsed` as a lap.
    case screenshotTaken
    /// Starts the timer, which ticks every second, or stops it.
    case toggleButtonTapped
    /// A second went by.
    case timerTicked
    /// Sets the time back to zero and forgets the laps; a running timer keeps running.
    case resetButtonTapped
  }

  private enum CancelID: Hashable, Sendable {
    case timer
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.screenshots) var screenshots

  /// The stopwatch's reducer.
  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .task:
        return .run { [screenshots] send in
          for await _ in await screenshots.screenshots() {
            await send(.screenshotTaken)
          }
        }

      case .screenshotTaken:
        state.laps.append(state.secondsElapsed)
        return .none

      case .toggleButtonTapped:
        state.isRunning.toggle()
        guard state.isRunning else {
          return .cancel(id: CancelID.timer)
        }
        return .run { [clock] send in
          while true {
            try await clock.sleep(for: .seconds(1))
            await send(.timerTicked)
          }
        }
        .cancellable(id: CancelID.timer, cancelInFlight: true)

      case .timerTicked:
        state.secondsElapsed += 1
        return .none

      case .resetButtonTapped:
        state.secondsElapsed = 0
        state.laps = []
        return .none
      }
    }
  }
}

// MARK: - Dependency

/// Tells when the user takes a screenshot: `screenshots` in `DependencyValues`.
///
/// The live value is a demo: a stream that stays open and never yields, as there is no screen
/// to take a screenshot of (an app would map `UIApplication.userDidTakeScreenshotNotification`
/// into it). In tests it is unimplemented: a call reports an issue and returns a finished
/// stream.
@DependencyClient
public struct ScreenshotsClient: Sendable {
  /// A stream that yields once per screenshot taken, for as long as it is iterated.
  public var screenshots: @Sendable () async -> AsyncStream<Void> = { AsyncStream { $0.finish() } }
}

extension ScreenshotsClient: DependencyKey {
  /// A stream that stays open and never yields; it ends when its listener is cancelled.
  public static let liveValue = ScreenshotsClient(screenshots: {
    AsyncStream { continuation in
      // Holds on to the continuation until the stream ends, so that it stays open.
      continuation.onTermination = { _ in _ = continuation }
    }
  })
  /// Unimplemented: a call reports an issue and returns a finished stream.
  public static let testValue = ScreenshotsClient()
}

extension DependencyValues {
  /// Tells when the user takes a screenshot (``ScreenshotsClient``).
  public var screenshots: ScreenshotsClient {
    get { self[ScreenshotsClient.self] }
    set { self[ScreenshotsClient.self] = newValue }
  }
}
