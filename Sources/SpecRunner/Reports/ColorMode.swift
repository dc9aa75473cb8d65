import SpecYAML

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
  /// - `always`: colour even when the output is not a terminal (a CI log that shows ANSI
  ///   colours), but never when `NO_COLOR` is set: the spec format promises "never with
  ///   `NO_COLOR`", so a machine or person that sets it is never overruled by a flag
  ///   hidden in a script.
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
    let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
    switch mode {
    case .never: return false
    case .always: return !noColor
    case .auto: return isTerminal && !noColor && environment["TERM"] != "dumb"
    }
  }
}
