@_spi(Internals) import CasePaths
import ConcurrencyExtras
import CustomDump
import Dependencies
import Foundation
import IssueReporting

/// The test store of a reducer's domain: `TestStoreOf<Counter>` is
/// `TestStore<Counter.State, Counter.Action>`, as in TCA.
public typealias TestStoreOf<R: Reducer> = TestStore<R.State, R.Action> where R.State: Equatable

/// Runs a reducer in a test and checks, exhaustively, everything it does: every state
/// change, every action its effects send back, and every effect still running at the end.
///
/// ```swift
/// @Test @MainActor func playNext() async {
///   let store = TestStore(initialState: Counter.State()) {
///     Counter()
///   } withDependencies: {
///     $0.generateRandom.generateRandomInt = { _ in 4 }
///   }
///   await store.send(.increment) { $0.count = 1 }
///   await store.send(.playNext) {
///     $0.count = 0
///     $0.secret = 4
///   }
/// }
/// ```
///
/// Semantics are TCA's: the assertion closure of a step changes a copy of the state as it
/// was before the step, and the result must equal the state after it; after a failure the
/// store goes on from the actual state. Actions that effects send are queued with the state
/// they produced, and each must be received before the next `send`; ``state`` is the state
/// as of the last step asserted, so it changes when `receive` (or `skipReceivedActions`)
/// takes an action, not when the effect sends it. Assertion closures run with the store's
/// ``dependencies``. Every failure is reported through IssueReporting's `reportIssue` at the
/// line of the step, so it is a test failure in XCTest and Swift Testing, and any
/// `IssueReporter` can collect it.
@MainActor
public final class TestStore<State: Equatable, Action> {
  /// One action that an effect sent, with the state the reducer left after it.
  struct Received {
    var action: Action
    var state: State
    var origin: EffectOrigin
    /// The next stack element id before the action: an assertion that appends to a
    /// `StackState` gets the ids that the reducer got, as in TCA.
    var stackIDBefore: StackElementID
  }

  // The properties read at every step are `@exclusivity(unchecked)`: every access to a
  // class's `var` otherwise pays for a dynamic exclusivity check (a thread-local access set),
  // several times a step. Their accesses never overlap: the store is isolated to the main
  // actor, the reducer gets `state` inout but not the store, and effects start after the
  // reducer returns and run in later jobs.

  /// Whether every change, action and effect must be asserted (`.on`, the default).
  @exclusivity(unchecked) public var exhaustivity: Exhaustivity = .on
  /// How long `receive` and `finish` wait, by default.
  @exclusivity(unchecked) public var timeout: Duration = .seconds(1)
  /// The dependencies that the reducer, the effects it starts from now on, and the assertion
  /// closures use.
  public var dependencies: DependencyValues {
    didSet {
      stackIDs = dependencies.stackElementID
      reducerDependencies = dismissing(dependencies)
    }
  }
  /// `dependencies.stackElementID`, read again whenever `dependencies` changes: it is asked at
  /// every send, receive and state check.
  @exclusivity(unchecked) private var stackIDs: StackElementIDGenerator
  /// `dependencies` with a `dismiss` that dismisses this store (``isDismissed``): what the
  /// reducer runs with, made again whenever `dependencies` changes.
  @exclusivity(unchecked) private var reducerDependencies: DependencyValues

  /// The state as of the last step asserted.
  ///
  /// As in TCA, an action that an effect sends changes it only when `receive` (or
  /// `skipReceivedActions`, or a non-exhaustive store skipping it) takes the action: between
  /// a `send` and its `receive`s, and in an assertion closure, it is the state the step
  /// starts from.
  @exclusivity(unchecked) public private(set) var state: State
  /// The state the reducer has reached: ahead of ``state`` by the actions received and not
  /// yet asserted.
  @exclusivity(unchecked) private var reducerState: State

  /// Whether the feature dismissed itself: an effect called `dismiss` with the store at the
  /// root of the feature. Its effects are then cancelled, and actions sent afterwards fail.
  public private(set) var isDismissed = false

  private let reducer: (inout State, Action) -> Effect<Action>
  private let runtime = EffectRuntime<Action>()
  /// The values that shared state (`@Shared`) had before the changes that the reducer and
  /// effects made since the last step asserted: what the state before a step shows of it.
  private let sharedChangeTracker = SharedChangeTracker()
  private var received: [Received] = [] {
    didSet { receivedCount = received.count }
  }
  /// `received.count`, kept by `received`: the hot paths test it without asking for the
  /// generic metadata of `[Received]` that any use of the array asks for.
  @exclusivity(unchecked) private var receivedCount = 0
  private var isCompleted = false
  private let usesSerialExecutor: Bool
  /// The issue reporters of the task that made the store.
  private let issueReporters = IssueReporters.current
  private let fileID: StaticString
  private let filePath: StaticString
  private let line: UInt
  private let column: UInt

