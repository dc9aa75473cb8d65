/// How much a ``TestStore`` insists on.
public enum Exhaustivity: Equatable, Sendable {
  /// Every state change, every received action and every running effect must be asserted.
  case on
  /// Only what the test asserts is checked. With `showSkippedAssertions`, what was not
  /// asserted is reported as expected (known) issues, for a look at what a test leaves out.
  case off(showSkippedAssertions: Bool)

  /// Non-exhaustive, without reporting what was skipped.
  public static let off = Self.off(showSkippedAssertions: false)
}
