import Dependencies
import SpecYAML

/// A test store that the runner can drive: what a spec's steps become.
///
/// The runner knows no architecture. A feature is registered with a function that makes
/// its store (``Feature/init(_:initialState:stubs:actions:store:)``), and each step of a
/// scenario is one call on that store: `send:` is ``send(_:expecting:at:)``, `receive:` is
/// ``receive(_:timeout:expecting:at:)``, `finish:` is ``finish(timeout:at:)``, and so on.
/// ReducerCore's `TestStore` is one conformance (module `ReducerCoreSpecs`); a Redux store
/// with middleware is another (module `ReduxSpecs`).
///
/// A store reports what fails through IssueReporting's `reportIssue`, at the
/// ``StepLocation`` it is given: the runner places such an issue at that line and column of
/// the spec, and an issue reported anywhere else (an unimplemented dependency, a stub called
/// once too often) at the step that is running. It is exhaustive as TCA's `TestStore` is:
/// unless ``exhaustivity`` is off, every state change must be expected, every action that
/// effects send back must be received, in order, and every effect must have ended by
/// ``completed()``.
@MainActor
public protocol SpecStore: AnyObject {
  /// The feature's state: decoded from `initialState:`, compared after every step.
  associatedtype State: Codable & Equatable
  /// What steps send and receive: decoded from `send:` and `receive:`.
  associatedtype Action: Codable & Equatable
  /// What a `send:` returns, for the `cancel:` and `finish:` steps that name it with `as:`.
  associatedtype SentTask: SpecStoreTask

  /// The state now.
  var state: State { get }
  /// How much the store checks; a step's `exhaustivity:` sets it.
  var exhaustivity: SpecExhaustivity { get set }
  /// The dependencies that effects started from now on see: a `dependencies:` step
  /// installs its stubs here.
  var dependencies: DependencyValues { get set }

  /// Sends an action, runs what it does, and checks the state it leaves.
  ///
  /// With `expected`, the state must equal what it returns; without, it must be unchanged
  /// (when ``exhaustivity`` is on). Effects the action starts run on; what they send back
  /// waits to be received.
  func send(_ action: Action, expecting expected: ExpectedState<State>?, at location: StepLocation) async -> SentTask

  /// Takes the next action that effects sent back, waiting up to `timeout` for one (the
  /// store's own default when `nil`), and checks that it is `action` and the state it leaves.
  func receive(_ action: Action, timeout: Duration?, expecting expected: ExpectedState<State>?, at location: StepLocation)
    async

  /// Takes the next action that effects sent back, which must satisfy `isMatching`:
  /// `receive: .case.path`. `description` says what was expected, for the message when none
  /// matches (`an action in the case .response.success`).
  func receive(
    matching isMatching: @escaping (Action) -> Bool, description: String, timeout: Duration?,
    expecting expected: ExpectedState<State>?, at location: StepLocation
  ) async

  /// Drops the actions received and not yet asserted; with `strict`, fails when there are none.
  func skipReceivedActions(strict: Bool, at location: StepLocation) async
  /// Cancels the effects still running; with `strict`, fails when there are none.
  func skipInFlightEffects(strict: Bool, at location: StepLocation) async
  /// Waits up to `timeout` for every effect to end, and fails if one does not.
  func finish(timeout: Duration?, at location: StepLocation) async
  /// Checks the state as it is now: `expected` takes the state to what it must be.
  func assert(_ expected: @escaping (inout State) throws -> Void, at location: StepLocation)
  /// The end of a scenario: fails for actions received and not asserted and for effects
  /// still running, each at the step that caused it. A store whose effects run on threads of
  /// their own may first give them a moment to end.
  func completed() async

  /// The actions that effects sent back and no step has received yet, with the state
  /// before and after each: `record` writes them as steps.
  var receivedActions: [(action: Action, before: State, after: State)] { get }
  /// Waits until an action has been received or no effect can send one any more, up to
  /// `timeout` (the store's own default when `nil`).
  func waitForReceivedActions(timeout: Duration?) async
  /// Removes the first `count` of ``receivedActions`` without checking them.
  func removeReceivedActions(_ count: Int)
  /// Before `record` writes a `send:` that follows another: waits, up to `timeout` (the
  /// store's own default when `nil`), for what effects in flight send back, as a `receive:`
  /// would. A store whose `send` runs its effects until they wait has nothing to do here (the
  /// default); one whose effects run on threads of their own waits for an action or for its
  /// effects to end.
  func waitForEffectsBeforeRecordedSend(timeout: Duration?) async
  /// For `record`, on states that hold shared values, which a step's check reads as the test
  /// store does: runs `body` reading each shared value as it was before the changes that no
  /// step has asserted yet, then counts those changes as asserted, as a `receive:` would. The
  /// default runs `body`.
  func readingSharedValuesBeforeUnassertedChanges<R>(_ body: () -> R) -> R
  /// For `record`: runs `body` reading shared values as they are now, also inside the
  /// assertion of a `send:`. The default runs `body`.
  func readingCurrentSharedValues<R>(_ body: () -> R) -> R

