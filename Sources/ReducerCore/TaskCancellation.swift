import ConcurrencyExtras
import Foundation

/// Runs an asynchronous operation in a task that can be cancelled by an identifier, as TCA's
/// `withTaskCancellation(id:cancelInFlight:operation:)`.
///
/// ```swift
/// case .startButtonTapped:
///   return .run { send in
///     await withTaskCancellation(id: CancelID.timer, cancelInFlight: true) {
///       for await _ in clock.timer(interval: .seconds(1)) {
///         await send(.timerTick)
///       }
///     }
///   }
/// ```
///
/// `Task.cancel(id:)` and the effect `.cancel(id:)` cancel it. In an effect of a child (an
/// element of `forEach`, a presented destination), the identifier concerns that child only,
/// as the child's `.cancellable(id:)` does.
///
/// - Parameters:
///   - id: The identifier to cancel the operation by.
///   - cancelInFlight: Cancel the operations already running under `id` first.
///   - operation: The operation.
/// - Returns: The operation's result.
public func withTaskCancellation<T: Sendable>(
  id: some Hashable & Sendable,
  cancelInFlight: Bool = false,
  isolation: isolated (any Actor)? = #isolation,
  operation: @escaping @Sendable () async throws -> T
) async rethrows -> T {
  // Listed under the identifier of the current child, and of its parent and ancestors: their
  // cancellation of the identifier cancels it too.
  let keys = TaskCancellations.Key.withAncestors(id)
  do {
    // A child task, which inherits the effect's executor and task-local values, runs the
    // operation; it is listed under the identifier while it runs.
    return try await withThrowingTaskGroup(of: T.self, returning: T.self) { group in
      group.addTask {
        let token = withUnsafeCurrentTask { task in
          TaskCancellations.shared.insert(
            UncheckedSendable(task), keys: keys, cancelInFlight: cancelInFlight)
        }
        defer { TaskCancellations.shared.remove(token, keys: keys) }
        return try await operation()
      }
      return try await group.next()!
    }
  } catch {
    return try Result<T, any Error>.failure(error)._rethrowGet()
  }
}

extension Task where Success == Never, Failure == Never {
  /// Cancels the effects and the operations of ``withTaskCancellation(id:cancelInFlight:isolation:operation:)``
  /// running under an identifier, as TCA's `Task.cancel(id:)`: the effect `.cancel(id:)`, from
  /// inside an effect's operation.
  ///
  /// ```swift
  /// return .run { send in
  ///   Task.cancel(id: CancelID.response)
  ///   try Task.checkCancellation()
  ///   await send(.response)
  /// }
  /// .cancellable(id: CancelID.response)
  /// ```
  ///
  /// In an effect of a child (an element of `forEach`, a presented destination), the
  /// identifier concerns that child only. Identifiers belong to one store: the effects it
  /// cancels are those of the store that runs the calling operation. Cancelling the effect that
  /// calls it cancels the calling task itself, at once when the operation runs on the main
  /// thread (as under a ``TestStore``).
  public static func cancel(id: some Hashable & Sendable) {
    let key = TaskCancellations.Key(id)
    TaskCancellations.shared.cancel(key: key)
    guard let store = EffectCancellation.store else { return }
    if Thread.isMainThread {
      MainActor.assumeIsolated { store.cancel(key.id) }
    } else {
      Task<Void, Never> { @MainActor in store.cancel(key.id) }
    }
  }
}

/// What an effect's operation knows of the cancellation of the store that runs it.
enum EffectCancellation {
  /// The store running the current operation (set by its effect runtime around each
  /// operation): its identity, and how to cancel its effects by identifier.
  @TaskLocal static var store: Store?

  /// The cancellation scopes of the children whose effect the current operation is, outermost
  /// first (see ``Effect/scopingCancellationInOperations(to:)``).
  @TaskLocal static var scopes: [AnyHashableSendable] = []

  /// A store's effects, as an operation's `Task.cancel(id:)` reaches them.
  struct Store: Sendable {
    /// The store's effect runtime.
    let id: ObjectIdentifier
    /// Cancels the store's effects under an identifier.
    let cancel: @MainActor @Sendable (AnyHashableSendable) -> Void
  }

  /// An identifier as the current operation's child scopes it: the key its effects'
  /// `.cancellable(id:)` and `.cancel(id:)` use.
  static func scopedID(_ id: some Hashable & Sendable) -> AnyHashableSendable {
    var key = AnyHashableSendable(id)
    for scope in scopes.reversed() {
      key = AnyHashableSendable(ScopedCancelID(scope: scope, id: key))
    }
    return key
  }
}

/// A cancellation identifier of a child's effect, inside its scope.
struct ScopedCancelID: Hashable, Sendable {
  let scope: AnyHashableSendable
  let id: AnyHashableSendable
}

