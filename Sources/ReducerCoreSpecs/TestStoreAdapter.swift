import CustomDump
import Dependencies
import ReducerCore
import SpecRunner

/// ReducerCore's `TestStore`, as the runner drives it: the store of every feature
/// registered with a reducer (``SpecRunner/Feature/init(_:initialState:stubs:reducer:)``).
///
/// Each call passes straight on to the test store, with the step's line and column, so
/// what fails is TCA's `TestStore` failure, word for word, at the step.
@MainActor
public final class TestStoreAdapter<State: Codable & Equatable, Action: Codable & Equatable>: SpecStore {
  /// The test store that runs the scenario.
  public let store: TestStore<State, Action>

  /// Drives `store`.
  public init(_ store: TestStore<State, Action>) {
    self.store = store
  }

  public var state: State { store.state }

  public var exhaustivity: SpecExhaustivity {
    get {
      switch store.exhaustivity {
      case .on: .on
      case .off(let showSkippedAssertions): .off(showSkippedAssertions: showSkippedAssertions)
      }
    }
    set {
      switch newValue {
      case .on: store.exhaustivity = .on
      case .off(let showSkippedAssertions): store.exhaustivity = .off(showSkippedAssertions: showSkippedAssertions)
      }
    }
  }

  public var dependencies: DependencyValues {
    get { store.dependencies }
    set { store.dependencies = newValue }
  }

  public func send(_ action: Action, expecting expected: ExpectedState<State>?, at location: StepLocation) async
    -> TestStoreTask
  {
    await store.send(
      action, expectation: expected.map(StateExpectation.init), fileID: location.fileID, file: location.fileID,
      line: location.line, column: location.column)
  }

  public func receive(
    _ action: Action, timeout: Duration?, expecting expected: ExpectedState<State>?, at location: StepLocation
  ) async {
    await store.receive(
      action, timeout: timeout, expectation: expected.map(StateExpectation.init), fileID: location.fileID,
      file: location.fileID, line: location.line, column: location.column)
  }

  public func receive(
    matching isMatching: @escaping (Action) -> Bool, description: String, timeout: Duration?,
    expecting expected: ExpectedState<State>?, at location: StepLocation
  ) async {
    await store.receive(
      isMatching, expecting: description, timeout: timeout, expectation: expected.map(StateExpectation.init),
      fileID: location.fileID, file: location.fileID, line: location.line, column: location.column)
  }

  public func skipReceivedActions(strict: Bool, at location: StepLocation) async {
    await store.skipReceivedActions(
      strict: strict, fileID: location.fileID, file: location.fileID, line: location.line, column: location.column)
  }

  public func skipInFlightEffects(strict: Bool, at location: StepLocation) async {
    await store.skipInFlightEffects(
      strict: strict, fileID: location.fileID, file: location.fileID, line: location.line, column: location.column)
  }

  public func finish(timeout: Duration?, at location: StepLocation) async {
    await store.finish(
      timeout: timeout, fileID: location.fileID, file: location.fileID, line: location.line, column: location.column)
  }

  public func assert(_ expected: @escaping (inout State) throws -> Void, at location: StepLocation) {
    store.assert(
      expected, fileID: location.fileID, file: location.fileID, line: location.line, column: location.column)
  }

  public func completed() async { store.completed() }

  public var receivedActions: [(action: Action, before: State, after: State)] { store.receivedActions }

  public func waitForReceivedActions(timeout: Duration?) async { await store.waitForReceivedActions(timeout: timeout) }

  public func removeReceivedActions(_ count: Int) { store.removeReceivedActions(count) }

  public func readingSharedValuesBeforeUnassertedChanges<R>(_ body: () -> R) -> R {
    store.readingSharedValuesBeforeUnassertedChanges(body)
  }

  public func readingCurrentSharedValues<R>(_ body: () -> R) -> R { store.readingCurrentSharedValues(body) }

  public static func waitForCancelledEffects(timeout: Duration) async {
    _ = await EffectTasks.waitUntilNoneRunning(timeout: timeout)
  }

  public nonisolated static func messageForSpecs(_ message: String, sentAction: Any?) -> String {
    TestStoreMessages.withSentAction(sentAction, in: TestStoreMessages.forSpecs(message))
  }
}

extension TestStoreTask: SpecStoreTask {
  public func finish(timeout: Duration?, at location: StepLocation) async {
    await finish(
      timeout: timeout, fileID: location.fileID, file: location.fileID, line: location.line, column: location.column)
  }
}

/// `TestStore`'s messages, said for specs.
enum TestStoreMessages {
  /// A message about an action for a missing element, with the action a step sent shown whole
  /// (`.element(id: 7, action: .toggle)`) where TCA's wording abbreviates it to its cases
  /// (`.element(id:, action:)`), which leaves out the id that is missing.
  static func withSentAction(_ action: Any?, in message: String) -> String {
    guard let action, message.contains("for a missing element.") else { return message }
    let abbreviated = "\n    \(debugCaseOutput(action))\n"
    guard message.contains(abbreviated) else { return message }
    let whole = String(customDumping: action).split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
    return message.replacingOccurrences(of: abbreviated, with: "\n\(whole)\n")
  }

  /// TestStore's advice for Swift tests, said the way a spec author acts on it.
  static func forSpecs(_ message: String) -> String {
    var message = message
    for (swift, spec) in adviceForSpecs where message.contains(swift) {
      message = message.replacingOccurrences(of: swift, with: spec)
    }
    return message
  }

  /// TestStore's words for a Swift test, and what a spec author does instead.
  private static let adviceForSpecs = [
    (
      TestStoreMessage.effectStillRunningAdvice,
      """
      To fix, make every effect that this action starts finish by the end of the scenario:

      • If an effect sleeps on a test clock, add an "advance:" step that moves the clock far enough \
      for it to wake up.

      • If an effect waits for a response held with "after:", add an "advance:" step past it.

      • If an effect is long-living (a timer, a stream), cancel it with a later action, or name the \
      send with "as:" and add a "cancel:" step for it.

      • If an effect only needs a moment, add a "finish: true" step.

      To leave the effects running unchecked, add a "skipInFlightEffects: true" step, or check less \
      with "exhaustivity: off".
      """
    ),
    (
      "but the test did not override it. Give it a value in the \"withDependencies\" closure of the test store.",
      "but the scenario does not stub it. Stub it under `dependencies:` (for example `uuid: incrementing`, "
        + "`date: 2024-05-01T09:00:00Z`, `random: { seed: 42 }`)."
    ),
    (
      "To fix, explicitly assert against these actions using \"store.receive\", skip these actions by performing "
        + "\"await store.skipReceivedActions()\", or consider using a non-exhaustive test store: "
        + "\"store.exhaustivity = .off\".",
      "To fix, receive these actions with \"receive:\" steps, skip them with \"skipReceivedActions: true\", or "
        + "check less with \"exhaustivity: off\"."
    ),
    (
      "configure this assertion with an explicit \"timeout\"",
      "give the step a \"timeout:\" of its own"
    ),
    (
      "try increasing the duration of this assertion's \"timeout\"",
      "give the step a longer \"timeout:\""
    ),
  ]
}