  /// A message this store reported, as a spec's author acts on it: advice written for
  /// Swift tests (`store.receive`) said in steps (`receive:`). `sentAction` is the action
  /// of the `send:` that is running, if one is.
  nonisolated static func messageForSpecs(_ message: String, sentAction: Any?) -> String

  /// Puts the values of a scenario's `shared:` into the storages of shared state that
  /// `dependencies` holds, before a store is made with them; throws a `YAMLError` at the
  /// value that cannot be kept. The default throws: the store keeps no shared state.
  static func seed(_ shared: [SharedSeed], into dependencies: inout DependencyValues, decoder: YAMLDecoder) throws

  /// Gives `dependencies` storages of shared state of their own, empty: each run of a
  /// scenario makes its state and its store, and runs its steps, in such dependencies, so
  /// that nothing is shared between scenarios and nothing reaches real user defaults or
  /// files. The default does nothing: the store keeps no shared state.
  nonisolated static func isolateSharedState(_ dependencies: inout DependencyValues)

  /// The fields of `state` that hold shared values kept under a key, in order: what
  /// `features` lists. The default is none.
  nonisolated static func sharedFields(of state: State) -> [SharedStateField]

  /// A count of the shared values made so far, which grows whenever one is made: a state
  /// whose making makes any holds references, which each run of a scenario makes anew (in
  /// its own storages) rather than reusing the state bound. The default is always 0.
  static var sharedValuesMade: Int { get }

  /// Waits up to `timeout` for the tasks of effects that scenarios cancelled to return: a
  /// worker process waits before it exits, so that nothing of theirs is still allocated
  /// (which LeakSanitizer would report as leaked).
  static func waitForCancelledEffects(timeout: Duration) async
}

extension SpecStore {
  public nonisolated static func messageForSpecs(_ message: String, sentAction: Any?) -> String { message }

  public static func waitForCancelledEffects(timeout: Duration) async {}

  public func waitForEffectsBeforeRecordedSend(timeout: Duration?) async {}

  public func readingSharedValuesBeforeUnassertedChanges<R>(_ body: () -> R) -> R { body() }

  public func readingCurrentSharedValues<R>(_ body: () -> R) -> R { body() }

  public nonisolated static func isolateSharedState(_ dependencies: inout DependencyValues) {}

  public static var sharedValuesMade: Int { 0 }

  public nonisolated static func sharedFields(of state: State) -> [SharedStateField] { [] }

  public static func seed(_ shared: [SharedSeed], into dependencies: inout DependencyValues, decoder: YAMLDecoder)
    throws
  {
    guard let first = shared.first else { return }
    throw YAMLError(
      "this feature keeps no shared state (`@Shared`), so `shared:` has nothing to seed", at: first.keyNode)
  }
}

/// What a `send:` returned: its effects, for the `cancel:` and `finish:` steps that name it.
@MainActor
public protocol SpecStoreTask {
  /// Cancels the effects that the send started.
  func cancel() async
  /// Waits up to `timeout` for the effects that the send started to end.
  func finish(timeout: Duration?, at location: StepLocation) async
}

/// What a step's `state:` says: given the state before the step and the state it left, the
/// state it must have left. It throws when an assignment cannot apply to the state (an
/// index out of range); the store then fails at the assignment, which the error locates.
public typealias ExpectedState<State> = (_ before: State, _ actual: State) throws -> State

/// Where a step is, for a store to report an issue at: pass `fileID`, `line` and `column`
/// on to `reportIssue` (and as `filePath`, `fileID` again).
public struct StepLocation: Sendable {
  public let fileID: StaticString
  public let line: UInt
  public let column: UInt

  public init(fileID: StaticString, line: UInt, column: UInt) {
    self.fileID = fileID
    self.line = line
    self.column = column
  }
}

/// How much a store checks, as a spec's `exhaustivity:` says: `on` (everything), or `off`,
/// where only what the steps state is checked, and with `showSkippedAssertions` what they
/// leave out is noted.
public enum SpecExhaustivity: Equatable, Sendable {
  case on
  case off(showSkippedAssertions: Bool)

  /// Off, without notes.
  public static let off = Self.off(showSkippedAssertions: false)
}

/// A field of a state that holds a shared value kept under a key (`@Shared(.appStorage("isOn"))
/// var isOn = false`), as `features` lists it.
public struct SharedStateField: Equatable, Sendable {
  /// The field's name.
  public var name: String
  /// The key, as the store writes it (`.appStorage("isOn")`).
  public var key: String
  /// Where `shared:` seeds its value, when it can: the storage and the name there.
  public var seed: (storage: SharedSeed.Storage, key: String)?
  /// Whether the field only reads its key (`@SharedReader`): its value follows the key's, and
  /// a spec leaves it out of `state:`.
  public var readsOnly: Bool

  public init(
    name: String, key: String, seed: (storage: SharedSeed.Storage, key: String)?, readsOnly: Bool = false
  ) {
    self.name = name
    self.key = key
    self.seed = seed
    self.readsOnly = readsOnly
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.name == rhs.name && lhs.key == rhs.key && lhs.seed?.storage == rhs.seed?.storage && lhs.seed?.key == rhs.seed?.key
      && lhs.readsOnly == rhs.readsOnly
  }
}
