/// When the console report is coloured: the value of `--color`.
public enum ColorMode: String, Sendable, Hashable, CaseIterable {
  /// Colour on a terminal, unless `NO_COLOR` is set (non-empty) or `TERM` is `dumb`.
  case auto
  /// Colour always, even when the output is not a terminal and `NO_COLOR` is set.
  case always
  /// Never colour.
  case never
}

extension ConsoleReporter {
  /// Whether the console report should be coloured.
  ///
  /// - `never`: no colour.
  /// - `always`: colour, whatever the environment says. This follows no-color.org, which
  ///   asks programs to honour `NO_COLOR` by default and lets an explicit per-invocation
  ///   choice such as `--color always` override it: the user who types it wants colour.
  /// - `auto` (the default): colour only when the output is a terminal, `NO_COLOR` is
  ///   unset or empty (any non-empty value disables colour, per no-color.org), and `TERM`
  ///   is not `dumb`.
  ///
  /// ```swift
  /// let color = ConsoleReporter.shouldUseColor(
  ///   mode: .auto, isTerminal: isatty(STDOUT_FILENO) == 1,
  ///   environment: ProcessInfo.processInfo.environment)
  /// ```
  public static func shouldUseColor(mode: ColorMode, isTerminal: Bool, environment: [String: String]) -> Bool {
    switch mode {
    case .never: return false
    case .always: return true
    case .auto:
      let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
      return isTerminal && !noColor && environment["TERM"] != "dumb"
    }
  }
}
