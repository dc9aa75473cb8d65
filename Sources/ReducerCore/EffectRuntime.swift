import ConcurrencyExtras
import Foundation
import IssueReporting

/// Where an effect came from: the `send` (or the action) whose reducer returned it.
public struct EffectOrigin: Sendable, Hashable {
  public var fileID: StaticString
  public var filePath: StaticString
  public var line: UInt
  public var column: UInt
  private let describe: Description

  /// Describes the action only when a message needs it: sending stays cheap.
  private final class Description: @unchecked Sendable {
    private let make: () -> String
    private lazy var text: String = make()
    /// One lock for every description: a description is made only for a message, so they
    /// hardly ever wait for each other, and an `NSLock` of each origin's own cost a step with
    /// an effect an object and three allocations of its mutex, made and freed.
    private static let lock = NSLock()

    init(_ make: @escaping () -> String) {
      self.make = make
    }

    var value: String {
      Self.lock.lock()
      defer { Self.lock.unlock() }
      return text
    }
  }

  init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt, action: @autoclosure @escaping () -> String) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
    self.describe = Description(action)
  }

  /// A description of the action that started the effect.
  public var action: String { describe.value }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.fileID.description == rhs.fileID.description && lhs.line == rhs.line && lhs.column == rhs.column
      && lhs.action == rhs.action
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(fileID.description)
    hasher.combine(line)
    hasher.combine(column)
    hasher.combine(action)
  }
}

/// Whether the operation of one `.run` effect has returned: its `send` must not be used after.
@MainActor
final class RunCompletion {
  var isCompleted = false
}

/// An effect's operation returned, and `send` was called later (it escaped into another task).
@MainActor
func reportSendFromCompletedEffect(_ action: Any, origin: EffectOrigin) {
  reportIssue(
    """
    An action was sent from a completed effect.

      Action:
        \(debugCaseOutput(action))

      Effect returned from:
        \(origin.action.isEmpty ? "(a store's send)" : origin.action.indent(by: 4).dropFirst(4))

    Avoid sending actions using the 'send' argument from 'Effect.run' after the effect has \
    completed. This can happen if you escape the 'send' argument in an unstructured context.

    To fix this, make sure that your 'run' closure does not return until you're done calling 'send'.
    """,
    fileID: origin.fileID, filePath: origin.filePath, line: origin.line, column: origin.column)
}

/// The tasks of effects in this process that started and have not returned yet, whatever
/// store started them.
///
/// A store's piece counts as finished as soon as it is cancelled, but its task goes on
/// until the operation notices the cancellation and returns (with a `TestStore`, on the
/// main actor). A process that ends right after its last scenario (a worker whose input
/// ended) can wait for them, so that it ends with every effect's task returned: otherwise
/// what those tasks hold is still allocated at exit, which LeakSanitizer reports as leaks
/// (docs/reliability.md).
@MainActor
package enum EffectTasks {
  /// How many effect tasks started and have not returned.
  package private(set) static var running = 0

  static func started() { running += 1 }
  static func ended() { running -= 1 }

  /// Waits until no effect task is left, or `timeout` passed (an operation that ignores
  /// cancellation never returns); whether none is left.
  @discardableResult
  package static func waitUntilNoneRunning(timeout: Duration) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while running > 0 {
      if ContinuousClock.now >= deadline { return false }
      try? await Task.sleep(for: .milliseconds(1))
    }
    return true
  }
}

/// What a store keeps for its effects from one run to the next, handed to their operations
/// through ``Send``: the last send of each throttle identifier.
@MainActor
final class EffectStorage {
  /// For each throttle identifier, when its last action was sent (an instant of the
  /// throttle's clock) and the action waiting for the end of the interval, if any.
  var throttles: [AnyHashableSendable: (sentAt: Any, pending: Any?)] = [:]
}

