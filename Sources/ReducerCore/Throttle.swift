import ConcurrencyExtras

extension Effect {
  /// TCA's `debounce(id:for:scheduler:)` with a clock in place of the scheduler (Combine's
  /// schedulers do not exist on every platform): the same as ``debounce(id:for:clock:)``.
  /// As with `debounce(id:for:clock:)`, the clock can be an `any Clock<Duration>`, what
  /// `@Dependency(\.continuousClock)` gives.
  public func debounce<ID: Hashable & Sendable, C: Clock>(
    id: ID, for duration: C.Duration, scheduler: C
  ) -> Self where C.Duration: Sendable {
    if case .none = operation { return .none }
    return Self.concatenate(.run { _ in try await scheduler.sleep(for: duration) }, self)
      .cancellable(id: id, cancelInFlight: true)
  }

  /// Sends at most one action of the effects with the same identifier per `interval` on `clock`,
  /// as TCA's `throttle`.
  ///
  /// ```swift
  /// case .volumeChanged(let volume):
  ///   return .send(.saveVolume(volume))
  ///     .throttle(id: CancelID.saveVolume, for: .seconds(1), clock: clock, latest: true)
  /// ```
  ///
  /// The first action is sent at once. An action that comes less than `interval` after the
  /// last one sent waits until `interval` has passed since then; if other actions come in the
  /// meantime, the one sent then is the latest (`latest: true`) or the first that waited
  /// (`latest: false`). A newer throttled effect with the same `id` cancels the older one,
  /// waiting action included. The times of the last actions belong to the store that runs the
  /// effects.
  public func throttle<ID: Hashable & Sendable, C: Clock>(
    id: ID, for interval: C.Duration, clock: C, latest: Bool
  ) -> Self where C.Duration: Sendable {
    if case .none = operation { return .none }
    return throttling(AnyHashableSendable(id), interval: interval, clock: clock, latest: latest)
      .cancellable(id: id, cancelInFlight: true)
  }

  /// ``debounce(id:for:clock:)`` with a clock held as `any Clock<Duration>`, what
  /// `@Dependency(\.continuousClock)` gives, where Swift does not open the existential itself.
  @_disfavoredOverload
  public func debounce<ID: Hashable & Sendable>(
    id: ID, for duration: Duration, clock: any Clock<Duration>
  ) -> Self {
    if case .none = operation { return .none }
    return Self.concatenate(.run { _ in try await clock.sleep(for: duration) }, self)
      .cancellable(id: id, cancelInFlight: true)
  }

  /// ``debounce(id:for:scheduler:)`` with a clock held as `any Clock<Duration>`.
  @_disfavoredOverload
  public func debounce<ID: Hashable & Sendable>(
    id: ID, for duration: Duration, scheduler: any Clock<Duration>
  ) -> Self {
    debounce(id: id, for: duration, clock: scheduler)
  }

  /// ``throttle(id:for:clock:latest:)`` with a clock held as `any Clock<Duration>`, what
  /// `@Dependency(\.continuousClock)` gives, where Swift does not open the existential itself.
  @_disfavoredOverload
  public func throttle<ID: Hashable & Sendable>(
    id: ID, for interval: Duration, clock: any Clock<Duration>, latest: Bool
  ) -> Self {
    if case .none = operation { return .none }
    func open<C: Clock<Duration>>(_ clock: C) -> Self {
      throttling(AnyHashableSendable(id), interval: interval, clock: clock, latest: latest)
    }
    return open(clock).cancellable(id: id, cancelInFlight: true)
  }

  /// The same effect with every action it sends going through a ``ThrottleGate``: each
  /// `.send(action)` becomes a `.run` that sends it, and each `.run` gets a gated `Send`.
  func throttling<C: Clock>(
    _ id: AnyHashableSendable, interval: C.Duration, clock: C, latest: Bool
  ) -> Self where C.Duration: Sendable {
    switch operation {
    case .none, .cancel:
      return self
    case .send(let action):
      let action = UncheckedSendable(action)
      return Self(.run(nil) { send in await send(action.value) })
        .throttling(id, interval: interval, clock: clock, latest: latest)
    case .run(let priority, let body):
      return Self(
        .run(priority) { @MainActor send in
          let gate = ThrottleGate(id: id, interval: interval, clock: clock, latest: latest, send: send)
          await gate.run(body)
        })
    case .merge(let effects):
      return Self(.merge(effects.map { $0.throttling(id, interval: interval, clock: clock, latest: latest) }))
    case .concatenate(let effects):
      return Self(.concatenate(effects.map { $0.throttling(id, interval: interval, clock: clock, latest: latest) }))
    case .cancellable(let cancelID, let cancelInFlight, let effect):
      return Self(
        .cancellable(
          cancelID, cancelInFlight: cancelInFlight,
          effect.throttling(id, interval: interval, clock: clock, latest: latest)))
    }
  }
}

/// The throttle of one `.run` of a throttled effect: passes an action on at once, or keeps it
/// until `interval` has passed since the last action sent under the same identifier.
@MainActor
final class ThrottleGate<Action, C: Clock> where C.Duration: Sendable {
  let id: AnyHashableSendable
  let interval: C.Duration
  let clock: C
  let latest: Bool
  let send: Send<Action>
  /// Where the last sends are kept: the store's, or this gate's own when the `Send` belongs to
  /// no store.
  let storage: EffectStorage
  /// The task that sends the kept action when the interval has passed.
  let waiting = LockIsolated<Task<Void, Never>?>(nil)

  init(id: AnyHashableSendable, interval: C.Duration, clock: C, latest: Bool, send: Send<Action>) {
    self.id = id
    self.interval = interval
    self.clock = clock
    self.latest = latest
    self.send = send
    self.storage = send.storage ?? EffectStorage()
  }

  /// Runs the operation with a `Send` that goes through the gate, then waits until the kept
  /// action, if any, is sent; cancelling the task cancels the wait.
  func run(_ operation: @Sendable (Send<Action>) async -> Void) async {
    let gated = Send<Action>(storage: storage) { action in self.receive(action) }
    let waiting = waiting
    await withTaskCancellationHandler {
      await operation(gated)
      await waiting.value?.value
    } onCancel: {
      waiting.value?.cancel()
    }
  }

  private func receive(_ action: Action) {
    let now = clock.now
    guard let last = storage.throttles[id], let sentAt = last.sentAt as? C.Instant else {
      storage.throttles[id] = (sentAt: now, pending: nil)
      send(action)
      return
    }
    let value = latest ? action : (last.pending as? Action ?? action)
    let deadline = sentAt.advanced(by: interval)
    guard now < deadline else {
      storage.throttles[id] = (sentAt: now, pending: nil)
      send(value)
      return
    }
    storage.throttles[id] = (sentAt: sentAt, pending: value)
    let boxed = UncheckedSendable(value)
    waiting.withValue { task in
      task?.cancel()
      task = Task { @MainActor [id, clock, storage, send] in
        try? await clock.sleep(until: deadline, tolerance: nil)
        guard !Task.isCancelled else { return }
        storage.throttles[id] = (sentAt: clock.now, pending: nil)
        send(boxed.value)
      }
    }
  }
}
