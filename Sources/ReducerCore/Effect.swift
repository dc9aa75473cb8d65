import ConcurrencyExtras
import CustomDump
import Dependencies
import IssueReporting

/// The work a reducer starts: actions to send back now, async operations that send
/// actions later, and their cancellation.
///
/// ```swift
/// case .searchButtonTapped:
///   state.isLoading = true
///   return .run { [query = state.query] send in
///     await send(.searchResponse(TaskResult { try await client.search(query) }))
///   }
///   .cancellable(id: CancelID.search, cancelInFlight: true)
/// ```
///
/// An `Effect` is a description; a ``Store`` or ``TestStore`` runs it.
public struct Effect<Action>: Sendable {
  @usableFromInline
  indirect enum Operation: @unchecked Sendable {
    case none
    case send(Action)
    case run(TaskPriority?, @Sendable (Send<Action>) async -> Void)
    case merge([Effect<Action>])
    case concatenate([Effect<Action>])
    case cancellable(AnyHashableSendable, cancelInFlight: Bool, Effect<Action>)
    case cancel(AnyHashableSendable)
  }

  @usableFromInline
  let operation: Operation

  @usableFromInline
  init(_ operation: Operation) {
    self.operation = operation
  }

  /// An effect that does nothing.
  public static var none: Self { Self(.none) }

  /// Sends an action back into the store at once, after the reducer returns.
  ///
  /// Prefer calling a helper from the reducer over sending actions to share logic;
  /// `.send` is for effects that must go through the store, as in TCA.
  public static func send(_ action: Action) -> Self {
    Self(.send(action))
  }

