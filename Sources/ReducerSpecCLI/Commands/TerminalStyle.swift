/// ANSI styles for the text that subcommands other than a run write (a run's console
/// report colours its own lines): applied line by line to finished text, or not at all.
struct TerminalStyle {
  var enabled: Bool

  /// `reducer-spec features`: the headings (every line that starts at the margin) in bold.
  func headings(_ text: String) -> String {
    guard enabled else { return text }
    return restyled(text) { line in
      line.first.map { $0 != " " } == true ? "\u{1B}[1m\(line)\u{1B}[0m" : line
    }
  }

  /// `reducer-spec record`'s unified diff: file names in bold, hunk headings in cyan,
  /// removed lines in red and added lines in green.
  func unifiedDiff(_ text: String) -> String {
    guard enabled else { return text }
    return restyled(text) { line in
      if line.hasPrefix("+++ ") || line.hasPrefix("--- ") { return "\u{1B}[1m\(line)\u{1B}[0m" }
      if line.hasPrefix("@@") { return "\u{1B}[36m\(line)\u{1B}[0m" }
      if line.hasPrefix("+") { return "\u{1B}[32m\(line)\u{1B}[0m" }
      if line.hasPrefix("-") { return "\u{1B}[31m\(line)\u{1B}[0m" }
      return line
    }
  }

  private func restyled(_ text: String, _ style: (String) -> String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.isEmpty ? "" : style(String($0)) }
      .joined(separator: "\n")
  }
}
