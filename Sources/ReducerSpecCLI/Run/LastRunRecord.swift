import Foundation
import SpecRunner
import SpecWorkers
import SpecYAML

/// What the last runs in a directory did, scenario by scenario: `.reducer-spec/last-run.json`,
/// which every run updates and `--rerun-failed` reads.
///
/// ```json
/// {
///   "version": 1,
///   "scenarios": [
///     {"file": "specs/counter.yaml", "scenario": 0, "name": "Incrementing counts up", "outcome": "passed"},
///     {"file": "specs/counter.yaml", "scenario": 1, "name": "Decrementing stops at zero", "outcome": "failed"},
///     {"file": "specs/search.yaml", "scenario": 0, "row": 1, "name": "Searching for swift", "outcome": "error"}
///   ],
///   "fileErrors": [
///     "specs/broken.yaml"
///   ]
/// }
/// ```
///
/// A run merges what it did into the record it found: the scenarios it ran replace their
/// entries (matched by place or by name, so a scenario that moved in its file or was renamed
/// is not listed twice), and the others keep theirs. So a run with `--filter`, `--shard` or
/// `--rerun-failed` updates only what it ran.
package struct LastRunRecord: Hashable, Codable, Sendable {
  /// The format's version; a record of another version is not read.
  static let version = 1
  /// Where the record is, relative to the current directory.
  static let path = ".reducer-spec/last-run.json"

  /// One scenario (one example row of an outline) and how it ended.
  struct Entry: Hashable, Codable, Sendable {
    /// The spec file's path as the run named it.
    var file: String
    /// The scenario's index in the file's `scenarios`, from 0.
    var scenario: Int
    /// The example row's index, from 0; absent for a scenario without `examples`.
    var row: Int?
    var name: String
    var outcome: ScenarioResult.Outcome

    init(file: String, scenario: Int, row: Int? = nil, name: String, outcome: ScenarioResult.Outcome) {
      self.file = file
      self.scenario = scenario
      self.row = row
      self.name = name
      self.outcome = outcome
    }

    init(_ result: ScenarioResult) {
      self.init(
        file: result.id.file, scenario: result.id.scenario, row: result.id.row, name: result.name,
        outcome: result.outcome)
    }

    var id: ScenarioID { ScenarioID(file: file, scenario: scenario, row: row) }
    /// Failed, or could not finish.
    var didFail: Bool { outcome == .failed || outcome == .error }
  }

  var version: Int = Self.version
  /// In file and scenario order.
  var scenarios: [Entry] = []
  /// The files that could not be read, parsed or validated, in path order.
  var fileErrors: [String] = []

  // MARK: - Merging

  /// What a run did, gathered file by file as its results arrive: what the record is
  /// updated with. The entries wait in a temporary file (``SpoolFile``), as the record's
  /// lines; in memory, only where each file's entries are.
  final class Ran {
    private let spool: SpoolFile
    /// Where each file's lines are in the spool, by file (named as the record names it).
    private var ranges: [String: [Range<Int>]] = [:]
    /// The files that could not run, named as the record names them.
    private(set) var erroredFiles: Set<String> = []

    /// Gathers into `spool`: a temporary file of its own unless a test gives one.
    init(spool: SpoolFile = SpoolFile()) { self.spool = spool }

    /// Adds a file's results, naming it `name` (see ``LastRunRecord/fileName(_:in:)``).
    func add(_ suite: SuiteResult, name: String) {
      if !suite.scenarios.isEmpty {
        // Each entry's line as the record writes it, and a line feed (which a line never
        // holds: its strings escape control characters).
        var fileStart = JSONWriter()
        Entry.writeStart(file: name, to: &fileStart)
        var json = JSONWriter()
        // By index: `for … in` would copy each result to read four of its fields.
        for index in suite.scenarios.indices {
          let id = suite.scenarios[index].id
          json.verbatim(fileStart.bytes[...])
          Entry.writeRest(
            scenario: id.scenario, row: id.row, name: suite.scenarios[index].name,
            outcome: suite.scenarios[index].outcome, to: &json)
          json.byte(UInt8(ascii: "\n"))
        }
        let start = spool.count
        spool.append(bytes: json.bytes)
        ranges[name, default: []].append(start..<spool.count)
      }
      if !suite.errors.isEmpty { erroredFiles.insert(name) }
    }

    /// The files with an entry, in path order.
    var files: [String] { ranges.keys.sorted() }

    func hasEntries(of file: String) -> Bool { ranges[file] != nil }

    /// The lines of `file`'s entries, in the order they ran.
    func lines(of file: String) throws -> [EntryLine] {
      var lines: [EntryLine] = []
      for range in ranges[file] ?? [] {
        let bytes = try spool.read(range)
        var position = 0
        while position < bytes.count {
          guard let end = bytes.lineFeed(from: position) else { throw SpoolFile.SpoolError(reason: "it ended early") }
          guard let line = EntryLine(file: file, bytes, position..<end) else {
            throw SpoolFile.SpoolError(reason: "it holds other text than was written to it")
          }
          lines.append(line)
          position = end + 1
        }
      }
      return lines
    }

    /// The entries of `file`, in the order they ran.
    func entries(of file: String) throws -> [Entry] { try lines(of: file).map(\.entry) }

  }

  /// The previous record's entries came out of file order: it is read whole and sorted.
  private struct OutOfOrder: Error {}

  /// This record updated with what `result` did, its files named by `name` (see
  /// ``LastRunRecord/fileName(_:in:)``).
  func merging(_ result: RunResult, name: (String) -> String = { $0 }) throws -> LastRunRecord {
    let ran = Ran()
    for suite in result.suites { ran.add(suite, name: name(suite.file)) }
    return try merging(ran)
  }

  /// This record updated with what a run did: an entry at a time, as ``merged(_:previous:ran:in:)``
  /// merges a file's (``write(merging:into:)`` merges lines instead, and keeps those that do
  /// not change).
  func merging(_ ran: Ran) throws -> LastRunRecord {
    var merged = LastRunRecord()
    var entries = scenarios.sorted { $0.id < $1.id }.makeIterator()
    try Self.forEachFile(ran, previous: { entries.next() }, file: \.file) { file, previous in
      merged.scenarios += Self.merged(file, previous: previous, ran: try ran.entries(of: file), in: ran)
    }
    merged.fileErrors = Self.mergedFileErrors(ran, previous: fileErrors)
    return merged
  }

  /// Walks a record's entries and a run's files together, in file order, without holding
  /// either whole: `each` gets every file that either has, with the record's entries of it.
  /// `previous` gives the record's entries in file order (`nil` after the last); one file's
  /// are held at a time.
  ///
  /// - Throws: ``OutOfOrder`` when `previous` does not give them in file order.
  private static func forEachFile<Previous>(
    _ ran: Ran, previous: () -> Previous?, file: (Previous) -> String, each: (String, [Previous]) throws -> Void
  ) throws {
    var pending = previous()
    var lastFile: String?
    /// The previous record's next file and its entries.
    func nextGroup() throws -> (file: String, entries: [Previous])? {
      guard let first = pending else { return nil }
      let name = file(first)
      if let lastFile, !(lastFile < name) { throw OutOfOrder() }
      var group = [first]
      pending = previous()
      while let next = pending, file(next) == name {
        group.append(next)
        pending = previous()
      }
      lastFile = name
      return (name, group)
    }
    let ranFiles = ran.files
    var nextRan = 0
    var group = try nextGroup()
    while group != nil || nextRan < ranFiles.count {
      if let current = group, nextRan == ranFiles.count || current.file <= ranFiles[nextRan] {
        group = try nextGroup()
        if nextRan < ranFiles.count && ranFiles[nextRan] == current.file { nextRan += 1 }
        try each(current.file, current.entries)
      } else {
        nextRan += 1
        try each(ranFiles[nextRan - 1], [])
      }
    }
  }

  /// A file's entries in the updated record, from the record's (`previous`) and the run's
  /// (`ranHere`, in the order they ran): the scenarios that ran replace the entries of their
  /// place or their name; a file that could not run loses its entries; the other entries
  /// stay.
  private static func merged(_ file: String, previous: [Entry], ran ranHere: [Entry], in ran: Ran) -> [Entry] {
    var entries = ranHere
    entries.sort { $0.id < $1.id }
    // When the file's scenarios ran at the places the record has (a run of the same
    // suite), every old entry is replaced by place: no sets of ids and names to make.
    if !ran.erroredFiles.contains(file), !previous.isEmpty, !previous.elementsEqual(entries, by: { $0.id == $1.id }) {
      let ids = Set(ranHere.map(\.id))
      let names = Set(ranHere.map(\.name))
      entries = previous.filter { !ids.contains($0.id) && !names.contains($0.name) } + ranHere
      entries.sort { $0.id < $1.id }
    }
    return entries
  }

  /// A file's lines in the updated record: as ``merged(_:previous:ran:in:)`` merges its
  /// entries, but a line whose entry would be written again as it is, in the same order,
  /// is kept as it is, without making its entry. That is every line of a run of the same
  /// suite, and of the files a run did not run.
  private static func mergedLines(
    _ file: String, previous: [EntryLine], in ran: Ran, each: (EntryLine) -> Void, eachEntry: (Entry) -> Void
  ) throws {
    func isInOrder(_ lines: [EntryLine]) -> Bool {
      zip(lines, lines.dropFirst()).allSatisfy { $1.isInOrder(after: $0) }
    }
    let ranHere = ran.hasEntries(of: file) ? try ran.lines(of: file) : []
    if isInOrder(ranHere),
      ran.erroredFiles.contains(file) || previous.isEmpty || previous.elementsEqual(ranHere, by: { $0.hasSamePlace(as: $1) })
    {
      ranHere.forEach(each)
    } else if ranHere.isEmpty, isInOrder(previous) {
      // Not run: every entry stays.
      previous.forEach(each)
    } else {
      merged(file, previous: previous.map(\.entry), ran: ranHere.map(\.entry), in: ran).forEach(eachEntry)
    }
  }

  /// The updated list of files that could not run: the record's (`previous`) that did not
  /// run now, and those of the run.
  fileprivate static func mergedFileErrors(_ ran: Ran, previous: [String]) -> [String] {
    let keptFiles = previous.filter { !ran.hasEntries(of: $0) }
    return Set(keptFiles).union(ran.erroredFiles).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }

  // MARK: - What to rerun

  /// The scenarios that failed or could not finish.
  var failedScenarios: [Entry] { scenarios.filter(\.didFail) }
  /// Whether anything failed: a scenario, or a file that could not run.
  var hasFailures: Bool { !fileErrors.isEmpty || scenarios.contains(where: \.didFail) }

  /// How the record names a spec file: relative to the current directory `directory` when
  /// it is inside it (`./specs/a.yaml` and `specs/a.yaml` are one file), absolute otherwise.
  static func fileName(_ file: String, in directory: String) -> String {
    RelativePath.make(file, relativeTo: directory, currentDirectory: directory)
  }

  /// What `--rerun-failed` runs, in the current directory `directory`: the record's failures.
  func rerun(in directory: String) -> RerunSelection {
    RerunSelection(
      directory: directory,
      files: Set(fileErrors),
      ids: Set(failedScenarios.map(\.id)),
      names: Set(failedScenarios.map { RerunSelection.Name(file: $0.file, name: $0.name) }))
  }

  // MARK: - Encoding

  /// The file's text: JSON with one scenario (or file) a line, keys in a fixed order,
  /// ending with a line break; the same bytes on every platform.
  package func encoded() -> Data {
    var bytes: [UInt8] = []
    var text = Text { bytes += $0 }
    for entry in scenarios { text.add(entry) }
    text.finish(fileErrors: fileErrors)
    return Data(bytes)
  }

  /// The record's text, written as it is made: a piece of about 64 KB at a time goes to
  /// `output`.
  struct Text {
    private var json = JSONWriter()
    private var isFirst = true
    private let output: ([UInt8]) throws -> Void
    /// The first error `output` threw; nothing more is written after it.
    private(set) var error: (any Error)?

    init(output: @escaping ([UInt8]) throws -> Void) {
      self.output = output
      json.raw("{\n  \"version\": ")
      json.int(LastRunRecord.version)
      json.raw(",\n  \"scenarios\": [")
    }

    mutating func add(_ entry: Entry) {
      startLine()
      entry.write(to: &json)
      if json.bytes.count >= 1 << 16 { flush() }
    }

    /// Adds an entry's line as it was read.
    mutating func add(_ line: EntryLine) {
      startLine()
      json.verbatim(line.bytes)
      if json.bytes.count >= 1 << 16 { flush() }
    }

    private mutating func startLine() {
      if isFirst { json.literal("\n    ") } else { json.literal(",\n    ") }
      isFirst = false
    }

    mutating func finish(fileErrors: [String]) {
      json.raw(isFirst ? "],\n  \"fileErrors\": [" : "\n  ],\n  \"fileErrors\": [")
      for (index, file) in fileErrors.enumerated() {
        json.raw(index == 0 ? "\n    " : ",\n    ")
        json.string(file)
      }
      json.raw(fileErrors.isEmpty ? "]\n}\n" : "\n  ]\n}\n")
      flush()
    }

    private mutating func flush() {
      if error == nil {
        do { try output(json.bytes) } catch { self.error = error }
      }
      json = JSONWriter()
    }
  }

  /// Why a record cannot be read.
  package struct Unreadable: Error, CustomStringConvertible {
    var path: String
    var reason: String
    package var description: String { "cannot read \(path): \(reason)" }
  }

  /// Reads a record's text.
  ///
  /// - Throws: ``Unreadable`` when it is not JSON of this format, or of another version.
  package static func decode(_ data: Data, path: String = Self.path) throws(Unreadable) -> LastRunRecord {
    if let written = decodeWritten([UInt8](data)) { return written }
    struct Versioned: Decodable { var version: Int }
    guard let versioned = try? JSONDecoder().decode(Versioned.self, from: data) else {
      throw Unreadable(path: path, reason: "it is not a record of reducer-spec's runs (a JSON object with a version)")
    }
    guard versioned.version == Self.version else {
      throw Unreadable(
        path: path, reason: "it is version \(versioned.version) of the format, and this reducer-spec reads version \(Self.version)")
    }
    do {
      return try JSONDecoder().decode(LastRunRecord.self, from: data)
    } catch {
      throw Unreadable(path: path, reason: "it is not a record of reducer-spec's runs (\(Self.describe(error)))")
    }
  }

  /// Reads a record exactly as ``encoded()`` writes it, by hand (``RecordLineReader``);
  /// `nil` for any other text, which `JSONDecoder` then reads (or says what is wrong with).
  /// JSONDecoder took 13 ms for the record of 5,000 scenarios.
  package static func decodeWritten(_ bytes: [UInt8]) -> LastRunRecord? {
    var reader = RecordLineReader(bytes: bytes)
    return read(&reader)
  }

  /// The whole record that `reader` reads; `nil` when it is not as written.
  private static func read(_ reader: inout RecordLineReader) -> LastRunRecord? {
    var record = LastRunRecord()
    while let entry = reader.nextEntry() { record.scenarios.append(entry) }
    guard let files = reader.fileErrors() else { return nil }
    record.fileErrors = files
    return record
  }

  /// Reads the record at `path`: `nil` when there is none.
  static func load(path: String = Self.path, fileManager: FileManager = .default) throws(Unreadable) -> LastRunRecord? {
    guard fileManager.fileExists(atPath: path) else { return nil }
    if var reader = RecordLineReader(path: path) {
      defer { reader.close() }
      if let record = read(&reader) { return record }
    }
    guard let data = fileManager.contents(atPath: path) else {
      throw Unreadable(path: path, reason: "it cannot be opened")
    }
    return try decode(data, path: path)
  }

  /// Writes the record to `path` atomically (a temporary file renamed over it), creating its
  /// directory, with a `.gitignore` that ignores the directory's files, as needed.
  func write(to path: String = Self.path) throws {
    try Self.write(to: path) { text in
      for entry in scenarios { text.add(entry) }
      return fileErrors
    }
  }

  /// Updates the record at `path` with what a run did, as ``write(to:)`` writes a record,
  /// an entry at a time: neither the record nor the run's entries are held whole. A record
  /// that is not as this type writes it is read whole (and one that cannot be read is
  /// replaced).
  static func write(merging ran: Ran, into path: String = Self.path) throws {
    /// Writes the record merged from `previous`'s lines and then `previousFileErrors`.
    func write(previous: () -> EntryLine?, previousFileErrors: () -> [String]?) throws {
      try Self.write(to: path) { text in
        try forEachFile(ran, previous: previous, file: \.file) { file, lines in
          try mergedLines(file, previous: lines, in: ran, each: { text.add($0) }, eachEntry: { text.add($0) })
        }
        guard let fileErrors = previousFileErrors() else { throw OutOfOrder() }
        return mergedFileErrors(ran, previous: fileErrors)
      }
    }
    guard var reader = RecordLineReader(path: path) else {
      // No record (or one that cannot be opened, and so cannot be read): the run's own.
      try write(previous: { nil }, previousFileErrors: { [] })
      return
    }
    defer { reader.close() }
    do {
      try write(previous: { reader.nextEntryLine() }, previousFileErrors: { reader.fileErrors() })
      return
    } catch is OutOfOrder {
      // Not as this type writes it: read whole, below.
    }
    let previous = ((try? load(path: path)) ?? nil) ?? LastRunRecord()
    let merged = try previous.merging(ran)
    try merged.write(to: path)
  }

  /// Writes the text that `entries` makes (it adds the entries and returns the file errors)
  /// to `path`, atomically.
  private static func write(to path: String, entries: (inout Text) throws -> [String]) throws {
    try writeIgnoreFile(besides: path)
    var file = try AtomicFile(path: path)
    do {
      var text = Text { try file.write($0) }
      text.finish(fileErrors: try entries(&text))
      if let error = text.error { throw error }
      try file.commit()
    } catch {
      file.discard()
      throw error
    }
  }

  /// Writes the `.gitignore` that ignores the files of the record's directory, unless
  /// there is one.
  private static func writeIgnoreFile(besides path: String) throws {
    let directory = (path as NSString).deletingLastPathComponent
    let ignore = (directory.isEmpty ? "" : directory + "/") + ".gitignore"
    if !FileManager.default.fileExists(atPath: ignore) {
      var file = try AtomicFile(path: ignore)
      try file.write("# Written by reducer-spec: the record of the last run, not to be committed.\n*\n")
      try file.commit()
    }
  }

  private static func describe(_ error: any Error) -> String {
    switch error as? DecodingError {
    case .keyNotFound(let key, let context)?:
      return "no \"\(key.stringValue)\"" + where_(context)
    case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?, .dataCorrupted(let context)?:
      return context.debugDescription + where_(context)
    default:
      return "\(error)"
    }
  }

  private static func where_(_ context: DecodingError.Context) -> String {
    let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    return path.isEmpty ? "" : " at \(path)"
  }
}

/// The scenarios `--rerun-failed` keeps: every scenario of a file that could not run last
/// time, and every scenario that failed, found by its place (index and row) or by its name in
/// its file, so that one that moved or was renamed since is still found.
struct RerunSelection: Hashable, Sendable {
  struct Name: Hashable, Sendable {
    var file: String
    var name: String
  }

  /// The current directory, which the record's file names are relative to.
  var directory: String
  /// Files as the record names them (``LastRunRecord/fileName(_:in:)``).
  var files: Set<String> = []
  var ids: Set<ScenarioID> = []
  var names: Set<Name> = []

  /// Whether the spec file `file` (as the run names it) holds something to rerun.
  func includes(file: String) -> Bool {
    let file = LastRunRecord.fileName(file, in: directory)
    return files.contains(file) || ids.contains { $0.file == file } || names.contains { $0.file == file }
  }

  func contains(_ scenario: PlannedScenario) -> Bool {
    let file = LastRunRecord.fileName(scenario.id.file, in: directory)
    var id = scenario.id
    id.file = file
    return files.contains(file) || ids.contains(id) || names.contains(Name(file: file, name: scenario.name))
  }
}