extension Effect {
  /// The effect of a child with its cancellation identifiers scoped to the child, in its
  /// operations too, as TCA's navigation ids scope them.
  ///
  /// - `.cancel(id:)` (and `Task.cancel(id:)`, `withTaskCancellation(id:)` in its operations)
  ///   concerns the effects of this child and of its own children only.
  /// - `.cancellable(id:)` is cancellable by the child's identifier, and by the same
  ///   identifier from the parent (and the parent's ancestors): a parent's `.cancel(id:)` also
  ///   cancels its children's effects under the identifier, never the other way round.
  func scopingCancellationInOperations(to scope: AnyHashableSendable) -> Self {
    if case .none = operation { return .none }
    return scopingChildCancellation(to: scope).map(
      { $0 },
      aroundRun: { _, operation in
        await EffectCancellation.$scopes.withValue(EffectCancellation.scopes + [scope]) { await operation() }
      })
  }

  /// ``scopingCancellationInOperations(to:)`` for the effect's structure: each
  /// `.cancellable(id:)` is registered under the child's identifier and the parent's.
  private func scopingChildCancellation(to scope: AnyHashableSendable) -> Self {
    switch operation {
    case .none, .send, .run:
      return self
    case .merge(let effects):
      return Self(.merge(effects.map { $0.scopingChildCancellation(to: scope) }))
    case .concatenate(let effects):
      return Self(.concatenate(effects.map { $0.scopingChildCancellation(to: scope) }))
    case .cancellable(let id, let cancelInFlight, let effect):
      return Self(
        .cancellable(
          AnyHashableSendable(ScopedCancelID(scope: scope, id: id)), cancelInFlight: cancelInFlight,
          Self(.cancellable(id, cancelInFlight: false, effect.scopingChildCancellation(to: scope)))))
    case .cancel(let id):
      return Self(.cancel(AnyHashableSendable(ScopedCancelID(scope: scope, id: id))))
    }
  }
}

/// The tasks of ``withTaskCancellation(id:cancelInFlight:isolation:operation:)`` in flight, by
/// store and identifier.
final class TaskCancellations: Sendable {
  static let shared = TaskCancellations()

  /// An identifier, scoped as the current operation's child scopes it, in the store that runs
  /// the operation (none outside a store).
  struct Key: Hashable, Sendable {
    let store: ObjectIdentifier?
    let id: AnyHashableSendable

    init(_ id: some Hashable & Sendable) {
      self.init(store: EffectCancellation.store?.id, scopedID: EffectCancellation.scopedID(id))
    }

    init(store: ObjectIdentifier?, scopedID: AnyHashableSendable) {
      self.store = store
      self.id = scopedID
    }

    /// The keys of an identifier in the current child, its parent and each ancestor up to the
    /// store's root, the child's first.
    static func withAncestors(_ id: some Hashable & Sendable) -> [Key] {
      let store = EffectCancellation.store?.id
      let scopes = EffectCancellation.scopes
      return (0...scopes.count).reversed().map { count in
        var key = AnyHashableSendable(id)
        for scope in scopes.prefix(count).reversed() {
          key = AnyHashableSendable(ScopedCancelID(scope: scope, id: key))
        }
        return Key(store: store, scopedID: key)
      }
    }
  }

  private let tasks = LockIsolated<[Key: [Int: UncheckedSendable<UnsafeCurrentTask?>]]>([:])
  private let nextToken = LockIsolated(0)

  /// Lists a running task under `keys` (after cancelling those listed under the first, with
  /// `cancelInFlight`); returns its token. The task takes itself off the lists
  /// (``remove(_:keys:)``) before it ends.
  func insert(_ task: UncheckedSendable<UnsafeCurrentTask?>, keys: [Key], cancelInFlight: Bool) -> Int {
    let token = nextToken.withValue {
      $0 += 1
      return $0
    }
    tasks.withValue { tasks in
      if cancelInFlight, let key = keys.first, let running = tasks.removeValue(forKey: key) {
        for task in running.values { task.value?.cancel() }
      }
      for key in keys { tasks[key, default: [:]][token] = task }
    }
    return token
  }

  /// Takes a task off the lists.
  func remove(_ token: Int, keys: [Key]) {
    tasks.withValue {
      for key in keys {
        $0[key]?[token] = nil
        if $0[key]?.isEmpty == true { $0[key] = nil }
      }
    }
  }

  /// Cancels the tasks listed under `key`.
  func cancel(key: Key) {
    tasks.withValue { tasks in
      for task in tasks.removeValue(forKey: key)?.values ?? [:].values { task.value?.cancel() }
    }
  }
}

/// A value that `get()`s a result or throws: conforming `Result` lets a `rethrows` function
/// rethrow an error that its closure threw in another task (`_rethrowGet()`).
@rethrows
protocol _ErrorMechanism {
  associatedtype Output
  func get() throws -> Output
}

extension _ErrorMechanism {
  func _rethrowGet() rethrows -> Output {
    try get()
  }
}

extension Result: _ErrorMechanism {}
