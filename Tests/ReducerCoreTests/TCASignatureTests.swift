import CasePaths
import Clocks
import Dependencies
import ReducerCore
import TestSupport
import Testing

/// TestStore's public signatures are TCA's: a test helper written for TCA's TestStore, which
/// forwards its caller's location with TCA's labels (`fileID:file:line:column:`), compiles
/// against this one unchanged. Each entry point is called here with the full label set, so
/// the compiler checks the labels and their order, and the tests check that the location
/// given is the one failures are reported at.
@MainActor
@Suite struct TCASignatureTests {
  /// A helper as it would be written for TCA: the store, and the caller's location passed on.
  func makeStore(
    clock: any Clock<Duration> = ImmediateClock(),
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> TestStoreOf<Counter> {
    TestStore(
      initialState: Counter.State(),
      reducer: { Counter() },
      withDependencies: { $0.continuousClock = clock },
      fileID: fileID, file: filePath, line: line, column: column)
  }

  @Test func everyEntryPointTakesTCAsLabels() async {
    let issues = await collectIssues {
      let store = makeStore(fileID: #fileID, file: #filePath, line: #line, column: #column)
      store.exhaustivity = .on
      store.timeout = .seconds(60)

      await store.send(.increment, assert: { $0.count = 1 }, fileID: #fileID, file: #filePath, line: #line, column: #column)
      await store.send(\.setCount, "5", assert: { $0.count = 5 }, fileID: #fileID, file: #filePath, line: #line, column: #column)
      await store.send(\.decrement, assert: { $0.count = 4 }, fileID: #fileID, file: #filePath, line: #line, column: #column)

      await store.send(.incrementLater, fileID: #fileID, file: #filePath, line: #line, column: #column)
      await store.receive(
        .incremented, timeout: .seconds(60), assert: { $0.count = 5 }, fileID: #fileID, file: #filePath, line: #line,
        column: #column)
      await store.send(.incrementLater)
      await store.receive(
        \.incremented, timeout: .seconds(60), assert: { $0.count = 6 }, fileID: #fileID, file: #filePath, line: #line,
        column: #column)
      await store.send(.incrementLater)
      await store.receive(
        { $0 == .incremented }, timeout: .seconds(60), assert: { $0.count = 7 }, fileID: #fileID, file: #filePath,
        line: #line, column: #column)

      let loader = TestStore(
        initialState: 0, reducer: { Loader.reducer }, withDependencies: { _ in }, fileID: #fileID, file: #filePath,
        line: #line, column: #column)
      await loader.send(.load)
      await loader.receive(
        \.loaded, 42, timeout: .seconds(60), assert: { $0 = 42 }, fileID: #fileID, file: #filePath, line: #line,
        column: #column)

      store.assert({ $0.count = 7 }, fileID: #fileID, file: #filePath, line: #line, column: #column)

      let task = await store.send(.incrementLater, fileID: #fileID, file: #filePath, line: #line, column: #column)
      await task.finish(timeout: .seconds(60), fileID: #fileID, file: #filePath, line: #line, column: #column)
      await task.finish(timeout: nil, fileID: #fileID, file: #filePath, line: #line, column: #column)
      await task.cancel()
      await store.skipReceivedActions(strict: true, fileID: #fileID, file: #filePath, line: #line, column: #column)
      await store.skipInFlightEffects(strict: false, fileID: #fileID, file: #filePath, line: #line, column: #column)
      await store.finish(timeout: .seconds(60), fileID: #fileID, file: #filePath, line: #line, column: #column)
      await store.finish(timeout: nil, fileID: #fileID, file: #filePath, line: #line, column: #column)
    }
    #expect(issues == [])
  }

  @Test func failuresAreReportedAtTheLocationGiven() async {
    let issues = await collectIssues {
      let clock = TestClock()
      let store = makeStore(clock: clock, fileID: "Helper.swift", file: "/tmp/Helper.swift", line: 1, column: 1)
      // Each step fails: it changes the state without an assertion, or finds nothing.
      await store.send(.increment, fileID: "Helper.swift", file: "/tmp/Helper.swift", line: 2, column: 1)
      await store.send(\.setCount, "5", fileID: "Helper.swift", file: "/tmp/Helper.swift", line: 3, column: 1)
      await store.send(\.decrement, fileID: "Helper.swift", file: "/tmp/Helper.swift", line: 4, column: 1)
      await store.receive(\.setCount, "4", fileID: "Helper.swift", file: "/tmp/Helper.swift", line: 4, column: 2)
      await store.receive(.incremented, fileID: "Helper.swift", file: "/tmp/Helper.swift", line: 5, column: 1)
      await store.receive(\.incremented, fileID: "Helper.swift", file: "/tmp/Helper.swift", line: 6, column: 1)
      await store.receive({ _ in true }, fileID: "Helper.swift", file: "/tmp/Helper.swift", line: 7, column: 1)
      store.assert({ $0.count = 9 }, fileID: "Helper.swift", file: "/tmp/Helper.swift", line: 8, column: 1)
      await store.skipReceivedActions(fileID: "Helper.swift", file: "/tmp/Helper.swift", line: 9, column: 1)
      await store.skipInFlightEffects(fileID: "Helper.swift", file: "/tmp/Helper.swift", line: 10, column: 1)
      // An effect that waits on the test clock: the waits time out.
      let task = await store.send(.incrementLater, fileID: "Helper.swift", file: "/tmp/Helper.swift", line: 11, column: 1)
      await task.finish(timeout: .milliseconds(20), fileID: "Helper.swift", file: "/tmp/Helper.swift", line: 12, column: 1)
      await store.finish(timeout: .milliseconds(20), fileID: "Helper.swift", file: "/tmp/Helper.swift", line: 13, column: 1)
      // The action it sends is left unreceived: the store reports it, at its own line, when it goes away.
      await clock.advance(by: .seconds(1))
    }
    #expect(issues.map(\.line) == [2, 3, 4, 4, 5, 6, 7, 8, 9, 10, 12, 13, 1])
  }

  @Test func receivingACaseWithAValueThatDiffers() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let store = TestStore(initialState: 0) { Loader.reducer }
      await store.send(.load)
      line = #line + 1
      await store.receive(\.loaded, 41) { $0 = 42 }
    }
    #expect(issues.map(\.line) == [line])
    #expect(issues.first?.message.hasPrefix("Received unexpected action:\n\n") == true)
    #expect(issues.first?.message.hasSuffix("\n\n(Expected: −, Actual: +)") == true)
  }

  @Test func aTaskWaitsForTheStoresTimeoutByDefault() async {
    var line: UInt = 0
    let issues = await collectIssues {
      let clock = TestClock()
      let store = TestStore(initialState: Counter.State()) {
        Counter()
      } withDependencies: {
        $0.continuousClock = clock
      }
      store.timeout = .milliseconds(30)
      let task = await store.send(.incrementLater)
      line = #line + 1
      await task.finish()
      await task.cancel()
    }
    #expect(
      issues == [
        ReportedIssue(
          message: """
            Expected task to finish, but it is still in-flight after 0.03 seconds.

            If this task delivers its action using a clock/scheduler (via "sleep(for:)", \
            "timer(interval:)", etc.), make sure that you wait enough time for it to perform its \
            work. If you are using a test clock/scheduler, advance the scheduler so that the effects \
            may complete, or consider using an immediate clock/scheduler to immediately perform the \
            effect instead.

            If you are not yet using a clock/scheduler, or cannot use a clock/scheduler, \
            configure this assertion with an explicit "timeout".
            """,
          line: line)
      ])
  }
}

/// `load` sends `loaded(42)`, which sets the state.
private enum Loader {
  @CasePathable
  enum Action: Equatable {
    case load
    case loaded(Int)
  }

  static var reducer: Reduce<Int, Action> {
    Reduce { state, action in
      switch action {
      case .load: return .send(.loaded(42))
      case .loaded(let value):
        state = value
        return .none
      }
    }
  }
}
