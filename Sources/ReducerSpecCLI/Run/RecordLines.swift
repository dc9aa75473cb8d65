import Foundation
import SpecRunner
import SpecWorkers

// The run record as `LastRunRecord` writes it: one scenario (or file) a line. Read a line at
// a time, so that a large record is never held whole, from a file or from bytes.

extension LastRunRecord.Entry {
  /// `{"file": "specs/a.yaml", "scenario": 0, "row": 1, "name": "…", "outcome": "passed"}`.
  func write(to json: inout JSONWriter) {
    Self.writeStart(file: file, to: &json)
    writeRest(to: &json)
  }

  /// What ``write(to:)`` writes first, the same for every entry of a file.
  static func writeStart(file: String, to json: inout JSONWriter) {
    json.literal("{\"file\": ")
    json.string(file)
    json.literal(", \"scenario\": ")
  }

  /// What ``write(to:)`` writes after ``writeStart(file:to:)``.
  func writeRest(to json: inout JSONWriter) {
    Self.writeRest(scenario: scenario, row: row, name: name, outcome: outcome, to: &json)
  }

  /// ``writeRest(to:)`` of an entry with these fields, without making the entry.
  static func writeRest(
    scenario: Int, row: Int?, name: String, outcome: ScenarioResult.Outcome, to json: inout JSONWriter
  ) {
    json.int(scenario)
    if let row {
      json.literal(", \"row\": ")
      json.int(row)
    }
    json.literal(", \"name\": ")
    json.string(name)
    // The outcome's string as it is written, without checking it for escapes again.
    switch outcome {
    case .passed: json.literal(", \"outcome\": \"passed\"}")
    case .failed: json.literal(", \"outcome\": \"failed\"}")
    case .skipped: json.literal(", \"outcome\": \"skipped\"}")
    case .error: json.literal(", \"outcome\": \"error\"}")
    }
  }

  /// Where the parts of a line that ``write(to:)`` wrote are; `nil` for any other text.
  /// The strings are given as ranges, quotes included, checked and not made: a merge makes
  /// the file's string once for all its lines, and the name only for an entry it rewrites.
  fileprivate static func readParts(_ json: inout JSONCursor) -> Parts? {
    guard json.take("{\"file\": ") else { return nil }
    let fileStart = json.offset
    guard json.skipString() else { return nil }
    let file = fileStart..<json.offset
    guard json.take(", \"scenario\": "), let scenario = json.int() else { return nil }
    var row: Int?
    if json.take(", \"row\": ") {
      guard let value = json.int() else { return nil }
      row = value
    }
    guard json.take(", \"name\": ") else { return nil }
    let nameStart = json.offset
    guard json.skipString() else { return nil }
    let name = nameStart..<json.offset
    guard json.take(", \"outcome\": "), let outcome = outcome(&json), json.take("}") else { return nil }
    return Parts(file: file, scenario: scenario, row: row, name: name, outcome: outcome)
  }

  /// An entry's line, its strings as where they are (see ``readParts(_:)``).
  fileprivate struct Parts {
    var file: Range<Int>
    var scenario: Int
    var row: Int?
    var name: Range<Int>
    var outcome: ScenarioResult.Outcome
  }

  /// An outcome as ``write(to:)`` writes it, matched without making a string.
  private static func outcome(_ json: inout JSONCursor) -> ScenarioResult.Outcome? {
    if json.take("\"passed\"") { return .passed }
    if json.take("\"failed\"") { return .failed }
    if json.take("\"skipped\"") { return .skipped }
    if json.take("\"error\"") { return .error }
    return nil
  }
}

