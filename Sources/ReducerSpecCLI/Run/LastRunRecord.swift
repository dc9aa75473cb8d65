import Foundation
import SpecRunner
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
  /// updated with. The entries wait in a temporary file (``SpoolFile``); in memory, only
  /// where each file's entries are.
  final class Ran {
    private let spool = SpoolFile()
    /// Where each file's entries are in the spool, by file (named as the record names it).
    private var ranges: [String: [Range<Int>]] = [:]
    /// The files that could not run, named as the record names them.
    private(set) var erroredFiles: Set<String> = []

    /// Adds a file's results, naming it `name` (see ``LastRunRecord/fileName(_:in:)``).
    func add(_ suite: SuiteResult, name: String) {
      if !suite.scenarios.isEmpty {
        // Each entry without its file: its index, its row (or -1), its outcome, and its
        // name's length and bytes.
        var bytes: [UInt8] = []
        for index in suite.scenarios.indices {
          let scenario = suite.scenarios[index]
          Self.append(scenario.id.scenario, to: &bytes)
          Self.append(scenario.id.row ?? -1, to: &bytes)
          bytes.append(Self.outcomes.firstIndex(of: scenario.outcome).map(UInt8.init) ?? 0)
          let name = scenario.name.utf8
          Self.append(name.count, to: &bytes)
          bytes.append(contentsOf: name)
        }
        let start = spool.count
        spool.append(bytes: bytes)
        ranges[name, default: []].append(start..<spool.count)
      }
      if !suite.errors.isEmpty { erroredFiles.insert(name) }
    }

    /// The files with an entry, in path order.
    var files: [String] { ranges.keys.sorted() }

    func hasEntries(of file: String) -> Bool { ranges[file] != nil }

    /// The entries of `file`, in the order they ran.
    func entries(of file: String) throws -> [Entry] {
      var entries: [Entry] = []
      for range in ranges[file] ?? [] {
        let bytes = try spool.read(range)
        var position = 0
        func int() -> Int {
          defer { position += 8 }
          return Int(Int64(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: position, as: Int64.self) }))
        }
        while position < bytes.count {
          let scenario = int()
          let row = int()
          let outcome = Self.outcomes[Int(bytes[position])]
          position += 1
          let count = int()
          let name = String(decoding: bytes[position..<position + count], as: UTF8.self)
          position += count
          entries.append(Entry(file: file, scenario: scenario, row: row < 0 ? nil : row, name: name, outcome: outcome))
        }
      }
      return entries
    }

    private static let outcomes: [ScenarioResult.Outcome] = [.passed, .failed, .skipped, .error]

    private static func append(_ value: Int, to bytes: inout [UInt8]) {
      withUnsafeBytes(of: Int64(value).littleEndian) { bytes.append(contentsOf: $0) }
    }
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

  /// This record updated with what a run did.
  func merging(_ ran: Ran) throws -> LastRunRecord {
    var merged = LastRunRecord()
    var entries = scenarios.sorted { $0.id < $1.id }.makeIterator()
    merged.fileErrors = try Self.merge(
      ran, previous: { entries.next() }, previousFileErrors: { fileErrors }, each: { merged.scenarios.append($0) })
    return merged
  }

  /// A record updated with what a run did, an entry at a time, without gathering either:
  /// `previous` gives the record's entries in file and scenario order (`nil` after the
  /// last), then `previousFileErrors` its files that could not run (`nil`: the record
  /// turned out unreadable). `each` receives every entry of the updated record in order;
  /// the updated list of files that could not run is returned. One file's entries are held
  /// at a time.
  ///
  /// The scenarios that ran replace the entries of their place or their name in their
  /// file; a file that could not run loses its entries; the other entries stay.
  private static func merge(
    _ ran: Ran, previous: () -> Entry?, previousFileErrors: () -> [String]?, each: (Entry) throws -> Void
  ) throws -> [String] {
    var pending = previous()
    var lastFile: String?
    /// The previous record's next file and its entries.
    func nextGroup() throws -> (file: String, entries: [Entry])? {
      guard let first = pending else { return nil }
      if let lastFile, !(lastFile < first.file) { throw OutOfOrder() }
      var group = [first]
      pending = previous()
      while let next = pending, next.file == first.file {
        group.append(next)
        pending = previous()
      }
      lastFile = first.file
      return (first.file, group)
    }
    let ranFiles = ran.files
    var nextRan = 0
    var group = try nextGroup()
    while group != nil || nextRan < ranFiles.count {
      let file: String
      var previousEntries: [Entry] = []
      if let current = group, nextRan == ranFiles.count || current.file <= ranFiles[nextRan] {
        file = current.file
        previousEntries = current.entries
        group = try nextGroup()
        if nextRan < ranFiles.count && ranFiles[nextRan] == file { nextRan += 1 }
      } else {
        file = ranFiles[nextRan]
        nextRan += 1
      }
      let ranHere = try ran.entries(of: file)
      var entries = ranHere
      entries.sort { $0.id < $1.id }
      // When the file's scenarios ran at the places the record has (a run of the same
      // suite), every old entry is replaced by place: no sets of ids and names to make.
      if !ran.erroredFiles.contains(file), !previousEntries.isEmpty,
        !previousEntries.elementsEqual(entries, by: { $0.id == $1.id })
      {
        let ids = Set(ranHere.map(\.id))
        let names = Set(ranHere.map(\.name))
        entries = previousEntries.filter { !ids.contains($0.id) && !names.contains($0.name) } + ranHere
        entries.sort { $0.id < $1.id }
      }
      for entry in entries { try each(entry) }
    }
    guard let previousErrors = previousFileErrors() else { throw OutOfOrder() }
    let keptFiles = previousErrors.filter { !ran.hasEntries(of: $0) }
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
      if isFirst { json.literal("\n    ") } else { json.literal(",\n    ") }
      isFirst = false
      entry.write(to: &json)
      if json.bytes.count >= 1 << 16 { flush() }
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
    guard var reader = RecordLineReader(path: path) else {
      // No record (or one that cannot be opened, and so cannot be read): the run's own.
      try write(to: path) { text in try merge(ran, previous: { nil }, previousFileErrors: { [] }) { text.add($0) } }
      return
    }
    defer { reader.close() }
    do {
      try write(to: path) { text in
        try merge(ran, previous: { reader.nextEntry() }, previousFileErrors: { reader.fileErrors() }) { text.add($0) }
      }
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
    let directory = (path as NSString).deletingLastPathComponent
    let ignore = (directory.isEmpty ? "" : directory + "/") + ".gitignore"
    if !FileManager.default.fileExists(atPath: ignore) {
      var file = try AtomicFile(path: ignore)
      try file.write("# Written by reducer-spec: the record of the last run, not to be committed.\n*\n")
      try file.commit()
    }
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
