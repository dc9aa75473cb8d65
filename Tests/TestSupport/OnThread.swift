import Foundation

/// Runs blocking work (a compiler, a tool that the test waits for) on a thread of its own
/// and returns its result: waiting on one of Swift's few cooperative threads (two, on two
/// cores), or on the main thread, where every task runs while a `TestStore` lives, would
/// starve the tests running beside it. Record no issue inside `body`: throw, and let the
/// test check the result.
public func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try body() }) }.start()
  }
}