  /// A test store for a reducer.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - reducer: The reducer under test.
  ///   - prepareDependencies: Overrides of dependencies. The built-ins that a test must
  ///     control (`uuid`, `date`, `withRandomNumberGenerator`, `continuousClock`,
  ///     `suspendingClock`) fail the test when used without an override; all other
  ///     dependencies take their `testValue`.
  public init<R: Reducer>(
    initialState: @autoclosure () -> State,
    reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) throws -> Void = { _ in },
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where R.State == State, R.Action == Action {
    var values = DependencyValues._current
    values.context = .test
    values.failOnUnimplementedBuiltIns()
    // Stack element ids count from 0 in each store.
    values.stackElementID = .incrementing
    do {
      try prepareDependencies(&values)
    } catch {
      reportIssue(
        "The \"withDependencies\" closure of the test store threw: \(error)", fileID: fileID, filePath: filePath,
        line: line, column: column)
    }
    self.dependencies = values
    stackIDs = values.stackElementID
    reducerDependencies = values
    let (state, reducer) = withDependencies({ $0 = values }) {
      (initialState(), reducer())
    }
    self.state = state
    self.reducerState = state
    self.reducer = reducer.reduce(into:action:)
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
    self.usesSerialExecutor = true
    SerialExecutorLease.acquire()
    runtime.runsOnMainQueue = true
    runtime.tracksSpawnedEffects = true
    runtime.deliver = { [unowned self] action, origin in self.receive(action, origin: origin) }
    reducerDependencies = dismissing(values)
  }

  /// `values` with a `dismiss` that, as in TCA, calls the one given (if any), cancels the
  /// effects in flight and marks the store dismissed: the feature under test is the root, and
  /// a `dismiss` from it ends it. With the store's shared change tracker too, so that the
  /// changes the reducer and its effects make to shared state are recorded.
  private func dismissing(_ values: DependencyValues) -> DependencyValues {
    var values = values
    values.sharedChangeTracker = sharedChangeTracker
    let dismiss = values.dismiss.dismiss
    values.dismiss = DismissEffect { [weak self] in
      dismiss?()
      guard let self else { return }
      self.runtime.cancelAll()
      self.isDismissed = true
    }
    return values
  }

  isolated deinit {
    // An isolated deinit runs without the task's task-local values, so the issue
    // reporters of the test that made the store are restored for its last checks.
    withIssueReporters(issueReporters) { completed() }
    if usesSerialExecutor { SerialExecutorLease.release() }
  }

  // MARK: - Sending

  /// Sends an action and asserts how it changes the state.
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - updateStateToExpectedResult: Changes a copy of the state before the action into the
  ///     state expected after it. Without it, the action must not change the state.
  /// - Returns: The effects that the action started, to cancel or await.
  @discardableResult
  public func send(
    _ action: Action,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    await send(
      action, expectation: StateExpectation.update(updateStateToExpectedResult), fileID: fileID,
      file: filePath, line: line, column: column)
  }

  /// Sends an action and asserts how it changes the state, with the expected state worked
  /// out by a ``StateExpectation``: for the spec runner and the recorder, not public API
  /// (tests use the `assert:` closure, as in TCA).
  @discardableResult
  package func send(
    _ action: Action,
    expectation: StateExpectation<State>?,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    if isDismissed {
      report("Can't send action to dismissed test store.", at: location)
      return TestStoreTask(runtime: runtime, anchor: nil, timeout: timeout)
    }
    if receivedCount != 0 { dropReceived(at: location) }
    let before = state
    let stackIDBefore = stackIDs.peek()
    let effect = reduce(&reducerState, action)
    let after = reducerState
    var anchor: EffectPiece?
    if case .none = effect.operation {
      // Nothing to start, and no origin to describe: the usual step.
    } else {
      let origin = EffectOrigin(
        fileID: fileID, filePath: filePath, line: line, column: column, action: describeAction(action))
      anchor = start(effect, origin: origin)
    }
    // As in TCA, the closure sees `state` as it was before the action.
    checkState(before: before, after: after, expected: expectation, stackIDBefore: stackIDBefore, at: location)
    state = after
    // `letEffectsRun` returns at once when nothing runs: the usual step skips the call.
    if runtime.hasRunning { await letEffectsRun() }
    return TestStoreTask(runtime: runtime, anchor: anchor, timeout: timeout)
  }

  /// Starts the effect of a sent action under an anchor: a piece that runs nothing, which the
  /// effects it starts, and those started for the actions they send, are spawned by
  /// (``EffectPiece/spawned``): what the ``TestStoreTask`` of the send cancels and waits for.
  private func start(_ effect: Effect<Action>, origin: EffectOrigin) -> EffectPiece {
    let anchor = EffectPiece(id: 0, origin: origin, parent: nil)
    anchor.isFinished = true
    let previous = runtime.delivering
    runtime.delivering = anchor
    defer { runtime.delivering = previous }
    runtime.start(effect, origin: origin)
    return anchor
  }

  /// Before a `send`: reports the actions received and not asserted. As in TCA, an exhaustive
  /// store keeps them queued (a later `receive` still takes them, in order); a non-exhaustive
  /// one drops them (noting them with `showSkippedAssertions`).
  @inline(never)
  private func dropReceived(at location: Location) {
    switch exhaustivity {
    case .on:
      report(
        """
        Must handle \(plural(received.count, "received action")) before sending an action.

        Unhandled actions: \(dumpActions(received.map(\.action)))
        """, at: location)
    case .off(let showSkipped):
      if showSkipped {
        for item in received { note("Skipped receiving \(describeAction(item.action))", at: location) }
      }
      state = received[received.count - 1].state
      received.removeAll()
    }
  }

