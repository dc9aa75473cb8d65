import SpecRunner
import SpecYAML

/// Standard output of a run, written in bursts: what the reports write waits here until the
/// command is about to wait for its workers (or writes to standard error, or ends), then
/// goes out in one write. A reader still sees each result as soon as the command has
/// nothing else to do, but a run of thousands of scenarios costs a few writes per burst of
/// results instead of one per line.
@MainActor
final class OutputBuffer {
  private var pending = ""
  private let write: (String) -> Void

  init(write: @escaping (String) -> Void) {
    self.write = write
  }

  func append(_ text: String) {
    pending += text
    if pending.utf8.count >= 1 << 16 { flush() }
  }

  /// Appends `line` and a line break (cheaper than appending the line with its break: that
  /// is another string).
  func appendLine(_ line: String) {
    pending += line
    pending += "\n"
    if pending.utf8.count >= 1 << 16 { flush() }
  }

  func flush() {
    guard !pending.isEmpty else { return }
    write(pending)
    pending = ""
  }
}
