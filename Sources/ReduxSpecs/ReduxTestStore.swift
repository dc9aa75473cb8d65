import CustomDump
import Dependencies
import Foundation
import IssueReporting
import Redux
import SpecRunner

/// A Redux store under test: what the runner drives for a feature registered with a reducer
/// and middlewares (``SpecRunner/Feature/init(_:initialState:stubs:reducer:middlewares:actions:)``).
///
/// It runs the feature as `Store` does and checks it as TCA's `TestStore` checks a reducer:
///
/// - ``send(_:expecting:at:)`` dispatches: the reducer runs, and the state it leaves must be
///   the one the step expects. The middlewares are then called with the state as it was when
///   the action was dispatched, under the store's ``dependencies``.
/// - Every action a middleware dispatches, at once or from a task it started, is reduced
///   when it is dispatched and queued with the state it left; a `receive:` takes the next
///   one, and ``state`` becomes that state then.
/// - A task a middleware starts is an effect in flight until it ends. The store knows it
///   without the middleware's help: a `send` binds a task-local value while the middlewares
///   run, every task started in them inherits it, and it is released when the last of those
///   tasks ends. Tasks started for the actions they dispatch count for the same `send`.
///
/// A task cannot be cancelled from outside it: `cancel:` and `skipInFlightEffects:` stop
/// waiting for a send's tasks and drop what they dispatch from then on.
@MainActor
public final class ReduxTestStore<State: ReduxState & Codable & Equatable>: SpecStore {
  public typealias Action = ReduxAction

  /// The state as of the last step asserted.
  public private(set) var state: State
  public var exhaustivity: SpecExhaustivity = .on
  /// How long `receive:` and `finish:` wait, by default.
  public var timeout: Duration = .seconds(1)
  public var dependencies: DependencyValues {
    get { inbox.dependencies }
    set { inbox.dependencies = newValue }
  }

  private let inbox: Inbox<State>
  private let location: StepLocation
  private var nextSend = 0
  private var isCompleted = false

  /// A store that starts from `initialState`.
  ///
  /// - Parameters:
  ///   - prepareDependencies: Overrides of dependencies; all others take their `testValue`.
  ///   - location: Where to report what fails at the end of the test.
  public init(
    initialState: State,
    reducer: @escaping Reducer<State>,
    middlewares: [Middleware<State>],
    actionTypes: ReduxActionTypes,
    prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    at location: StepLocation
  ) {
    var values = DependencyValues._current
    values.context = .test
    prepareDependencies(&values)
    self.state = initialState
    self.location = location
    self.inbox = Inbox(
      state: initialState, reducer: reducer, middlewares: middlewares, actionTypes: actionTypes, dependencies: values)
  }

  // MARK: - Steps

  public func send(_ action: ReduxAction, expecting expected: ExpectedState<State>?, at location: StepLocation) async
    -> SentTask
  {
    let pending = inbox.received
    if !pending.isEmpty {
      switch exhaustivity {
      case .on:
        report(
          """
          Must handle \(plural(pending.count, "received action")) before sending an action.

          Unhandled actions: \(String(customDumping: pending.map(\.action)))
          """, at: location)
      case .off:
        state = pending[pending.count - 1].after
        inbox.removeReceived(pending.count)
      }
    }
    nextSend += 1
    let id = nextSend
    let before = inbox.reduce(action.action)
    check(before: state, after: inbox.reducerState, expected: expected, at: location)
    state = inbox.reducerState
    // Every task that the middlewares start holds `effects` until it ends.
    let effects = SentEffects(id: id, location: location, inbox: inbox)
    SentEffects.$current.withValue(effects) {
      inbox.runMiddlewares(state: before, action: action.action)
    }
    await Task.yield()
    return SentTask(id: id, store: self)
  }