/// An entry's line as the record writes it (``LastRunRecord/Entry/write(to:)``, without
/// the indentation and comma around it), checked whole but made only as far as merging a
/// run into the record needs: its file, its place in the file, and its bytes, which an
/// unchanged entry keeps. The name's string is made only for ``entry``.
struct EntryLine {
  /// The file, as the entry names it.
  var file: String
  var scenario: Int { parts.scenario }
  var row: Int? { parts.row }
  /// The text the line is in, and where in it.
  private let buffer: [UInt8]
  private let range: Range<Int>
  private let parts: LastRunRecord.Entry.Parts

  /// The line in `buffer[range]`, checked to be an entry as written; `nil` for anything
  /// else. `previous` is the line read before it (from the same text or not): a line of the
  /// same file shares its file's string, made once.
  init?(_ buffer: [UInt8], _ range: Range<Int>, after previous: EntryLine?) {
    var json = JSONCursor(buffer, from: range.lowerBound)
    guard let parts = LastRunRecord.Entry.readParts(&json), json.offset == range.upperBound else { return nil }
    if let previous, previous.fileBytes.elementsEqual(buffer[parts.file]) {
      file = previous.file
    } else {
      var fileJSON = JSONCursor(buffer, from: parts.file.lowerBound)
      guard let file = fileJSON.string() else { return nil }
      self.file = file
    }
    self.buffer = buffer
    self.range = range
    self.parts = parts
  }

  /// A line that ``LastRunRecord/Entry/write(to:)`` wrote in `buffer[range]`, for an
  /// entry of `file`: the run's own, read back from where it waited.
  init?(file: String, _ buffer: [UInt8], _ range: Range<Int>) {
    var json = JSONCursor(buffer, from: range.lowerBound)
    guard let parts = LastRunRecord.Entry.readParts(&json), json.offset == range.upperBound else { return nil }
    self.file = file
    self.buffer = buffer
    self.range = range
    self.parts = parts
  }

  /// The line's bytes.
  var bytes: ArraySlice<UInt8> { buffer[range] }

  /// The file's string as written, quotes included.
  private var fileBytes: ArraySlice<UInt8> { buffer[parts.file] }

  /// The whole entry; its file is the line's ``file``, shared.
  var entry: LastRunRecord.Entry {
    var json = JSONCursor(buffer, from: parts.name.lowerBound)
    // The name's string was checked when the line was read.
    let name = json.string()!
    return LastRunRecord.Entry(file: file, scenario: parts.scenario, row: parts.row, name: name, outcome: parts.outcome)
  }

  /// Whether it comes after `other` in the record's order, or at the same place (same file).
  func isInOrder(after other: EntryLine) -> Bool {
    (other.scenario, other.row ?? -1) <= (scenario, row ?? -1)
  }

  func hasSamePlace(as other: EntryLine) -> Bool {
    scenario == other.scenario && row == other.row
  }
}

/// Reads a record exactly as ``LastRunRecord/encoded()`` writes it, a line at a time: its
/// entries with ``nextEntry()``, then its files that could not run with ``fileErrors()``.
/// Any other text (or a record of another version) makes ``isBroken`` true, and the reader
/// gives nothing more: `JSONDecoder` reads such text, or says what is wrong with it.
struct RecordLineReader {
  private let descriptor: Int32
  private var bytes: [UInt8]
  private var position = 0
  private var isAtEndOfSource: Bool
  private var stage = Stage.entries
  /// The text is not a record as written (or it could not be read).
  private(set) var isBroken = false

  private enum Stage {
    case entries
    /// After the entries: the list of files, or (`false`) an empty one.
    case fileErrors(isListed: Bool)
    case done
  }

  /// Reads the record in `bytes`.
  init(bytes: [UInt8]) {
    descriptor = -1
    self.bytes = bytes
    isAtEndOfSource = true
    readHeader()
  }

  /// Reads the record in the file at `path`; `nil` when it cannot be opened.
  init?(path: String) {
    descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    bytes = []
    isAtEndOfSource = false
    readHeader()
  }

  /// Closes the file (a reader of bytes has none).
  func close() {
    if descriptor >= 0 { _ = Foundation.close(descriptor) }
  }

