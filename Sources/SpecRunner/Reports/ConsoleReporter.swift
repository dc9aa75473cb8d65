import SpecYAML

/// The human-readable report: a line per scenario as results arrive, each failure as a
/// compiler would print it, and a summary whose last line is `N passed, N failed, N skipped`.
///
/// ```
/// specs/counter.yaml
///   ✓ Incrementing counts up (0.012s)
///   ✗ Decrementing stops at zero (0.020s)
///     specs/counter.yaml:14:9: error: A state change does not match expectation.
///           - send: decrement
///             ^
///
///         \u{2007} Counter.State(
///         −   count: 0
///         +   count: -1
///         \u{2007} )
///
///     (Expected: −, Actual: +)
///   - Resetting (skipped: not written yet)
///
/// 1 passed, 1 failed, 1 skipped
/// ```
///
/// Every call of the sink is one whole line, without its line break, and no line ends in
/// a space or a tab. With `color` on, ✓ is green, ✗ and `error:` are red, skipped scenarios
/// yellow, the diff's `−` lines red and `+` lines green, and the summary green when the run
/// succeeded, red otherwise; with it off the output holds no escape byte. Use
/// ``shouldUseColor(mode:isTerminal:environment:)`` to decide.
///
/// The reporter prints from the events as they arrive (``fileFailed(_:)`` and
/// ``scenarioFinished(_:)``) and the summary at ``runFinished(_:)``; it keeps no result. It is not thread-safe:
/// call it from one task at a time, as the runner does.
public final class ConsoleReporter: RunReporter {
  private let sink: (String) -> Void
  /// Takes a line as UTF-8 bytes (valid, without its line break), when the reporter was
  /// given somewhere to put them: a passing scenario's line, most of a run's, is then made
  /// in ``scratch`` and never becomes a string.
  private let lineBytes: ((UnsafeBufferPointer<UInt8>) -> Void)?
  private var scratch: [UInt8] = []
  private let style: Style
  /// The file whose header was printed last.
  private var currentFile: String?
  private var hasWritten = false

  /// - Parameters:
  ///   - color: Whether to colour the output with ANSI escapes.
  ///   - sink: Receives each line, without its line break; standard output by default.
  public convenience init(color: Bool, sink: @escaping (String) -> Void = StandardOutput.writeLine) {
    self.init(color: color, isCheck: false, sink: sink)
  }

  /// With `isCheck` (`reducer-spec check`), a scenario that checked out prints no line, and
  /// the last line counts what was checked and its problems instead of outcomes. With
  /// `showsPasses` false (`reducer-spec coverage`), a scenario that passed prints no line.
  /// `lineBytes`, when given, receives the same lines as `sink` would, as UTF-8 bytes; the
  /// two must put their lines in one stream, in the order they are called.
  package init(
    color: Bool, isCheck: Bool, showsPasses: Bool = true, sink: @escaping (String) -> Void,
    lineBytes: ((UnsafeBufferPointer<UInt8>) -> Void)? = nil
  ) {
    self.sink = sink
    self.lineBytes = lineBytes
    self.style = Style(enabled: color)
    self.isCheck = isCheck
    self.showsPasses = showsPasses
  }

  private let isCheck: Bool
  private let showsPasses: Bool
  /// What a passing scenario's line starts with: ✓, coloured or not.
  private lazy var passPrefix = "  " + style.green("✓") + " "
  private lazy var passPrefixBytes = Array(passPrefix.utf8)

  // MARK: - Events

  public func fileFailed(_ error: SpecFileError) {
    startFile(error.file)
    let block = LocatedMessage(error)
    write("  \(style.red("✗")) \(block.prefix)\(style.red("error:")) \(block.heading)")
    writeBody(of: block, indent: "    ")
  }

  public func scenarioFinished(_ result: ScenarioResult) {
    // A pass that noted something (skipped assertions) still shows, with its notes.
    if result.outcome == .passed, isCheck || (!showsPasses && result.notes == nil) { return }
    startFile(result.id.file)
    let name = Self.oneLine(result.name)
    switch result.outcome {
    case .passed:
      if let lineBytes {
        writePassLine(name: name, seconds: result.duration, to: lineBytes)
      } else {
        write(passLine(name: name, seconds: result.duration))
      }
    case .skipped:
      let reason = result.skipReason.map { ": \(Self.oneLine($0))" } ?? ""
      write("  " + style.yellow("- \(name) (skipped\(reason))"))
    case .failed, .error:
      write("  \(style.red("✗")) \(name) (\(formatSeconds(result.duration))s)")
      var blocks = result.failures.map(LocatedMessage.init)
      if result.outcome == .error {
        blocks.append(
          LocatedMessage(
            location: result.location, message: result.errorMessage ?? "The scenario did not finish.",
            sourceLine: nil))
      }
      for (index, block) in blocks.enumerated() {
        if index > 0 { write("") }
        writeBlock(block, indent: "    ")
      }
    }
    // Notes (skipped assertions): `PATH:LINE:COLUMN: note: …`, the rest of the message indented.
    for note in result.notes ?? [] {
      let lines = note.message.split(separator: "\n", omittingEmptySubsequences: false)
      let place = "\(note.location.file):\(note.location.line):\(note.location.column): "
      write("    " + place + style.yellow("note:") + " " + (lines.first.map(String.init) ?? ""))
      for line in lines.dropFirst() { write(line.isEmpty ? "" : "      " + line) }
    }
  }

