import Foundation
import SpecRunner

// The run record as `LastRunRecord` writes it: one scenario (or file) a line. Read a line at
// a time, so that a large record is never held whole, from a file or from bytes.

extension LastRunRecord.Entry {
  /// `{"file": "specs/a.yaml", "scenario": 0, "row": 1, "name": "…", "outcome": "passed"}`.
  func write(to json: inout JSONWriter) {
    json.literal("{\"file\": ")
    json.string(file)
    json.literal(", \"scenario\": ")
    json.int(scenario)
    if let row {
      json.literal(", \"row\": ")
      json.int(row)
    }
    json.literal(", \"name\": ")
    json.string(name)
    json.literal(", \"outcome\": ")
    json.string(outcome.rawValue)
    json.literal("}")
  }

  /// Reads what ``write(to:)`` writes; `nil` for anything else.
  static func read(_ json: inout JSONCursor) -> Self? {
    guard json.take("{\"file\": "), let file = json.string(), json.take(", \"scenario\": "), let scenario = json.int()
    else { return nil }
    var row: Int?
    if json.take(", \"row\": ") {
      guard let value = json.int() else { return nil }
      row = value
    }
    guard json.take(", \"name\": "), let name = json.string(), json.take(", \"outcome\": "),
      let outcome = outcome(&json), json.take("}")
    else { return nil }
    return Self(file: file, scenario: scenario, row: row, name: name, outcome: outcome)
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
    guard case .entries = stage, !isBroken else { return nil }
    guard let line = nextLine() else { return fail() }
    if line.elementsEqual("  ],".utf8) {
      startFileErrors()
      return nil
    }
    var json = JSONCursor(bytes, from: line.startIndex)
    guard json.take("    "), var entry = LastRunRecord.Entry.read(&json) else { return fail() }
    _ = json.take(",")
    guard json.offset == line.endIndex else { return fail() }
    // A file's entries follow each other: they share one copy of its name.
    if let lastFile, lastFile == entry.file { entry.file = lastFile }
    lastFile = entry.file
    return entry
  }

  /// The file of the last entry read.
  private var lastFile: String?

  /// The files that could not run, after the last entry; `nil` when the text is broken.
  mutating func fileErrors() -> [String]? {
    while case .entries = stage, !isBroken, nextEntry() != nil {}
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

  private mutating func fail() -> LastRunRecord.Entry? {
    isBroken = true
    return nil
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
      if let end = bytes[position...].firstIndex(of: UInt8(ascii: "\n")) {
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