  public func receive(
    _ action: ReduxAction, timeout: Duration?, expecting expected: ExpectedState<State>?, at location: StepLocation
  ) async {
    await waitForReceivedAction(matching: { $0 == action }, timeout: timeout ?? self.timeout, at: location)
    take(
      matching: { $0 == action },
      failureMessage: "Expected to receive the following action, but didn't:\n\n\(String(customDumping: action).indent(by: 2))",
      unexpected: { actual in
        guard let difference = diff(action, actual, format: .proportional) else {
          return "Expected:\n\(String(customDumping: action).indent(by: 2))\n\nReceived:\n\(String(customDumping: actual).indent(by: 2))"
        }
        return "\(difference.indent(by: 4))\n\n(Expected: −, Received: +)"
      },
      expected: expected, at: location)
  }

  public func receive(
    matching isMatching: @escaping (ReduxAction) -> Bool, description: String, timeout: Duration?,
    expecting expected: ExpectedState<State>?, at location: StepLocation
  ) async {
    await waitForReceivedAction(matching: isMatching, timeout: timeout ?? self.timeout, at: location)
    take(
      matching: isMatching,
      failureMessage: "Expected to receive \(description), but didn't get one.",
      unexpected: { String(customDumping: $0).indent(by: 2) },
      expected: expected, at: location)
  }

  public func skipReceivedActions(strict: Bool, at location: StepLocation) async {
    await Task.yield()
    let pending = inbox.received
    guard !pending.isEmpty else {
      if strict { report("There were no received actions to skip.", at: location) }
      return
    }
    state = pending[pending.count - 1].after
    inbox.removeReceived(pending.count)
  }

  public func skipInFlightEffects(strict: Bool, at location: StepLocation) async {
    await Task.yield()
    if inbox.running.isEmpty {
      if strict { report("There were no in-flight effects to skip.", at: location) }
      return
    }
    inbox.dropAll()
  }

  public func finish(timeout: Duration?, at location: StepLocation) async {
    if exhaustivity == .on, !inbox.received.isEmpty { reportUnhandledReceived(at: location) }
    await waitForEffects(timeout: timeout ?? self.timeout, at: location) { $0.isEmpty }
  }

  public func assert(_ expected: @escaping (inout State) throws -> Void, at location: StepLocation) {
    var expectedState = state
    do {
      try expected(&expectedState)
    } catch {
      report("Threw error: \(error)", at: location)
      return
    }
    if expectedState != state { report(stateMismatch(expected: expectedState, actual: state), at: location) }
  }

  /// The end of a scenario. When exhaustive, it first gives the middlewares' tasks up to the
  /// store's ``timeout`` to end: they run on threads of their own, and one that only needs a
  /// moment is not a failure.
  public func completed() async {
    guard !isCompleted else { return }
    isCompleted = true
    if exhaustivity == .on {
      let deadline = ContinuousClock.now.advanced(by: timeout)
      while !inbox.running.isEmpty, ContinuousClock.now < deadline { await idle() }
      if !inbox.received.isEmpty { reportUnhandledReceived(at: location) }
      var reported: Set<String> = []
      for location in inbox.running.sorted(by: { $0.key < $1.key }).map(\.value)
      where reported.insert("\(location.line):\(location.column)").inserted {
        report(effectStillRunning, at: location)
      }
    }
    inbox.removeReceived(inbox.received.count)
    inbox.dropAll()
  }

  // MARK: - Recording

  public var receivedActions: [(action: ReduxAction, before: State, after: State)] { inbox.received }

  public func waitForReceivedActions(timeout: Duration?) async {
    let deadline = ContinuousClock.now.advanced(by: timeout ?? self.timeout)
    await Task.yield()
    while inbox.received.isEmpty, !inbox.running.isEmpty, ContinuousClock.now < deadline { await idle() }
  }

  /// A middleware's task runs on a thread of its own, so what it dispatches at once may not
  /// have arrived when the next `send:` is recorded.
  public func waitForEffectsBeforeRecordedSend(timeout: Duration?) async {
    await waitForReceivedActions(timeout: timeout)
  }