  /// An async operation that can send any number of actions.
  ///
  /// The operation runs with the dependencies of the reducer that returned it. A
  /// `CancellationError`, or any error thrown once the effect is cancelled, ends it quietly;
  /// any other error goes to `handler`, and without one it is reported as an issue at the line
  /// that created the effect.
  ///
  /// - Parameters:
  ///   - priority: The priority of the task that runs the operation.
  ///   - name: A name for the task, as TCA's `name:` (accepted for source compatibility; the
  ///     task is not named).
  ///   - operation: The work; call `send` to send actions.
  ///   - handler: What to do with an error that the operation throws, unless the effect was
  ///     cancelled first.
  public static func run(
    priority: TaskPriority? = nil,
    name: String? = nil,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Self {
    // The dependencies of now, restored in the task as one task-local value: what
    // `withEscapedDependencies` and its `yield` do, without their two layers of generic
    // async calls (and, in debug builds of Dependencies, two more task-local values), which
    // every step with an effect went through.
    let dependencies = DependencyValues._current
    return Self(
      .run(priority) { send in
        await DependencyValues.$_current.withValue(dependencies) {
          do {
            try await operation(send)
          } catch is CancellationError {
            return
          } catch {
            guard !Task.isCancelled else { return }
            guard let handler else {
              reportIssue(
                """
                An "Effect.run" returned from "\(fileID):\(line)" threw an unhandled error.

                \(String(customDumping: error).indentingEveryLine(by: 4))

                All non-cancellation errors must be explicitly handled via the "catch" parameter \
                on "Effect.run", or via a "do" block.
                """,
                fileID: fileID, filePath: filePath, line: line, column: column)
              return
            }
            await handler(error, send)
          }
        }
      })
  }

  /// Runs effects at the same time.
  public static func merge(_ effects: Self...) -> Self {
    merge(effects)
  }

  /// Runs effects at the same time.
  public static func merge<S: Sequence>(_ effects: S) -> Self where S.Element == Self {
    let parts = effects.flatMap { effect -> [Self] in
      switch effect.operation {
      case .none: return []
      case .merge(let inner): return inner
      default: return [effect]
      }
    }
    switch parts.count {
    case 0: return .none
    case 1: return parts[0]
    default: return Self(.merge(parts))
    }
  }

  /// This effect and another at the same time.
  public func merge(with other: Self) -> Self {
    .merge(self, other)
  }

  /// Runs effects one after the other: each starts when the one before it finishes.
  public static func concatenate(_ effects: Self...) -> Self {
    concatenate(effects)
  }

  /// Runs effects one after the other: each starts when the one before it finishes.
  public static func concatenate<S: Sequence>(_ effects: S) -> Self where S.Element == Self {
    let parts = effects.flatMap { effect -> [Self] in
      switch effect.operation {
      case .none: return []
      case .concatenate(let inner): return inner
      default: return [effect]
      }
    }
    switch parts.count {
    case 0: return .none
    case 1: return parts[0]
    default: return Self(.concatenate(parts))
    }
  }

  /// This effect, then another.
  public func concatenate(with other: Self) -> Self {
    .concatenate(self, other)
  }

  /// Makes the effect cancellable with ``cancel(id:)``.
  ///
  /// - Parameters:
  ///   - id: The identifier to cancel it by. Identifiers belong to one store.
  ///   - cancelInFlight: Cancel the effects already running under `id` before this one starts
  ///     (even when this effect is `.none`).
  public func cancellable<ID: Hashable & Sendable>(id: ID, cancelInFlight: Bool = false) -> Self {
    if case .none = operation, !cancelInFlight { return .none }
    return Self(.cancellable(AnyHashableSendable(id), cancelInFlight: cancelInFlight, self))
  }

  /// Cancels the effects running under an identifier.
  public static func cancel<ID: Hashable & Sendable>(id: ID) -> Self {
    Self(.cancel(AnyHashableSendable(id)))
  }

  /// Waits until `duration` has passed on `clock` without another effect with the same
  /// identifier starting, then runs.
  ///
  /// A newer debounced effect with the same `id` cancels this one, whether it is still
  /// waiting or already running.
  public func debounce<ID: Hashable & Sendable, C: Clock>(
    id: ID, for duration: C.Duration, clock: C
  ) -> Self where C.Duration: Sendable {
    if case .none = operation { return .none }
    return Self.concatenate(.run { _ in try await clock.sleep(for: duration) }, self)
      .cancellable(id: id, cancelInFlight: true)
  }

  /// The same effect, sending transformed actions.
  public func map<T>(_ transform: @escaping @Sendable (Action) -> T) -> Effect<T> {
    map(transform, aroundRun: nil)
  }

  /// The same effect, sending transformed actions; the operation of every `.run` runs inside
  /// `aroundRun`, which gets the transformed `send` (navigation uses it to let `dismiss` send
  /// the parent's dismissal action from the child's effects).
  func map<T>(
    _ transform: @escaping @Sendable (Action) -> T,
    aroundRun: (@Sendable (_ send: Send<T>, _ operation: @Sendable () async -> Void) async -> Void)?
  ) -> Effect<T> {
    switch operation {
    case .none:
      return .none
    case .send(let action):
      return .send(transform(action))
    case .run(let priority, let body):
      return Effect<T>(
        .run(priority) { send in
          if let aroundRun {
            await aroundRun(send) {
              await body(Send<Action>(storage: send.storage) { action in send(transform(action)) })
            }
          } else {
            await body(Send<Action>(storage: send.storage) { action in send(transform(action)) })
          }
        })
    case .merge(let effects):
      return Effect<T>(.merge(effects.map { $0.map(transform, aroundRun: aroundRun) }))
    case .concatenate(let effects):
      return Effect<T>(.concatenate(effects.map { $0.map(transform, aroundRun: aroundRun) }))
    case .cancellable(let id, let cancelInFlight, let effect):
      return Effect<T>(.cancellable(id, cancelInFlight: cancelInFlight, effect.map(transform, aroundRun: aroundRun)))
    case .cancel(let id):
      return Effect<T>(.cancel(id))
    }
  }

  /// Whether running the effect starts anything asynchronous.
  var isSynchronous: Bool {
    switch operation {
    case .none, .send, .cancel: return true
    case .run: return false
    case .merge(let effects), .concatenate(let effects): return effects.allSatisfy(\.isSynchronous)
    case .cancellable(_, _, let effect): return effect.isSynchronous
    }
  }
}

/// The effect type of a reducer: `EffectOf<Feature>` is `Effect<Feature.Action>`.
public typealias EffectOf<R: Reducer> = Effect<R.Action>

/// The `send` of a reducer's effects: `SendOf<Feature>` is `Send<Feature.Action>`.
public typealias SendOf<R: Reducer> = Send<R.Action>

/// Sends actions from an effect back into its store: `await send(.response(value))`.
///
/// Actions sent after the effect is cancelled are dropped.
@MainActor
public struct Send<Action>: Sendable {
  let send: @MainActor @Sendable (Action) -> Void
  /// What the store that runs the effect keeps for its effects (throttling), when a store's
  /// runtime made this `Send`.
  let storage: EffectStorage?

  public init(send: @escaping @MainActor @Sendable (Action) -> Void) {
    self.send = send
    self.storage = nil
  }

  init(storage: EffectStorage?, send: @escaping @MainActor @Sendable (Action) -> Void) {
    self.send = send
    self.storage = storage
  }

  /// Sends an action, unless the effect has been cancelled.
  public func callAsFunction(_ action: Action) {
    guard !Task.isCancelled else { return }
    send(action)
  }
}
