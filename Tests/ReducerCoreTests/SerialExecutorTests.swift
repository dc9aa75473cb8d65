import ConcurrencyExtras
import ReducerCore
import Testing

/// While a test store lives, Swift's global executor hands every job to the main actor, so
/// that effects run one at a time, in the same order on every run. The store sets the
/// runtime's hook through its linked address (which also holds in a binary built with
/// `--static-swift-stdlib`, where a lookup by name finds nothing; `.ci/run` runs the
/// example specs with one); ConcurrencyExtras reads the same hook by name.
@MainActor
@Suite struct SerialExecutorTests {
  @Test func theRuntimesHookIsSetWhileAStoreLives() async {
    let store = TestStore(initialState: 0) { PingPong.reducer }
    #expect(uncheckedUseMainSerialExecutor)
    await store.send(.ping)
    await store.receive(.pong) { $0 = 1 }
    #expect(uncheckedUseMainSerialExecutor)
  }
}