  /// The next entry; `nil` after the last one (or when the text is broken).
  mutating func nextEntry() -> LastRunRecord.Entry? {
    // A file's entries follow each other: they share one copy of its name.
    nextEntryLine()?.entry
  }

  /// The next entry's line (see ``EntryLine``); `nil` after the last one (or when the text
  /// is broken).
  mutating func nextEntryLine() -> EntryLine? {
    guard case .entries = stage, !isBroken else { return nil }
    guard let line = nextLine() else {
      isBroken = true
      return nil
    }
    // `  ],` is the line after the last entry.
    if line.elementsEqual("  ],".utf8) {
      startFileErrors()
      return nil
    }
    guard line.starts(with: "    ".utf8) else {
      isBroken = true
      return nil
    }
    // Without its indentation and its comma.
    let end = line.last == UInt8(ascii: ",") ? line.endIndex - 1 : line.endIndex
    guard let entry = EntryLine(bytes, (line.startIndex + 4)..<end, after: lastLine) else {
      isBroken = true
      return nil
    }
    lastLine = entry
    return entry
  }

  /// The last line that ``nextEntryLine()`` read.
  private var lastLine: EntryLine?

  /// The files that could not run, after the last entry; `nil` when the text is broken.
  mutating func fileErrors() -> [String]? {
    while case .entries = stage, !isBroken, nextEntryLine() != nil {}
    guard !isBroken, case .fileErrors(let isListed) = stage else { return nil }
    var files: [String] = []
    if isListed {
      while let line = nextLine(), !line.elementsEqual("  ]".utf8) {
        var json = JSONCursor(bytes, from: line.startIndex)
        guard json.take("    "), let file = json.string(), json.take(",") || json.offset == line.endIndex,
          json.offset == line.endIndex
        else {
          isBroken = true
          return nil
        }
        files.append(file)
      }
    }
    guard let last = nextLine(), last.elementsEqual("}".utf8), nextLine() == nil, isAtEnd else {
      isBroken = true
      return nil
    }
    stage = .done
    return files
  }

  /// The line that opens the list of files that could not run.
  private mutating func startFileErrors() {
    switch nextLine().map(Array.init) {
    case Array("  \"fileErrors\": [".utf8)?: stage = .fileErrors(isListed: true)
    case Array("  \"fileErrors\": []".utf8)?: stage = .fileErrors(isListed: false)
    default: isBroken = true
    }
  }

  /// `{`, the version, and the start of the list of scenarios (or the empty lists).
  private mutating func readHeader() {
    guard let open = nextLine(), open.elementsEqual("{".utf8), let version = nextLine(),
      version.elementsEqual("  \"version\": \(LastRunRecord.version),".utf8), let scenarios = nextLine()
    else {
      isBroken = true
      return
    }
    if scenarios.elementsEqual("  \"scenarios\": [".utf8) { return }
    guard scenarios.elementsEqual("  \"scenarios\": [],".utf8) else {
      isBroken = true
      return
    }
    startFileErrors()
  }

  private var isAtEnd: Bool { isAtEndOfSource && position == bytes.count }

  /// The next line without its line feed; `nil` at the end. A last line without a line
  /// feed breaks the record (every line the record writes ends with one).
  private mutating func nextLine() -> ArraySlice<UInt8>? {
    while true {
      if let end = bytes.lineFeed(from: position) {
        let line = bytes[position..<end]
        position = end + 1
        return line
      }
      guard !isAtEndOfSource else {
        if position < bytes.count { isBroken = true }
        return nil
      }
      // Keep the partial line, read more.
      bytes.removeFirst(position)
      position = 0
      var chunk = [UInt8](repeating: 0, count: 1 << 16)
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 {
        isAtEndOfSource = true
        if count < 0 { isBroken = true }
      } else {
        bytes += chunk[..<count]
      }
    }
  }
}