  /// Sends the action of a case: `await store.send(\.login.emailChanged, "blob@example.com")`.
  @discardableResult
  public func send<Value>(
    _ action: CaseKeyPath<Action, Value>,
    _ value: Value,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask where Action: CasePathable {
    await send(
      action(value), assert: updateStateToExpectedResult, fileID: fileID, file: filePath, line: line,
      column: column)
  }

  /// Sends the action of a case without a value: `await store.send(\.increment)`.
  @discardableResult
  public func send(
    _ action: CaseKeyPath<Action, Void>,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask where Action: CasePathable {
    await send(
      action(()), assert: updateStateToExpectedResult, fileID: fileID, file: filePath, line: line,
      column: column)
  }

  // MARK: - Receiving

  /// Asserts that the next action an effect sent is `expected`, and how it changed the state.
  public func receive(
    _ expected: Action,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: Equatable {
    await receive(
      expected, timeout: timeout, expectation: StateExpectation.update(updateStateToExpectedResult),
      fileID: fileID, file: filePath, line: line, column: column)
  }

  /// Asserts that the next action an effect sent is `expected`, and how it changed the
  /// state, with a ``StateExpectation``: for the spec runner, not public API (tests use the
  /// `assert:` closure, as in TCA).
  package func receive(
    _ expected: Action,
    timeout: Duration? = nil,
    expectation: StateExpectation<State>?,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: Equatable {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    await receive(
      matching: { $0 == expected },
      failureMessage: """
        Expected to receive the following action, but didn't:

        \(describeAction(expected, indent: 2))
        """,
      unexpected: { actual in
        if let difference = diff(expected, actual, format: .proportional) {
          return "\(difference.indent(by: 4))\n\n(Expected: −, Received: +)"
        }
        return """
          Expected:
          \(String(describing: expected).indent(by: 2))

          Received:
          \(String(describing: actual).indent(by: 2))
          """
      },
      timeout: timeout, expectation: expectation, at: location)
  }

  /// Asserts that the next action an effect sent is in a case, with a value equal to `value`:
  /// `await store.receive(\.response.success, 42)`.
  public func receive<Value: Equatable>(
    _ casePath: CaseKeyPath<Action, Value>,
    _ value: Value,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: CasePathable {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    // As in TCA, it waits for an action in the case, and then the value must match.
    if runtime.hasRunning {
      await waitForReceivedAction(matching: { $0[case: casePath] != nil }, timeout: timeout ?? self.timeout, at: location)
    }
    takeReceivedAction(
      matching: { $0[case: casePath] == value },
      failureMessage: "Expected to receive an action matching case path, but didn't get one.",
      unexpected: { actual in
        if actual[case: casePath] != nil, let difference = diff(casePath(value), actual, format: .proportional) {
          return "\(difference.indent(by: 2))\n\n(Expected: −, Actual: +)"
        }
        return describeAction(actual, indent: 2)
      },
      expectation: StateExpectation.update(updateStateToExpectedResult), at: location)
  }

  /// Asserts that the next action an effect sent is in a case, whatever its value.
  public func receive<Value>(
    _ casePath: CaseKeyPath<Action, Value>,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: CasePathable {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    await receive(
      matching: { $0[case: casePath] != nil },
      failureMessage: "Expected to receive an action matching case path, but didn't get one.",
      unexpected: { describeAction($0, indent: 2) },
      timeout: timeout, expectation: StateExpectation.update(updateStateToExpectedResult), at: location)
  }

  /// Asserts that the next action an effect sent satisfies a predicate.
  public func receive(
    _ isMatching: (_ action: Action) -> Bool,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    await receive(
      matching: isMatching,
      failureMessage: "Expected to receive an action matching predicate, but didn't get one.",
      unexpected: { describeAction($0, indent: 2) },
      timeout: timeout, expectation: StateExpectation.update(updateStateToExpectedResult), at: location)
  }

  /// Asserts that the next action an effect sent satisfies a predicate, which failure
  /// messages name with `expectation`: `receive({ … }, expecting: "an action in the case
  /// .response.failure")` fails with "Expected to receive an action in the case
  /// .response.failure, but didn't get one.", or with the action received and
  /// "(Expected an action in the case .response.failure.)".
  public func receive(
    _ isMatching: (_ action: Action) -> Bool,
    expecting expectation: String,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      isMatching, expecting: expectation, timeout: timeout,
      expectation: StateExpectation.update(updateStateToExpectedResult), fileID: fileID, file: filePath,
      line: line, column: column)
  }

  /// The same, with a ``StateExpectation``: for the spec runner, not public API (tests use
  /// the `assert:` closure).
  package func receive(
    _ isMatching: (_ action: Action) -> Bool,
    expecting expectedDescription: String,
    timeout: Duration? = nil,
    expectation: StateExpectation<State>?,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    await receive(
      matching: isMatching,
      failureMessage: "Expected to receive \(expectedDescription), but didn't get one.",
      unexpected: { "\(describeAction($0, indent: 2))\n\n(Expected \(expectedDescription).)" },
      timeout: timeout, expectation: expectation, at: location)
  }

  /// A `receive`, as TCA's: waits (while effects are in flight) for an action, or, when not
  /// exhaustive, for a matching one; then takes it (``takeReceivedAction``).
  func receive(
    matching isMatching: (Action) -> Bool,
    failureMessage: @autoclosure () -> String,
    unexpected: (Action) -> String,
    timeout: Duration?,
    expectation: StateExpectation<State>?,
    at location: Location
  ) async {
    if runtime.hasRunning {
      await waitForReceivedAction(matching: isMatching, timeout: timeout ?? self.timeout, at: location)
    }
    takeReceivedAction(
      matching: isMatching, failureMessage: failureMessage(), unexpected: unexpected, expectation: expectation,
      at: location)
  }

  /// Whether `receive` has an action to take: any action when exhaustive, a matching one when not.
  private func hasReceivedAction(matching isMatching: (Action) -> Bool) -> Bool {
    // `receivedCount`, not `received.isEmpty` (see `receivedCount`).
    if exhaustivity == .on { return receivedCount != 0 }
    return received.contains { isMatching($0.action) }
  }

  /// Waits until `receive` has an action to take. Reports a failure when the effects are still
  /// in flight after `timeout`; stops waiting, reporting nothing, when they all end first (the
  /// action `receive` wanted then never arrives, which it reports).
  private func waitForReceivedAction(
    matching isMatching: (Action) -> Bool, timeout: Duration, at location: Location
  ) async {
    if hasReceivedAction(matching: isMatching) { return }
    await letEffectsRun()
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while !hasReceivedAction(matching: isMatching) {
      guard runtime.hasRunning else { return }
      if ContinuousClock.now >= deadline {
        let timeoutAdvice =
          timeout != self.timeout
          ? #"try increasing the duration of this assertion's "timeout""#
          : #"configure this assertion with an explicit "timeout""#
        report(
          """
          Expected to receive \(exhaustivity == .on ? "an action" : "a matching action"), but received none\
          \(timeout > .zero ? " after \(formatSeconds(timeout))" : "").

          There are effects in-flight. If the effect that delivers this action uses a \
          clock/scheduler (via "receive(on:)", "delay", "debounce", etc.), make sure that you \
          wait enough time for it to perform the effect. If you are using a test \
          clock/scheduler, advance it so that the effects may complete, or consider using \
          an immediate clock/scheduler to immediately perform the effect instead.

          If you are not yet using a clock/scheduler, or can not use a clock/scheduler, \
          \(timeoutAdvice).
          """, at: location)
        return
      }
      await idle()
    }
  }

  /// Takes the next received action, as TCA does: reports `failureMessage` when there is none
  /// (or, when not exhaustive, none that matches, after skipping those before it); reports the
  /// action when it does not match; otherwise checks the state it left against the state of
  /// the last step asserted. The store's ``state`` becomes the state the action left, whether
  /// it matched or not.
  private func takeReceivedAction(
    matching isMatching: (Action) -> Bool,
    failureMessage: @autoclosure () -> String,
    unexpected: (Action) -> String,
    expectation: StateExpectation<State>?,
    at location: Location
  ) {
    guard receivedCount != 0 else {
      report(failureMessage(), at: location)
      return
    }
    if exhaustivity != .on {
      guard let index = received.firstIndex(where: { isMatching($0.action) }) else {
        report(failureMessage(), at: location)
        return
      }
      if index > 0 {
        if case .off(showSkippedAssertions: true) = exhaustivity {
          for item in received[..<index] { note("Skipped receiving \(describeAction(item.action))", at: location) }
        }
        state = received[index - 1].state
        received.removeSubrange(..<index)
      }
    }
    // `remove(at:)`, not `removeFirst()`: unspecialised, the protocol's `removeFirst` goes
    // through `replaceSubrange` and asks for its generic metadata.
    let item = received.remove(at: 0)
    if isMatching(item.action) {
      checkState(
        before: state, after: item.state, expected: expectation, stackIDBefore: item.stackIDBefore, at: location)
    } else {
      report("Received unexpected action:\n\n\(unexpected(item.action))", at: location)
    }
    state = item.state
  }

  /// Lets the effects in flight run up to their next suspension (``EffectRuntime/letRun(turns:)``).
  private func letEffectsRun() async {
    await runtime.letRun(turns: 100)
  }

  /// Lets effects run for a moment.
  private func idle() async {
    await Task.megaYield()
    try? await Task.sleep(nanoseconds: 1_000_000)
  }

  // MARK: - Finishing

  /// Waits for every effect in flight to finish; reports a failure when actions that effects
  /// sent are still unasserted, and when effects are still running after the timeout.
  ///
  /// ```swift
  /// await store.send(.task)
  /// await store.receive(\.response) { $0.isLoading = false }
  /// await store.finish()
  /// ```
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    if exhaustivity == .on, receivedCount != 0 { reportUnhandledReceived(at: location) }
    let timeout = timeout ?? self.timeout
    let deadline = ContinuousClock.now.advanced(by: timeout)
    await Task.megaYield()
    while runtime.hasRunning {
      if ContinuousClock.now >= deadline {
        let timeoutAdvice =
          timeout != self.timeout
          ? #"try increasing the duration of this assertion's "timeout""#
          : #"configure this assertion with an explicit "timeout""#
        report(
          """
          Expected effects to finish, but there are still effects in-flight\
          \(timeout > .zero ? " after \(formatSeconds(timeout))" : "").

          There are effects in-flight. If the effect that delivers this action uses a \
          clock/scheduler (via "receive(on:)", "delay", "debounce", etc.), make sure that you wait \
          enough time for it to perform the effect. If you are using a test \
          clock/scheduler, advance it so that the effects may complete, or consider using \
          an immediate clock/scheduler to immediately perform the effect instead.

          If you are not yet using a clock/scheduler, or can not use a clock/scheduler, \
          \(timeoutAdvice).
          """,
          at: location)
        return
      }
      await idle()
    }
    checkSharedChangesAsserted(at: location)
  }

  /// When exhaustive, reports the changes to shared state that effects made after the last
  /// step asserted, in TCA's words, and forgets them.
  private func checkSharedChangesAsserted(at location: Location) {
    let tracker = sharedChangeTracker
    guard tracker.hasChanges else { return }
    guard exhaustivity == .on else { return tracker.reset() }
    tracker.check { _ in
      guard state != state else { return }
      report(
        stateMismatch(
          "Test store finished before asserting against changes to shared state.", expected: state, actual: state)
          + """


          Invoke "TestStore.assert" at the end of this test to assert against changes to shared state.
          """, at: location)
    }
  }

  /// The failure of actions received and not asserted, at `finish` and at the end, in TCA's words.
  private func reportUnhandledReceived(at location: Location) {
    let actions = received.map { "    " + debugCaseOutput($0.action, abbreviated: true) }.joined(separator: "\n")
    report(
      """
      The store received \(plural(received.count, "unexpected action")).

        Unhandled actions:
      \(actions)

      To fix, explicitly assert against these actions using "store.receive", skip these actions \
      by performing "await store.skipReceivedActions()", or consider using a non-exhaustive test \
      store: "store.exhaustivity = .off".
      """, at: location)
  }

  /// Drops the actions received and not yet asserted.
  ///
  /// - Parameter strict: Report a failure when there are none.
  public func skipReceivedActions(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    await Task.megaYield()
    if received.isEmpty {
      if strict { report("There were no received actions to skip.", at: location) }
      return
    }
    if case .off(showSkippedAssertions: true) = exhaustivity {
      for item in received { note("Skipped receiving \(describeAction(item.action))", at: location) }
    }
    state = received[received.count - 1].state
    received.removeAll()
  }

  /// Cancels the effects in flight.
  ///
  /// - Parameter strict: Report a failure when there are none.
  public func skipInFlightEffects(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    await Task.megaYield()
    let running = runtime.running
    if running.isEmpty {
      if strict { report("There were no in-flight effects to skip.", at: location) }
      return
    }
    if case .off(showSkippedAssertions: true) = exhaustivity {
      for origin in uniqueOrigins(running) {
        note("Skipped an effect in flight, started by \(origin.action) at \(origin.fileID):\(origin.line)", at: location)
      }
    }
    runtime.cancelAll()
  }

  /// Asserts the current state (``state``: as of the last step asserted), without sending
  /// anything: the closure must not change it. It runs with the store's dependencies.
  public func assert(
    _ updateStateToExpectedResult: (_ state: inout State) throws -> Void,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    sharedChangeTracker.check { _ in
      var expected = state
      do {
        try withExpectationDependencies(stackIDBefore: nil) { try updateStateToExpectedResult(&expected) }
      } catch {
        report("Threw error: \(error)", at: location)
        return
      }
      if expected != state {
        report(stateMismatch(expected: expected, actual: state), at: location)
      }
    }
  }

  /// Runs `operation` with another exhaustivity, then restores it.
  public func withExhaustivity<R>(_ exhaustivity: Exhaustivity, operation: () async throws -> R) async rethrows -> R {
    let saved = self.exhaustivity
    self.exhaustivity = exhaustivity
    defer { self.exhaustivity = saved }
    return try await operation()
  }

  /// Runs `operation` with another exhaustivity, then restores it.
  public func withExhaustivity<R>(_ exhaustivity: Exhaustivity, operation: () throws -> R) rethrows -> R {
    let saved = self.exhaustivity
    self.exhaustivity = exhaustivity
    defer { self.exhaustivity = saved }
    return try operation()
  }

  /// The effects in flight, oldest first: where each was started and by which action.
  public var effectsInFlight: [EffectOrigin] {
    uniqueOrigins(runtime.running)
  }

  /// Ends the test: reports the actions received and not asserted and the effects still
  /// running (when exhaustive), then cancels every effect. The store does this when it is
  /// deinitialized; the spec runner and the recorder call it to end a scenario at a chosen
  /// point. It does it only once. Not public API: internal in TCA too.
  package func completed() {
    guard !isCompleted else { return }
    isCompleted = true
    if exhaustivity == .on {
      if receivedCount != 0 {
        reportUnhandledReceived(at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
      }
      for origin in runtime.hasRunning ? uniqueOrigins(runtime.running) : [] {
        report(
          "\(TestStoreMessage.effectStillRunning)\n\n\(TestStoreMessage.effectStillRunningAdvice)",
          at: Location(fileID: origin.fileID, filePath: origin.filePath, line: origin.line, column: origin.column))
      }
    }
    checkSharedChangesAsserted(at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
    if receivedCount != 0 { received.removeAll() }
    runtime.cancelAll()
  }

  // MARK: - Internals

  struct Location {
    var fileID: StaticString
    var filePath: StaticString
    var line: UInt
    var column: UInt
  }

  /// Runs the reducer with the store's dependencies.
  ///
  /// The same as `withDependencies({ $0 = self.dependencies }) { reducer(&state, action) }`,
  /// which first copies the current dependencies only to replace them all.
  ///
  /// The operation returns nothing and stores the effect: with `Effect<Action>` as the result
  /// type of the generic `withValue`, each call would ask for its generic metadata.
  private func reduce(_ state: inout State, _ action: Action) -> Effect<Action> {
    Self.reduce(&state, action, with: reducer, dependencies: reducerDependencies)
  }

  /// `nonisolated`: the operation, a closure, would otherwise check at every call that it
  /// runs on the main actor.
  private nonisolated static func reduce(
    _ state: inout State, _ action: Action, with reducer: (inout State, Action) -> Effect<Action>,
    dependencies: DependencyValues
  ) -> Effect<Action> {
    var effect: Effect<Action>?
    DependencyValues.$_current.withValue(dependencies) {
      effect = reducer(&state, action)
    }
    return effect!
  }

  /// An action that an effect sent: runs the reducer on it and queues it with the state it
  /// left. ``state`` stays as it is until a `receive` takes the action.
  private func receive(_ action: Action, origin: EffectOrigin) {
    let stackIDBefore = stackIDs.peek()
    let effect = reduce(&reducerState, action)
    received.append(Received(action: action, state: reducerState, origin: origin, stackIDBefore: stackIDBefore))
    runtime.start(effect, origin: origin)
  }

  private func checkState(
    before: State, after: State, expected expectation: StateExpectation<State>?,
    stackIDBefore: StackElementID, at location: Location
  ) {
    // As in TCA, shared state is checked with the values it had before the step (recorded by
    // the tracker) on the side of `before` and the expected state, and its values now on the
    // side of `after`; then the recorded values are forgotten.
    sharedChangeTracker.check { sharedChanged in
      checkState(
        before: before, after: after, expected: expectation, stackIDBefore: stackIDBefore,
        sharedChanged: sharedChanged, at: location)
    }
  }

  /// ``checkState(before:after:expected:stackIDBefore:at:)`` with the tracker asserting.
  private func checkState(
    before: State, after: State, expected expectation: StateExpectation<State>?,
    stackIDBefore: StackElementID, sharedChanged: Bool, at location: Location
  ) {
    switch exhaustivity {
    case .on:
      var expected = before
      // Unwrapped in place: `expectation.map` made every check ask the runtime for the
      // metadata of an optional of the (generic) expectation.
      if let expectation {
        do {
          expected = try withExpectationDependencies(stackIDBefore: stackIDBefore) {
            try expectation.expected(before, after)
          }
        } catch {
          report("Threw error: \(error)", at: location)
          return
        }
      }
      if expected != after {
        let heading =
          expectation == nil
          ? "State was not expected to change, but a change occurred."
          : "A state change does not match expectation."
        report(stateMismatch(heading, expected: expected, actual: after), at: location)
      } else if expectation != nil, !sharedChanged, expected == before {
        report(
          """
          Expected state to change, but no change occurred.

          The trailing closure made no observable modifications to state. If no change to state is \
          expected, omit the trailing closure.
          """, at: location)
      }
    case .off(let showSkipped):
      // Not exhaustive, as in TCA: only what the closure changes of the actual state counts.
      sharedChangeTracker.reset()
      checkStateNonExhaustively(
        before: before, after: after, expected: expectation, stackIDBefore: stackIDBefore, showSkipped: showSkipped,
        at: location)
    }
  }

  /// The `.off` half of ``checkState``, apart: its optional state would otherwise make every
  /// check ask for the metadata of `State?`.
  ///
  /// As in TCA, the closure changes the actual state, and only what it changes is checked.
  /// With `showSkippedAssertions`, it also runs on the state the step started from, with what
  /// it reports handed over as expected issues, and a difference from the actual state is
  /// noted.
  @inline(never)
  private func checkStateNonExhaustively(
    before: State, after: State, expected expectation: StateExpectation<State>?, stackIDBefore: StackElementID,
    showSkipped: Bool, at location: Location
  ) {
    var expectedFromActual = after
    if let expectation {
      do {
        expectedFromActual = try withExpectationDependencies(stackIDBefore: stackIDBefore) {
          try expectation.expected(after, after)
        }
      } catch {
        report("Threw error: \(error)", at: location)
        return
      }
    }
    if expectedFromActual != after {
      report(stateMismatch(expected: expectedFromActual, actual: after), at: location)
      return
    }
    if showSkipped {
      // What the closure recorded of shared state on the actual state is not the start of
      // its run on the state before the action.
      sharedChangeTracker.reset()
      var expected = before
      if let expectation {
        expected = withIssuesExpected {
          (try? withExpectationDependencies(stackIDBefore: stackIDBefore) { try expectation.expected(before, after) })
            ?? before
        }
      }
      if expected != after {
        note(stateMismatch(expected: expected, actual: after), at: location)
      }
    }
  }

  /// The message for a state that is not the one expected: `heading`, the difference, and
  /// which side is which.
  private func stateMismatch(
    _ heading: String = "A state change does not match expectation.", expected: State, actual: State
  ) -> String {
    guard let difference = diff(expected, actual, format: .proportional) else {
      // The states differ but dump the same (an `==` that compares something unprinted).
      return """
        \(heading)

        Expected:
        \(String(describing: expected).indent(by: 2))

        Actual:
        \(String(describing: actual).indent(by: 2))
        """
    }
    return """
      \(heading)

      \(difference.indent(by: 4))

      (Expected: −, Actual: +)
      """
  }

  /// Runs an assertion closure as TCA does: with the store's dependencies, with a stack
  /// element id generator that starts where the reducer's started for the action (when one
  /// is given and the reducer has handed out ids), and, when the store is not exhaustive, with
  /// `XCTModify` not requiring a change.
  private func withExpectationDependencies<R>(stackIDBefore: StackElementID?, _ body: () throws -> R) rethrows -> R {
    var values = dependencies
    // Only a store whose reducer has handed out stack element ids needs the assertion to hand
    // out the same ones (an assertion that appends to a stack the reducer did not touch fails
    // whatever id it gets): elsewhere the dependencies are used as they are.
    if let stackIDBefore, stackIDBefore.generation > 0 || stackIDs.peek().generation > 0 {
      values.stackElementID = StackElementIDGenerator(next: stackIDBefore)
    }
    return try DependencyValues.$_current.withValue(values) {
      guard exhaustivity != .on else { return try body() }
      return try XCTModifyLocals.$isExhaustive.withValue(false) { try body() }
    }
  }

  /// Runs `body` with the issues it reports handed to the issue reporters as expected issues,
  /// which are not failures: the skipped assertions of a store with `showSkippedAssertions`.
  private func withIssuesExpected<R>(_ body: () throws -> R) rethrows -> R {
    try withIssueReporters([ExpectingIssueReporter(reporters: IssueReporters.current)]) { try body() }
  }

  private func report(_ message: String, at location: Location) {
    reportIssue(
      message, fileID: location.fileID, filePath: location.filePath, line: location.line, column: location.column)
  }

  /// A skipped assertion: handed to the issue reporters as an expected issue, which is not a
  /// failure (the default reporter prints it; a collecting reporter can list it).
  private func note(_ message: String, at location: Location) {
    for reporter in IssueReporters.current {
      reporter.expectIssue(
        message, fileID: location.fileID, filePath: location.filePath, line: location.line, column: location.column)
    }
  }

  private func uniqueOrigins(_ pieces: [EffectPiece]) -> [EffectOrigin] {
    var seen: Set<EffectOrigin> = []
    return pieces.compactMap { seen.insert($0.origin).inserted ? $0.origin : nil }
  }
}

/// The effects that one `send` started.
@MainActor
public struct TestStoreTask {
  let cancelAll: () -> Void
  let isRunning: () -> Bool
  let wasCancelled: () -> Bool
  /// The store's `timeout` when the action was sent: how long ``finish(timeout:fileID:file:line:column:)``
  /// waits by default, as in TCA.
  let timeout: Duration

  /// The task of the effects started under `anchor` (``TestStore``'s `start`): those the
  /// action started, and those started for the actions they sent.
  init<Action>(runtime: EffectRuntime<Action>, anchor: EffectPiece?, timeout: Duration) {
    self.timeout = timeout
    guard let anchor else {
      // No effect started: closures that capture nothing, which cost no allocation.
      self.cancelAll = {}
      self.isRunning = { false }
      // As in TCA, a task with nothing to run counts as cancelled.
      self.wasCancelled = { true }
      return
    }
    self.cancelAll = {
      anchor.isCancelled = true
      runtime.cancelTree(anchor)
    }
    self.isRunning = { anchor.isActive }
    self.wasCancelled = { anchor.isCancelled || anchor.spawned.contains { $0.isCancelled } }
  }

  /// Cancels the effects: those the action started, and, as in TCA, those started for the
  /// actions they sent.
  public func cancel() async {
    cancelAll()
    await Task.megaYield()
  }

  /// Waits for the effects to finish (those the action started, and those started for the
  /// actions they sent); reports a failure when they still run after the timeout (by default,
  /// the store's `timeout` when the action was sent).
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let timeout = timeout ?? self.timeout
    let deadline = ContinuousClock.now.advanced(by: timeout)
    await Task.megaYield()
    while isRunning() {
      if ContinuousClock.now >= deadline {
        let timeoutAdvice =
          timeout != self.timeout
          ? #"try increasing the duration of this assertion's "timeout""#
          : #"configure this assertion with an explicit "timeout""#
        reportIssue(
          """
          Expected task to finish, but it is still in-flight\
          \(timeout > .zero ? " after \(formatSeconds(timeout))" : "").

          If this task delivers its action using a clock/scheduler (via "sleep(for:)", \
          "timer(interval:)", etc.), make sure that you wait enough time for it to perform its \
          work. If you are using a test clock/scheduler, advance the scheduler so that the effects \
          may complete, or consider using an immediate clock/scheduler to immediately perform the \
          effect instead.

          If you are not yet using a clock/scheduler, or cannot use a clock/scheduler, \
          \(timeoutAdvice).
          """,
          fileID: fileID, filePath: filePath, line: line, column: column)
        return
      }
      await Task.megaYield()
      try? await Task.sleep(nanoseconds: 1_000_000)
    }
  }

  /// Whether the effects were cancelled (by ``cancel()``, a cancellation effect, or the store);
  /// `true` when the action started none, as in TCA.
  public var isCancelled: Bool { wasCancelled() }
}

// MARK: - Text

/// Texts of test store failures that the spec runner words again for spec authors.
package enum TestStoreMessage {
  /// The heading of the failure of an effect still running at the end of a test, reported at
  /// the `send` that started it, in TCA's words.
  package static let effectStillRunning =
    "An effect returned for this action is still running. It must complete before the end of the test."

  /// What the failure of an effect still running says to do, in TCA's words.
  package static let effectStillRunningAdvice = """
    To fix, inspect any effects the reducer returns for this action and ensure that all of \
    them complete by the end of the test. There are a few reasons why an effect may not have \
    completed:

    If using async/await in your effect, it may need a little bit of time to properly \
    finish. To fix you can simply perform "await store.finish()" at the end of your test.

    If an effect uses a clock (or scheduler, via "receive(on:)", "delay", "debounce", etc.), \
    make sure that you wait enough time for it to perform the effect. If you are using a test \
    clock/scheduler, advance it so that the effects may complete, or consider using an \
    immediate clock/scheduler to immediately perform the effect instead.

    If you are returning a long-living effect (timers, notifications, subjects, etc.), \
    then make sure those effects are torn down by marking the effect ".cancellable" and \
    returning a corresponding cancellation effect ("Effect.cancel") from another action, or, \
    if your effect is driven by a Combine subject, send it a completion.

    If you do not wish to assert on these effects, perform "await \
    store.skipInFlightEffects()", or consider using a non-exhaustive test store: \
    "store.exhaustivity = .off".
    """
}

/// `1 received action`, `2 received actions`.
func plural(_ count: Int, _ noun: String) -> String {
  "\(count) \(noun)\(count == 1 ? "" : "s")"
}

/// `1.0 seconds`, `0.3 seconds`.
func formatSeconds(_ duration: Duration) -> String {
  let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  return "\(seconds) seconds"
}

/// An action as `customDump` writes it, on as many lines as it needs, every line indented
/// by `indent` spaces.
func describeAction(_ action: Any, indent: Int = 0) -> String {
  var text = ""
  customDump(action, to: &text, indent: indent)
  return text
}

/// Hands every issue reported to it to `reporters` as an expected issue.
struct ExpectingIssueReporter: IssueReporter {
  let reporters: [any IssueReporter]

  func reportIssue(
    _ message: @autoclosure () -> String?, severity: IssueSeverity, fileID: StaticString, filePath: StaticString,
    line: UInt, column: UInt
  ) {
    let message = message()
    for reporter in reporters {
      reporter.expectIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
    }
  }

  func reportIssue(
    _ error: any Error, _ message: @autoclosure () -> String?, fileID: StaticString, filePath: StaticString,
    line: UInt, column: UInt
  ) {
    let message = message()
    for reporter in reporters {
      reporter.expectIssue(error, message, fileID: fileID, filePath: filePath, line: line, column: column)
    }
  }
}

/// `[\n  [0]: Counter.Action.increment\n]`, as TCA lists unhandled actions.
func dumpActions(_ actions: [Any]) -> String {
  var text = ""
  customDump(actions, to: &text)
  return text
}

extension String {
  func indent(by count: Int) -> String {
    let padding = String(repeating: " ", count: count)
    return split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.isEmpty ? "" : padding + $0 }
      .joined(separator: "\n")
  }
}

// MARK: - Recording

/// Hooks for the recorder (`reducer-spec record`), not public API: a test asserts received
/// actions with `receive`, as in TCA.
extension TestStore {
  /// For recorders (`reducer-spec record`): the actions that effects sent and that no
  /// `receive` has taken yet, oldest first, each with the state before it (``state`` for the
  /// first, then the state the one before left) and after it.
  package var receivedActions: [(action: Action, before: State, after: State)] {
    var before = state
    return received.map { item in
      defer { before = item.state }
      return (item.action, before, item.state)
    }
  }

  /// For recorders: waits, up to `timeout` (the store's by default), until an effect has sent
  /// an action, as `receive` does, but reports nothing when none arrives.
  package func waitForReceivedActions(timeout: Duration? = nil) async {
    if receivedCount != 0 { return }
    await letEffectsRun()
    let deadline = ContinuousClock.now.advanced(by: timeout ?? self.timeout)
    while receivedCount == 0, runtime.hasRunning, ContinuousClock.now < deadline {
      await idle()
    }
  }

  /// For recorders: runs `body` reading each shared value as it was before the changes that
  /// no step has asserted yet, then forgets those changes, as the check of a step does.
  package func readingSharedValuesBeforeUnassertedChanges<R>(_ body: () throws -> R) rethrows -> R {
    try sharedChangeTracker.check { _ in try body() }
  }

  /// For recorders: runs `body` reading shared values as they are now, also while a step is
  /// checked (where they read as they were before the step).
  package func readingCurrentSharedValues<R>(_ body: () throws -> R) rethrows -> R {
    try SharedChangeTracker.withoutAsserting(body)
  }

  /// For recorders: takes the oldest `count` received actions off the queue, as if received:
  /// ``state`` becomes the state the last of them left.
  package func removeReceivedActions(_ count: Int) {
    let count = Swift.min(count, received.count)
    guard count > 0 else { return }
    state = received[count - 1].state
    received.removeFirst(count)
  }
}
