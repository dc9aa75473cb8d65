import Redux

/// Waits until `condition` holds, checking it every millisecond, for at most `timeout`:
/// whether it held. The deadline only bounds a test that fails; a passing test waits for
/// the condition, not for a time.
func eventually(
  timeout: Duration = .seconds(10),
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
  func eventually(
    timeout: Duration = .seconds(10),
    _ condition: (StoreState) -> Bool
  ) async -> Bool {
    await ReduxTests.eventually(timeout: timeout) { condition(state) }
  }
}