  public func removeReceivedActions(_ count: Int) {
    let pending = inbox.received
    guard count > 0, count <= pending.count else { return }
    state = pending[count - 1].after
    inbox.removeReceived(count)
  }

  public static func waitForCancelledEffects(timeout: Duration) async {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while SentEffects.alive > 0, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(1)) }
  }

  // MARK: - Internals

  /// What `cancel:` and `finish:` do to the tasks of one `send`.
  public struct SentTask: SpecStoreTask {
    let id: Int
    let store: ReduxTestStore

    public func cancel() async { store.inbox.drop(id) }

    public func finish(timeout: Duration?, at location: StepLocation) async {
      await store.waitForEffects(timeout: timeout ?? store.timeout, at: location) { $0[id] == nil }
    }
  }


  private func waitForReceivedAction(
    matching isMatching: (ReduxAction) -> Bool, timeout: Duration, at location: StepLocation
  ) async {
    func hasAction() -> Bool {
      exhaustivity == .on ? !inbox.received.isEmpty : inbox.received.contains { isMatching($0.action) }
    }
    await Task.yield()
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while !hasAction() {
      guard !inbox.running.isEmpty else { return }
      if ContinuousClock.now >= deadline {
        report(
          """
          Expected to receive \(exhaustivity == .on ? "an action" : "a matching action"), but received none\
          \(timeout > .zero ? " after \(seconds(timeout))" : "").

          There are effects in-flight. If the task that dispatches this action sleeps on a clock, add an \
          "advance:" step that moves the test clock far enough for it to wake up; if it only needs more time, \
          give the step a longer "timeout:".
          """, at: location)
        return
      }
      await idle()
    }
  }

  private func waitForEffects(
    timeout: Duration, at location: StepLocation, until isDone: ([Int: StepLocation]) -> Bool
  ) async {
    await Task.yield()
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while !isDone(inbox.running) {
      if ContinuousClock.now >= deadline {
        report(
          """
          Expected effects to finish, but there are still effects in-flight\
          \(timeout > .zero ? " after \(seconds(timeout))" : "").

          If a task sleeps on a clock, add an "advance:" step that moves the test clock far enough for it \
          to wake up; if it only needs more time, give the step a longer "timeout:".
          """, at: location)
        return
      }
      await idle()
    }
  }

  /// Takes the next received action, as TCA's `TestStore` does: fails when there is none
  /// (or, when not exhaustive, none that matches), or when it does not match; otherwise
  /// checks the state it left. ``state`` becomes that state either way.
  private func take(
    matching isMatching: (ReduxAction) -> Bool, failureMessage: String, unexpected: (ReduxAction) -> String,
    expected: ExpectedState<State>?, at location: StepLocation
  ) {
    var pending = inbox.received
    guard !pending.isEmpty else {
      report(failureMessage, at: location)
      return
    }
    if exhaustivity != .on {
      guard let index = pending.firstIndex(where: { isMatching($0.action) }) else {
        report(failureMessage, at: location)
        return
      }
      if index > 0 {
        state = pending[index - 1].after
        inbox.removeReceived(index)
        pending.removeSubrange(..<index)
      }
    }
    let item = pending[0]
    inbox.removeReceived(1)
    if isMatching(item.action) {
      check(before: state, after: item.after, expected: expected, at: location)
    } else {
      report("Received unexpected action:\n\n\(unexpected(item.action))", at: location)
    }
    state = item.after
  }

  /// Checks the state a step left, as TCA's `TestStore` does: exhaustively, everything; when
  /// not, only what the step states.
  private func check(before: State, after: State, expected: ExpectedState<State>?, at location: StepLocation) {
    do {
      switch exhaustivity {
      case .on:
        let expectedState = try expected?(before, after) ?? before
        if expectedState != after {
          report(
            stateMismatch(
              expected == nil
                ? "State was not expected to change, but a change occurred." : "A state change does not match expectation.",
              expected: expectedState, actual: after), at: location)
        } else if expected != nil, expectedState == before {
          report(
            """
            Expected state to change, but no change occurred.

            The trailing closure made no observable modifications to state. If no change to state is \
            expected, omit the trailing closure.
            """, at: location)
        }
      case .off:
        let expectedState = try expected?(after, after) ?? after
        if expectedState != after { report(stateMismatch(expected: expectedState, actual: after), at: location) }
      }
    } catch {
      report("Threw error: \(error)", at: location)
    }
  }

  private func reportUnhandledReceived(at location: StepLocation) {
    let pending = inbox.received
    report(
      """
      The store received \(plural(pending.count, "unexpected action")).

        Unhandled actions:
      \(pending.map { "    " + $0.action.name }.joined(separator: "\n"))

      To fix, receive these actions with "receive:" steps, skip them with "skipReceivedActions: true", or check \
      less with "exhaustivity: off".
      """, at: location)
  }

  private func stateMismatch(
    _ heading: String = "A state change does not match expectation.", expected: State, actual: State
  ) -> String {
    guard let difference = diff(expected, actual, format: .proportional) else {
      return """
        \(heading)

        Expected:
        \(String(customDumping: expected).indent(by: 2))

        Actual:
        \(String(customDumping: actual).indent(by: 2))
        """
    }
    return "\(heading)\n\n\(difference.indent(by: 4))\n\n(Expected: −, Actual: +)"
  }

  private func report(_ message: String, at location: StepLocation) {
    reportIssue(message, fileID: location.fileID, filePath: location.fileID, line: location.line, column: location.column)
  }

  /// Lets the middlewares' tasks run for a moment.
  private func idle() async {
    await Task.yield()
    try? await Task.sleep(for: .milliseconds(1))
  }
}