  public func runFinished(_ summary: RunSummary) throws {
    if hasWritten { write("") }
    if isCheck {
      let line = Self.checkSummary(summary)
      write(summary.exitStatus == 0 ? style.green(line) : style.red(line))
      return
    }
    if summary.failedFiles > 0 {
      write(style.red("\(counted(summary.failedFiles, "file", "files")) could not run."))
    }
    if summary.wasInterrupted {
      write(style.yellow("The run was interrupted: these are the results of the scenarios that had finished."))
    }
    let line = summary.summaryLine
    write(summary.exitStatus == 0 ? style.green(line) : style.red(line))
  }

  /// `Checked 8 files, 42 scenarios: no problems.` or `Checked 8 files, 40 scenarios: 3
  /// problems in 2 files.`
  static func checkSummary(_ summary: RunSummary) -> String {
    let checked = "Checked \(counted(summary.files, "file", "files")), \(counted(summary.scenarios, "scenario", "scenarios"))"
    guard summary.fileErrors > 0 else { return checked + ": no problems." }
    return checked
      + ": \(counted(summary.fileErrors, "problem", "problems")) in \(counted(summary.failedFiles, "file", "files"))."
  }

  // MARK: - Lines

  /// `  ✓ NAME (0.012s)`, the line of most scenarios of a run.
  private func passLine(name: String, seconds: Double) -> String {
    var rest: [UInt8] = []
    rest.reserveCapacity(name.utf8.count + 20)
    Self.appendPassLineRest(name: name, seconds: seconds, to: &rest)
    return passPrefix + String(decoding: rest, as: UTF8.self)
  }

  /// `NAME (0.012s)`: what follows the mark in a passing scenario's line.
  private static func appendPassLineRest(name: String, seconds: Double, to bytes: inout [UInt8]) {
    var name = name
    name.withUTF8 { bytes.append(contentsOf: $0) }
    bytes.append(UInt8(ascii: " "))
    bytes.append(UInt8(ascii: "("))
    appendSeconds(seconds, to: &bytes)
    bytes.append(UInt8(ascii: "s"))
    bytes.append(UInt8(ascii: ")"))
  }

  /// ``passLine(name:seconds:)`` as bytes, straight to `lineBytes`. The line ends in `)`: it
  /// has no trailing whitespace to strip.
  private func writePassLine(name: String, seconds: Double, to lineBytes: (UnsafeBufferPointer<UInt8>) -> Void) {
    // Made in a local array (the scratch's storage, taken and given back): a property
    // would be checked for exclusive access at every append.
    var line: [UInt8] = []
    swap(&line, &scratch)
    line.removeAll(keepingCapacity: true)
    line.append(contentsOf: passPrefixBytes)
    Self.appendPassLineRest(name: name, seconds: seconds, to: &line)
    line.withUnsafeBufferPointer(lineBytes)
    swap(&line, &scratch)
    hasWritten = true
  }

  private func startFile(_ file: String) {
    guard file != currentFile else { return }
    if hasWritten { write("") }
    write(file)
    currentFile = file
  }

  private func writeBlock(_ block: LocatedMessage, indent: String) {
    write("\(indent)\(block.prefix)\(style.red("error:")) \(block.heading)")
    writeBody(of: block, indent: indent)
  }

  /// The source line, the caret and the rest of the message, each line indented.
  private func writeBody(of block: LocatedMessage, indent: String) {
    if let sourceLine = block.sourceLine { write(indent + sourceLine) }
    if let caret = block.caret { write(indent + caret) }
    for line in block.rest {
      write(indent + style.diffLine(line.withoutTrailingWhitespace))
    }
  }

  private func write(_ line: String) {
    sink(line.withoutTrailingWhitespace)
    hasWritten = true
  }

  /// A name or reason on one line: line breaks become spaces.
  private static func oneLine(_ text: String) -> String {
    // A byte of \n, \r, VT or FF, or the first byte of U+0085, U+2028 or U+2029.
    let suspect = text.utf8.contains { (0x0A...0x0D).contains($0) || $0 == 0xC2 || $0 == 0xE2 }
    guard suspect else { return text }
    return text.lines.joined(separator: " ")
  }
}

// MARK: - Colour

extension ConsoleReporter {
  /// ANSI colours, or none.
  private struct Style {
    var enabled: Bool

    func green(_ text: String) -> String { paint(text, "32") }
    func red(_ text: String) -> String { paint(text, "31") }
    func yellow(_ text: String) -> String { paint(text, "33") }

    /// A diff line (`−` or `+` after its indentation) in red or green; other lines as they are.
    func diffLine(_ line: String) -> String {
      guard enabled else { return line }
      let indentation = line.prefix { $0 == " " || $0 == "\t" }
      let content = line.dropFirst(indentation.count)
      switch content.first {
      case "−": return indentation + red(String(content))
      case "+": return indentation + green(String(content))
      default: return line
      }
    }

    private func paint(_ text: String, _ code: String) -> String {
      enabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
  }
}

