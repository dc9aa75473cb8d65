internal import CSwiftTaskHook
import Foundation

// How a test store runs effects one at a time, in the same order on every run: all of their
// jobs run on the main queue, in the order they were queued, and the store waits for them by
// turns of that queue.

/// Keeps Swift's global executor on the main serial executor while any test store lives, and
/// puts back the hook that was set before the first of them (a test's own
/// `uncheckedUseMainSerialExecutor = true` stays), as TCA's test store does.
///
/// It sets the runtime's hook itself, as ConcurrencyExtras' `uncheckedUseMainSerialExecutor`
/// does, but through the hook's address as the linker resolves it: ConcurrencyExtras looks the
/// hook up by name (dlsym), which finds nothing in a binary built with
/// `--static-swift-stdlib`, and traps.
enum SerialExecutorLease {
  nonisolated(unsafe) private static var count = 0
  /// The hook set before the first lease, put back after the last.
  nonisolated(unsafe) private static var previous: Hook?
  private static let lock = NSLock()

  private typealias Original = @convention(thin) (UnownedJob) -> Void
  private typealias Hook = @convention(thin) (UnownedJob, Original) -> Void

  static func acquire() {
    lock.lock()
    defer { lock.unlock() }
    count += 1
    if count == 1 {
      previous = hook.pointee
      hook.pointee = { job, _ in MainActor.shared.enqueue(job) }
    }
  }

  static func release() {
    lock.lock()
    defer { lock.unlock() }
    count -= 1
    if count == 0 {
      hook.pointee = previous
      previous = nil
    }
  }

  /// The runtime's global enqueue hook.
  private static var hook: UnsafeMutablePointer<Hook?> {
    UnsafeMutableRawPointer(reducer_spec_task_enqueue_global_hook()).assumingMemoryBound(to: Hook?.self)
  }
}

/// The task executor of a test store's effects: runs their nonisolated code on the main
/// queue, behind the jobs already queued there.
///
/// Without it, the nonisolated code of an effect runs on the global executor, which the
/// lease sends to the main actor. A job that the main actor runs is the main actor's, so each
/// nonisolated function that the effect's operation called hopped again to the global
/// executor: a send whose effect sends one action back, and its receive, took 28 jobs, and 6
/// with this executor as the preference of the effect's task, since a call from one
/// nonisolated function to another then stays on the same job.
///
/// The jobs must not run as the generic executor's without a task executor: since Swift 6.2,
/// `Task.yield()` queues on the current executor, which is then the global one, off the main
/// queue, and effects that yield arrive in a different order on each run.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class MainQueueTaskExecutor: TaskExecutor {
  static let shared = MainQueueTaskExecutor()
  private static let unowned = shared.asUnownedTaskExecutor()

  func enqueue(_ job: consuming ExecutorJob) {
    // An unowned job is its runtime pointer: it travels as the context, with nothing allocated.
    reducer_spec_main_queue_async(unsafeBitCast(UnownedJob(job), to: UnsafeMutableRawPointer.self)) { context in
      unsafeBitCast(context, to: UnownedJob.self).runSynchronously(on: MainQueueTaskExecutor.unowned)
    }
  }
}

/// A task waiting in ``EffectRuntime/letRun(turns:)``: resumed by the last effect that
/// finishes, or by its last turn of the main queue, whichever comes first.
///
/// It is only touched on the main queue (by the store, on the main actor, and by its turns,
/// functions queued there), so it needs no lock. It is not isolated to the main actor:
/// `MainActor.assumeIsolated` in each turn, which asks libdispatch which queue runs, cost a
/// step with an effect more than its turns did.
final class IdleWaiter: @unchecked Sendable {
  private var continuation: UnsafeContinuation<Void, Never>?
  /// The turns left, counting the one queued.
  private var remainingTurns = 0

  /// Keeps the suspended task's continuation, and queues the first of `turns` turns.
  func start(_ continuation: UnsafeContinuation<Void, Never>, turns: Int) {
    self.continuation = continuation
    remainingTurns = turns
    queueTurn()
  }

  /// Resumes the task, once.
  func resume() {
    continuation.take()?.resume()
  }

  /// Queues a turn at the back of the main queue: the jobs ahead of it run first. The task
  /// goes on after the last turn, unless the last effect finished before.
  ///
  /// The main actor's jobs are on the main dispatch queue, so a function queued there runs
  /// after every job of an effect queued before it. It is queued with `dispatch_async_f`
  /// (``reducer_spec_main_queue_async``), the waiter as its context: a block from
  /// `DispatchQueue.main.async` costs two allocations a turn.
  private func queueTurn() {
    reducer_spec_main_queue_async(Unmanaged.passRetained(self).toOpaque()) { context in
      let waiter = Unmanaged<IdleWaiter>.fromOpaque(context!).takeRetainedValue()
      guard waiter.continuation != nil else { return }
      waiter.remainingTurns -= 1
      if waiter.remainingTurns <= 0 { waiter.resume() } else { waiter.queueTurn() }
    }
  }
}
