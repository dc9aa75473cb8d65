import Redux

/// Waits until `condition` holds, checking it every millisecond, for at most `timeout`:
/// whether it held. The deadline only bounds a test that fails; a passing test waits for
/// the condition, not for a time. It is long: while a ReducerCore `TestStore` of another
/// test lives, every task runs on the main queue, behind the jobs of every test there, and
/// in a whole `swift test` a middleware's task has waited there over ten seconds.
@MainActor
func eventually(
  timeout: Duration = .seconds(120),
  _ condition: () -> Bool
) async -> Bool {
  let clock = ContinuousClock()
  let deadline = clock.now.advanced(by: timeout)
  while !condition() {
    guard clock.now < deadline else { return false }
    try? await Task.sleep(for: .milliseconds(1))
  }
  return true
}

extension Store {
  /// Waits until the state satisfies `condition`: whether it did before the deadline.
  @MainActor
  func eventually(
    timeout: Duration = .seconds(120),
    _ condition: (StoreState) -> Bool
  ) async -> Bool {
    await ReduxTests.eventually(timeout: timeout) { condition(state) }
  }
}
