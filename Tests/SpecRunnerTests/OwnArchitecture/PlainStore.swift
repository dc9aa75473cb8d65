import CustomDump
import Dependencies
import IssueReporting
import SpecRunner

/// A test store for an architecture whose reducer is a plain function: it changes the state
/// and returns actions, which are fed back to it at once, as effects that end as they start.
///
/// Exhaustive as TCA's `TestStore`: every state change must be expected, and every action fed
/// back must be received, in order. With exhaustivity off, only what a step states is checked
/// and the actions that no step receives are skipped (with no notes of what was skipped).
@MainActor
final class PlainStore<State: Codable & Equatable, Action: Codable & Equatable>: SpecStore {
  /// The state as of the last step that checked it.
  private(set) var state: State
  var exhaustivity = SpecExhaustivity.on
  /// What the reducer runs with.
  var dependencies = DependencyValues()
  /// The actions fed back and not received yet, with the state before and after each.
  private(set) var receivedActions: [(action: Action, before: State, after: State)] = []
  private let reducer: (inout State, Action) -> [Action]
  /// Where the scenario is in its spec: what it leaves unreceived fails there.
  private let scenario: StepLocation

  init(
    initialState: State, reduce: @escaping (inout State, Action) -> [Action],
    prepareDependencies: (inout DependencyValues) -> Void, location: StepLocation
  ) {
    state = initialState
    reducer = reduce
    scenario = location
    dependencies.context = .test
    prepareDependencies(&dependencies)
  }

  /// Runs the reducer on `action`, then on each action it returns, in order, and on those they
  /// return, queueing each of these to be received.
  func send(_ action: Action, expecting expected: ExpectedState<State>?, at location: StepLocation) async -> PlainTask {
    dropReceivedActions(at: location)
    var after = state
    var fedBack = reduce(&after, action)
    check(before: state, after: after, expected, at: location)
    state = after
    while !fedBack.isEmpty {
      let (next, before) = (fedBack.removeFirst(), after)
      fedBack += reduce(&after, next)
      receivedActions.append((next, before, after))
    }
    return PlainTask()
  }

  func receive(_ action: Action, timeout: Duration?, expecting expected: ExpectedState<State>?, at location: StepLocation)
    async
  {
    take(
      { $0 == action }, expected, at: location,
      none: "Expected to receive the following action, but didn't:\n\n\(indent(String(customDumping: action), 2))",
      unexpected: { difference(action, $0, "Received") })
  }

  func receive(
    matching isMatching: @escaping (Action) -> Bool, description: String, timeout: Duration?,
    expecting expected: ExpectedState<State>?, at location: StepLocation
  ) async {
    take(
      isMatching, expected, at: location, none: "Expected to receive \(description), but didn't get one.",
      unexpected: { "\(indent(String(customDumping: $0), 2))\n\n(Expected \(description).)" })
  }

  func skipReceivedActions(strict: Bool, at location: StepLocation) async {
    if strict, receivedActions.isEmpty { report("There were no received actions to skip.", at: location) }
    removeReceivedActions(receivedActions.count)
  }

  func removeReceivedActions(_ count: Int) {
    guard count > 0 else { return }
    state = receivedActions[count - 1].after
    receivedActions.removeFirst(count)
  }

  func assert(_ expected: @escaping (inout State) throws -> Void, at location: StepLocation) {
    check(
      before: state, after: state,
      { start, _ in
        var state = start
        try expected(&state)
        return state
      }, at: location)
  }

  func completed() { dropReceivedActions(at: scenario) }

  // Nothing is ever in flight: the actions fed back are queued by the time `send` returns.
  func finish(timeout: Duration?, at location: StepLocation) async {}
  func waitForReceivedActions(timeout: Duration?) async {}
  func skipInFlightEffects(strict: Bool, at location: StepLocation) async {
    if strict { report("There were no in-flight effects to skip.", at: location) }
  }

  private func reduce(_ state: inout State, _ action: Action) -> [Action] {
    withDependencies { $0 = dependencies } operation: { reducer(&state, action) }
  }

  /// Exhaustive, `after` must be what `expected` makes of `before` (`before` itself without
  /// it); not, what `expected` makes of `after`.
  private func check(before: State, after: State, _ expected: ExpectedState<State>?, at location: StepLocation) {
    let start = exhaustivity == .on ? before : after
    let wanted: State
    do {
      wanted = try expected?(start, after) ?? start
    } catch {
      return report("Threw error: \(error)", at: location)
    }
    guard wanted != after else { return }
    let heading =
      expected == nil
      ? "State was not expected to change, but a change occurred." : "A state change does not match expectation."
    report("\(heading)\n\n\(difference(wanted, after, "Actual"))", at: location)
  }

  /// Takes the next action fed back (not exhaustive: the next that matches) and checks it.
  private func take(
    _ isMatching: (Action) -> Bool, _ expected: ExpectedState<State>?, at location: StepLocation, none: String,
    unexpected: (Action) -> String
  ) {
    let index =
      exhaustivity == .on ? receivedActions.indices.first : receivedActions.firstIndex { isMatching($0.action) }
    guard let index else { return report(none, at: location) }
    let next = receivedActions[index]
    removeReceivedActions(index + 1)
    if isMatching(next.action) {
      check(before: next.before, after: next.after, expected, at: location)
    } else {
      report("Received unexpected action:\n\n\(unexpected(next.action))", at: location)
    }
  }

  /// Fails, when exhaustive, for the actions fed back and not received; then drops them.
  private func dropReceivedActions(at location: StepLocation) {
    let count = receivedActions.count
    if exhaustivity == .on, count > 0 {
      report(
        """
        The store received \(count) unexpected action\(count == 1 ? "" : "s").

          Unhandled actions:
        \(receivedActions.map { indent(String(customDumping: $0.action), 4) }.joined(separator: "\n"))

        To fix, receive these actions with "receive:" steps, skip them with "skipReceivedActions: true", \
        or check less with "exhaustivity: off".
        """, at: location)
    }
    removeReceivedActions(count)
  }

  private func report(_ message: String, at location: StepLocation) {
    reportIssue(message, fileID: location.fileID, filePath: location.fileID, line: location.line, column: location.column)
  }
}

/// What a `send:` returns: its effects, which ended as they started.
struct PlainTask: SpecStoreTask {
  func cancel() async {}
  func finish(timeout: Duration?, at location: StepLocation) async {}
}

extension Feature {
  /// A feature whose reducer is a plain function, run by a ``PlainStore``.
  init<State: Codable & Equatable & SendableMetatype, Action: Codable & Equatable>(
    _ name: String, initialState: @autoclosure @escaping @Sendable () -> State, stubs: [Stub] = [],
    reduce: @escaping @Sendable (inout State, Action) -> [Action]
  ) {
    self.init(name, initialState: initialState(), stubs: stubs) { initialState, prepareDependencies, location in
      PlainStore(initialState: initialState, reduce: reduce, prepareDependencies: prepareDependencies, location: location)
    }
  }
}

/// CustomDump's difference of two values, and which side is which.
private func difference<T>(_ expected: T, _ actual: T, _ actualName: String) -> String {
  let lines = diff(expected, actual, format: .proportional) ?? "(they differ, but dump the same)"
  return "\(indent(lines, 4))\n\n(Expected: −, \(actualName): +)"
}

private func indent(_ text: String, _ count: Int) -> String {
  text.split(separator: "\n", omittingEmptySubsequences: false).map { String(repeating: " ", count: count) + $0 }
    .joined(separator: "\n")
}