/// One running piece of an effect: a task, and the cancellable pieces it waits for.
///
/// It does not depend on the effect's action type, so it is not nested in the generic
/// ``EffectRuntime``: the stores keep and list pieces after every step, and a type of its
/// own needs no generic metadata (for the piece, its arrays and dictionaries) each time.
@MainActor
final class EffectPiece {
  let id: Int
  let origin: EffectOrigin
  weak var parent: EffectPiece?
  var children: [EffectPiece] = []
  var task: Task<Void, Never>?
  var isCancelled = false
  var isFinished = false
  /// The pieces started by the reducer for the actions that this piece sent (and for the
  /// actions those sent at once): the effects a test store's ``TestStoreTask`` also cancels
  /// and waits for, as a TCA store's send task does. Kept only when the runtime
  /// ``EffectRuntime/tracksSpawnedEffects``.
  var spawned: [EffectPiece] = []
  /// Resumed when the piece finishes or is cancelled, whichever comes first.
  var waiters: [CheckedContinuation<Void, Never>] = []

  init(id: Int, origin: EffectOrigin, parent: EffectPiece?) {
    self.id = id
    self.origin = origin
    self.parent = parent
  }

  /// Whether this piece, a piece it started, or an effect started for an action it sent
  /// is still running.
  var isActive: Bool {
    !isFinished || children.contains { $0.isActive } || spawned.contains { $0.isActive }
  }

  /// Whether this piece or any piece under it (started by it, or for an action it sent)
  /// was cancelled.
  var isCancelledInTree: Bool {
    isCancelled || children.contains { $0.isCancelledInTree } || spawned.contains { $0.isCancelledInTree }
  }
}

/// Runs effects for a store: starts their tasks, tracks which are in flight, cancels them
/// by identifier, and hands the actions they send to `deliver`.
///
/// Everything here happens on the main actor; the operations of `.run` effects run where
/// Swift concurrency puts them (on the main serial executor under a ``TestStore``).
@MainActor
final class EffectRuntime<Action> {
  /// One running piece of an effect (``EffectPiece``).
  typealias Running = EffectPiece

  /// Hands an action sent by an effect to the store.
  var deliver: (Action, EffectOrigin) -> Void = { _, _ in }
  /// Whether effects' tasks run their nonisolated code on the main queue
  /// (``MainQueueTaskExecutor``): a test store's do.
  var runsOnMainQueue = false
  /// Whether the effects started for an action that an effect sent are kept in that
  /// effect's piece (``EffectPiece/spawned``): a test store's are, for ``TestStoreTask``.
  var tracksSpawnedEffects = false
  /// The piece whose action is being delivered (or the anchor of a test store's send),
  /// which the effects started meanwhile are spawned by.
  var delivering: EffectPiece?

  /// `@exclusivity(unchecked)`, as the test store's per-step properties: its accesses are on
  /// the main actor, and none lasts across a call out.
  @exclusivity(unchecked) private(set) var inFlight: [Int: Running] = [:]
  private var byCancelID: [AnyHashableSendable: [Int]] = [:]
  /// The tasks in ``letRun(turns:)``, resumed when the last effect finishes.
  private var idleWaiters: [IdleWaiter] = []
  private var nextID = 0
  /// What this store keeps for its effects across runs (the throttles' last sends).
  let storage = EffectStorage()

  init() {}

  /// The effects still running (pieces that no other piece started), oldest first.
  var running: [Running] {
    inFlight.values.filter { $0.parent == nil }.sorted { $0.id < $1.id }
  }

  /// Whether ``running`` is not empty, without listing and sorting it: a store asks after
  /// every step, and nearly always nothing is in flight.
  var hasRunning: Bool {
    if inFlight.isEmpty { return false }
    return inFlight.values.contains { $0.parent == nil }
  }

  /// Starts an effect; returns the pieces it started (empty when it finished at once).
  @discardableResult
  func start(_ effect: Effect<Action>, origin: EffectOrigin) -> [Running] {
    let pieces = startPieces(effect, origin: origin)
    if tracksSpawnedEffects, let delivering, !pieces.isEmpty {
      delivering.spawned.removeAll { !$0.isActive }
      delivering.spawned += pieces
    }
    return pieces
  }