/// The store's state as the reducer left it, the queue of dispatched actions, and the sends
/// whose tasks still run: shared with the middlewares' tasks, which dispatch from any thread.
final class Inbox<State: ReduxState & Equatable>: @unchecked Sendable {
  private let lock = NSLock()
  private var _reducerState: State
  private var _received: [(action: ReduxAction, before: State, after: State)] = []
  /// The location of each `send` whose tasks still run, by the send's number.
  private var _running: [Int: StepLocation] = [:]
  /// Sends whose tasks were cancelled or skipped: what they dispatch is dropped.
  private var dropped: Set<Int> = []
  private var _dependencies: DependencyValues
  private let reducer: Reducer<State>
  private let middlewares: [Middleware<State>]
  private let actionTypes: ReduxActionTypes

  init(
    state: State, reducer: @escaping Reducer<State>, middlewares: [Middleware<State>], actionTypes: ReduxActionTypes,
    dependencies: DependencyValues
  ) {
    _reducerState = state
    self.reducer = reducer
    self.middlewares = middlewares
    self.actionTypes = actionTypes
    _dependencies = dependencies
  }

  var reducerState: State { lock.withLock { _reducerState } }
  var received: [(action: ReduxAction, before: State, after: State)] { lock.withLock { _received } }
  var running: [Int: StepLocation] { lock.withLock { _running } }
  var dependencies: DependencyValues {
    get { lock.withLock { _dependencies } }
    set { lock.withLock { _dependencies = newValue } }
  }

  /// Runs the reducer on the action; returns the state it started from.
  func reduce(_ action: any Action) -> State {
    lock.withLock {
      let before = _reducerState
      _reducerState = reducer(before, action)
      return before
    }
  }

  /// Calls every middleware, in order, with the dependencies of the store.
  func runMiddlewares(state: State, action: any Action) {
    let dispatch: Dispatcher = { [weak self] action in self?.dispatch(action, from: SentEffects.current) }
    DependencyValues.$_current.withValue(dependencies) {
      for middleware in middlewares { middleware(state, action, dispatch) }
    }
  }

