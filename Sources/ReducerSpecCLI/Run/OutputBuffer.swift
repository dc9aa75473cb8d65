import SpecRunner
import SpecYAML

/// Standard output of a run, written in bursts: what the reports write waits here until the
/// command is about to wait for its workers (or writes to standard error, or ends), then
/// goes out in one write. A reader still sees each result as soon as the command has
/// nothing else to do, but a run of thousands of scenarios costs a few writes per burst of
/// results instead of one per line.
@MainActor
final class OutputBuffer {
  /// The text to write, as UTF-8: every line that goes in is a string's bytes or valid
  /// UTF-8 (``appendLine(utf8:)``), so it reads back as the same text.
  private var pending: [UInt8] = []
  private let write: (String) -> Void
  private let writeBytes: ((UnsafeRawBufferPointer) -> Void)?

  /// - Parameters:
  ///   - write: Writes text out.
  ///   - writeBytes: Writes UTF-8 bytes out, when the place takes them (standard output
  ///     does): a burst is then never made into a string.
  init(write: @escaping (String) -> Void, writeBytes: ((UnsafeRawBufferPointer) -> Void)? = nil) {
    self.write = write
    self.writeBytes = writeBytes
  }

  func append(_ text: String) {
    var text = text
    text.withUTF8 { pending.append(contentsOf: $0) }
    flushIfLarge()
  }

  /// Appends `line` and a line break.
  func appendLine(_ line: String) {
    var line = line
    line.withUTF8 { pending.append(contentsOf: $0) }
    pending.append(UInt8(ascii: "\n"))
    flushIfLarge()
  }

  /// Appends a line given as UTF-8 bytes (valid UTF-8, without its line break) and a line
  /// break: the console's lines for passing scenarios come this way, never made into strings.
  func appendLine(utf8 line: UnsafeBufferPointer<UInt8>) {
    pending.append(contentsOf: line)
    pending.append(UInt8(ascii: "\n"))
    flushIfLarge()
  }

  func flush() {
    guard !pending.isEmpty else { return }
    if let writeBytes {
      pending.withUnsafeBytes(writeBytes)
    } else {
      write(String(decoding: pending, as: UTF8.self))
    }
    pending.removeAll(keepingCapacity: true)
  }

  private func flushIfLarge() {
    if pending.count >= 1 << 16 { flush() }
  }
}