  /// Hands an action to ``deliver`` as sent by `piece`: the effects its reducer starts are
  /// spawned by `piece`.
  private func deliver(_ action: Action, from piece: Running) {
    guard tracksSpawnedEffects else { return deliver(action, piece.origin) }
    let previous = delivering
    delivering = piece
    defer { delivering = previous }
    deliver(action, piece.origin)
  }

  private func startPieces(_ effect: Effect<Action>, origin: EffectOrigin) -> [Running] {
    switch effect.operation {
    case .none:
      return []
    case .send(let action):
      deliver(action, origin)
      return []
    case .cancel(let id):
      cancel(id: id)
      return []
    case .merge(let effects):
      return effects.flatMap { startPieces($0, origin: origin) }
    case .concatenate(let effects) where effect.isSynchronous:
      return effects.flatMap { startPieces($0, origin: origin) }
    case .cancellable(let id, let cancelInFlight, let inner):
      if cancelInFlight { cancel(id: id) }
      if inner.isSynchronous { return startPieces(inner, origin: origin) }
      let piece = makePiece(origin: origin, parent: nil, cancelID: id)
      launch(piece, priority: nil, running: inner)
      return [piece]
    case .run(let priority, _):
      let piece = makePiece(origin: origin, parent: nil, cancelID: nil)
      launch(piece, priority: priority, running: effect)
      return [piece]
    case .concatenate:
      let piece = makePiece(origin: origin, parent: nil, cancelID: nil)
      launch(piece, priority: nil, running: effect)
      return [piece]
    }
  }

  /// Cancels the pieces running under an identifier.
  func cancel(id: AnyHashableSendable) {
    TaskCancellations.shared.cancel(key: TaskCancellations.Key(store: ObjectIdentifier(self), scopedID: id))
    guard let ids = byCancelID.removeValue(forKey: id) else { return }
    for id in ids {
      if let piece = inFlight[id] { cancel(piece) }
    }
  }

  /// Cancels a piece and everything it started.
  func cancel(_ piece: Running) {
    guard !piece.isCancelled, !piece.isFinished else { return }
    piece.isCancelled = true
    piece.task?.cancel()
    for child in piece.children { cancel(child) }
    finish(piece)
  }

  /// Cancels a piece, everything it started, and every effect started for an action it sent:
  /// what cancelling a ``TestStoreTask`` cancels, as TCA's send task does.
  func cancelTree(_ piece: Running) {
    cancel(piece)
    for child in piece.children { cancelTree(child) }
    for spawned in piece.spawned { cancelTree(spawned) }
  }

  /// Cancels everything in flight.
  func cancelAll() {
    if inFlight.isEmpty { return }
    for piece in running where piece.parent == nil { cancel(piece) }
    for piece in running { cancel(piece) }
  }