  /// An action a middleware dispatched: reduced, queued, and handed to the middlewares.
  func dispatch(_ action: any Action, from effects: SentEffects?) {
    let name = ReduxAction.name(of: type(of: action))
    guard let specAction = action as? any SpecAction, actionTypes.names.contains(name) else {
      reportIssue(
        action is any SpecAction
          ? "A middleware dispatched `\(name)`, which \(actionTypes.feature) does not register: add `\(name).self` to its `actions:`"
          : "A middleware dispatched `\(name)`, which specs cannot receive: declare it `Codable` and `Equatable`, and add `\(name).self` to the `actions:` of \(actionTypes.feature)")
      return
    }
    let before: State? = lock.withLock {
      if let effects, dropped.contains(effects.id) { return nil }
      let before = _reducerState
      let after = reducer(before, action)
      _reducerState = after
      _received.append((ReduxAction(specAction), before, after))
      return before
    }
    guard let before else { return }
    runMiddlewares(state: before, action: action)
  }

  func removeReceived(_ count: Int) {
    lock.withLock { _received.removeFirst(min(count, _received.count)) }
  }

  func started(_ id: Int, at location: StepLocation) { lock.withLock { _running[id] = location } }
  func ended(_ id: Int) { lock.withLock { _ = _running.removeValue(forKey: id) } }

  /// Stops waiting for the tasks of a send, and drops what they dispatch from now on.
  func drop(_ id: Int) {
    lock.withLock {
      dropped.insert(id)
      _running[id] = nil
    }
  }

  func dropAll() {
    lock.withLock {
      dropped.formUnion(_running.keys)
      _running.removeAll()
    }
  }
}

/// The tasks of one `send`: each task a middleware starts inherits this value (a task-local)
/// and holds it until it ends, so it is released when the last of them has ended.
final class SentEffects: Sendable {
  @TaskLocal static var current: SentEffects?

  let id: Int
  private let inbox: any EffectsInbox

  init<State>(id: Int, location: StepLocation, inbox: Inbox<State>) {
    self.id = id
    self.inbox = inbox
    inbox.started(id, at: location)
    Self.count.withLock { $0 += 1 }
  }

  deinit {
    inbox.ended(id)
    Self.count.withLock { $0 -= 1 }
  }

  /// How many sends' tasks are still alive, in every store.
  static var alive: Int { count.withLock { $0 } }
  private static let count = LockedCount()
}

/// An ``Inbox`` of any state, for ``SentEffects`` to tell when its tasks end.
protocol EffectsInbox: Sendable {
  func ended(_ id: Int)
}

extension Inbox: EffectsInbox {}

final class LockedCount: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0

  func withLock<R>(_ body: (inout Int) -> R) -> R {
    lock.withLock { body(&value) }
  }
}

/// The failure of a task still running at the end of a scenario, at the send that started it.
private let effectStillRunning = """
  An effect returned for this action is still running. It must complete before the end of the test.

  To fix, make every task that the middlewares start for this action finish by the end of the scenario:

  • If a task sleeps on a test clock, add an "advance:" step that moves the clock far enough for it to wake up.

  • If a task waits for a response held with "after:", add an "advance:" step past it.

  • If a task only needs a moment, add a "finish: true" step.

  To leave the tasks running unchecked, add a "skipInFlightEffects: true" step, or check less with \
  "exhaustivity: off".
  """

private func plural(_ count: Int, _ noun: String) -> String {
  "\(count) \(noun)\(count == 1 ? "" : "s")"
}

private func seconds(_ duration: Duration) -> String {
  let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  return "\(seconds) seconds"
}

extension String {
  fileprivate func indent(by count: Int) -> String {
    let padding = String(repeating: " ", count: count)
    return split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : padding + $0 }
      .joined(separator: "\n")
  }
}