  /// Lets the effects in flight run up to their next suspension: returns as soon as none is
  /// left running, or after the main queue has turned over `turns` times, whichever comes
  /// first. A turn ends when every job queued on the main queue before it has run.
  ///
  /// Under a ``TestStore`` every job of an effect runs on the main queue, so the waiting task
  /// suspends once, and a turn costs one function queued there (``IdleWaiter``). Before, the
  /// task yielded twenty times (`Task.yield`), each time through three or four jobs.
  func letRun(turns: Int) async {
    guard hasRunning else { return }
    let waiter = IdleWaiter()
    idleWaiters.append(waiter)
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      waiter.start(continuation, turns: turns)
    }
    // Resumed by its last turn, the waiter is still listed: a long-living effect would keep
    // every waiter of its store otherwise.
    if let index = idleWaiters.firstIndex(where: { $0 === waiter }) { idleWaiters.remove(at: index) }
  }

  /// Resumes the tasks waiting in ``letRun(turns:)`` once no effect is running.
  private func resumeIdleWaiters() {
    guard !idleWaiters.isEmpty, !hasRunning else { return }
    let waiters = idleWaiters
    idleWaiters = []
    for waiter in waiters { waiter.resume() }
  }

  /// Waits until a piece finishes or is cancelled.
  func wait(for piece: Running) async {
    if piece.isFinished { return }
    await withCheckedContinuation { continuation in
      if piece.isFinished {
        continuation.resume()
      } else {
        piece.waiters.append(continuation)
      }
    }
  }

  // MARK: - Pieces

  private func makePiece(origin: EffectOrigin, parent: Running?, cancelID: AnyHashableSendable?) -> Running {
    nextID += 1
    let piece = Running(id: nextID, origin: origin, parent: parent)
    parent?.children.append(piece)
    inFlight[piece.id] = piece
    if let cancelID { byCancelID[cancelID, default: []].append(piece.id) }
    return piece
  }

  /// Starts the task of a piece, which runs `effect` in it (``run(_:in:)``), then finishes
  /// the piece.
  private func launch(_ piece: Running, priority: TaskPriority?, running effect: Effect<Action>) {
    EffectTasks.started()
    piece.task = startTask(priority: priority) {
      await self.run(effect, in: piece)
      self.finish(piece)
      EffectTasks.ended()
    }
  }

  /// Starts an effect's task: on the main queue's task executor when ``runsOnMainQueue``.
  private func startTask(priority: TaskPriority?, _ operation: @escaping @MainActor () async -> Void) -> Task<Void, Never> {
    if runsOnMainQueue, #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
      return Task(executorPreference: MainQueueTaskExecutor.shared, priority: priority, operation: operation)
    }
    return Task(priority: priority, operation: operation)
  }

  private func finish(_ piece: Running) {
    guard !piece.isFinished else { return }
    piece.isFinished = true
    inFlight[piece.id] = nil
    let waiters = piece.waiters
    piece.waiters = []
    for waiter in waiters { waiter.resume() }
    resumeIdleWaiters()
  }

  /// Runs an effect inside a piece's task, returning when it is done (or cancelled).
  private func run(_ effect: Effect<Action>, in piece: Running) async {
    if piece.isCancelled || Task.isCancelled { return }
    switch effect.operation {
    case .none:
      return
    case .send(let action):
      deliver(action, from: piece)
    case .cancel(let id):
      cancel(id: id)
    case .run(_, let body):
      let completion = RunCompletion()
      let origin = piece.origin
      let send = Send<Action>(storage: storage) { [weak self] action in
        // As in TCA, an action sent after the operation returned is reported, then sent.
        if completion.isCompleted { reportSendFromCompletedEffect(action, origin: origin) }
        guard let self, !piece.isCancelled else { return }
        self.deliver(action, from: piece)
      }
      // `Task.cancel(id:)` in the operation cancels this store's effects.
      let store = EffectCancellation.Store(id: ObjectIdentifier(self)) { [weak self] id in self?.cancel(id: id) }
      await EffectCancellation.$store.withValue(store) {
        await body(send)
      }
      completion.isCompleted = true
    case .merge(let effects):
      var children: [Running] = []
      for effect in effects {
        let child = makePiece(origin: piece.origin, parent: piece, cancelID: nil)
        launch(child, priority: nil, running: effect)
        children.append(child)
      }
      await waitForAll(children)
    case .concatenate(let effects):
      for effect in effects {
        if piece.isCancelled || Task.isCancelled { return }
        await run(effect, in: piece)
      }
    case .cancellable(let id, let cancelInFlight, let inner):
      if cancelInFlight { cancel(id: id) }
      if inner.isSynchronous {
        await run(inner, in: piece)
        return
      }
      let child = makePiece(origin: piece.origin, parent: piece, cancelID: id)
      launch(child, priority: nil, running: inner)
      await waitForAll([child])
    }
  }

  /// Waits for pieces started inside another; cancelling the waiting task cancels them.
  private func waitForAll(_ children: [Running]) async {
    await withTaskCancellationHandler {
      for child in children { await wait(for: child) }
    } onCancel: {
      Task { @MainActor in
        for child in children { self.cancel(child) }
      }
    }
  }
}
