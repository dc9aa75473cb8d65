import Foundation
import TestSupport
import Testing
@testable import ReducerSpecCLI
@testable import SpecRunner

/// `.reducer-spec/last-run.json`: its encoding, decoding, merging, and what `--rerun-failed`
/// makes of it.
@Suite struct LastRunRecordTests {
  typealias Entry = LastRunRecord.Entry
  let record = LastRunRecord(
    scenarios: [
      .init(file: "specs/counter.yaml", scenario: 0, name: "Incrementing counts up", outcome: .passed),
      .init(file: "specs/counter.yaml", scenario: 1, name: "Decrementing stops at zero", outcome: .failed),
      .init(file: "specs/search.yaml", scenario: 0, row: 1, name: "Searching for swift", outcome: .error),
    ],
    fileErrors: ["specs/broken.yaml"])

  @Test func theRecordIsOneScenarioALine() throws {
    #expect(
      String(decoding: record.encoded(), as: UTF8.self) == #"""
        {
          "version": 1,
          "scenarios": [
            {"file": "specs/counter.yaml", "scenario": 0, "name": "Incrementing counts up", "outcome": "passed"},
            {"file": "specs/counter.yaml", "scenario": 1, "name": "Decrementing stops at zero", "outcome": "failed"},
            {"file": "specs/search.yaml", "scenario": 0, "row": 1, "name": "Searching for swift", "outcome": "error"}
          ],
          "fileErrors": [
            "specs/broken.yaml"
          ]
        }

        """#)
    #expect(
      String(decoding: LastRunRecord().encoded(), as: UTF8.self) == """
        {
          "version": 1,
          "scenarios": [],
          "fileErrors": []
        }

        """)
    // Names are JSON strings, escaped.
    let quoted = LastRunRecord(scenarios: [.init(file: "a.yaml", scenario: 0, name: "Typing \"42\"\t", outcome: .passed)])
    #expect(String(decoding: quoted.encoded(), as: UTF8.self).contains(#""name": "Typing \"42\"\t""#))
    #expect(try LastRunRecord.decode(quoted.encoded()) == quoted)
  }

  @Test func aRecordDecodesToItself() throws {
    #expect(try LastRunRecord.decode(record.encoded()) == record)
    let written = #"{"version":1,"scenarios":[{"file":"a.yaml","scenario":2,"name":"N","outcome":"failed"}],"fileErrors":[]}"#
    #expect(
      try LastRunRecord.decode(Data(written.utf8))
        == LastRunRecord(scenarios: [.init(file: "a.yaml", scenario: 2, name: "N", outcome: .failed)]))
  }

  @Test func theRecordAsWrittenIsReadByHandAndAnyOtherTextByJSONDecoder() throws {
    // The hand reader takes exactly what `encoded()` writes, with a row, escapes and
    // non-ASCII names, and empty lists.
    let unusual = LastRunRecord(
      scenarios: [.init(file: "spécs/a.yaml", scenario: 3, row: 0, name: "Typing \"42\"\t…", outcome: .skipped)],
      fileErrors: ["b.yaml", "c \\ d.yaml"])
    for each in [record, unusual, LastRunRecord()] {
      #expect(LastRunRecord.decodeWritten([UInt8](each.encoded())) == each)
    }
    // Anything else is left to JSONDecoder: other spacing, another order of keys, another
    // version, text after the end.
    var spaced = String(decoding: record.encoded(), as: UTF8.self)
    spaced = spaced.replacingOccurrences(of: "\"scenario\": 1,", with: "\"scenario\":1,")
    let reordered = #"{"scenarios":[],"version":1,"fileErrors":[]}"#
    let other = String(decoding: LastRunRecord().encoded(), as: UTF8.self).replacingOccurrences(of: "1", with: "2")
    let trailing = String(decoding: record.encoded(), as: UTF8.self) + " "
    for text in [spaced, reordered, other, trailing] {
      #expect(LastRunRecord.decodeWritten(Array(text.utf8)) == nil)
    }
    #expect(try LastRunRecord.decode(Data(spaced.utf8)) == record)
    #expect(try LastRunRecord.decode(Data(reordered.utf8)) == LastRunRecord())
  }

  @Test func anUnreadableRecordSaysWhyWithItsPath() {
    func reason(_ text: String) -> String {
      do {
        _ = try LastRunRecord.decode(Data(text.utf8), path: ".reducer-spec/last-run.json")
        return "read"
      } catch {
        return error.description
      }
    }
    #expect(
      reason("{not json")
        == "cannot read .reducer-spec/last-run.json: it is not a record of reducer-spec's runs (a JSON object with a version)")
    #expect(
      reason(#"{"version":2,"runs":[]}"#)
        == "cannot read .reducer-spec/last-run.json: it is version 2 of the format, and this reducer-spec reads version 1")
    #expect(
      reason(#"{"version":1,"fileErrors":[]}"#)
        == #"cannot read .reducer-spec/last-run.json: it is not a record of reducer-spec's runs (no "scenarios")"#)
    #expect(
      reason(#"{"version":1,"fileErrors":[],"scenarios":[{"file":"a","scenario":0,"name":"n","outcome":"maybe"}]}"#)
        .hasPrefix("cannot read .reducer-spec/last-run.json: it is not a record of reducer-spec's runs ("))
  }

  @Test func writingCreatesTheDirectoryAndReadingGivesItBack() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent(".reducer-spec/last-run.json").path
    #expect(try LastRunRecord.load(path: path) == nil)
    try record.write(to: path)
    #expect(try LastRunRecord.load(path: path) == record)
    let ignore = try String(contentsOfFile: directory.appendingPathComponent(".reducer-spec/.gitignore").path, encoding: .utf8)
    #expect(ignore.hasSuffix("\n*\n"))
    // Written again in place; no temporary file is left behind.
    try LastRunRecord().write(to: path)
    #expect(try LastRunRecord.load(path: path) == LastRunRecord())
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(".reducer-spec").path).sorted()
        == [".gitignore", "last-run.json"])
  }

  @Test func theRecorderWritesWhatMergingMakesAnEntryAtATime() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent(".reducer-spec/last-run.json").path
    let run = runResult([
      SuiteResult(file: "specs/counter.yaml", scenarios: [result("specs/counter.yaml", 1, "Decrementing stops at zero", .passed)]),
      SuiteResult(file: "specs/broken.yaml", scenarios: [result("specs/broken.yaml", 0, "Now it reads", .failed)]),
      SuiteResult(file: "specs/new.yaml", errors: [
        SpecFileError(file: "specs/new.yaml", location: FileLocation(file: "specs/new.yaml", line: 1, column: 1), message: "bad")
      ]),
    ])
    try record.write(to: path)
    var warnings: [String] = []
    let recorder = LastRunRecorder(path: path, directory: "/repo") { warnings.append($0) }
    for suite in run.suites { recorder.report(suite) }
    try recorder.runFinished(run.summary)
    #expect(warnings == [])
    let merged = try record.merging(run)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == merged.encoded())
    // A record of thousands of scenarios goes out in pieces, and reads back whole.
    let large = LastRunRecord.Ran()
    large.add(
      SuiteResult(
        file: "specs/large.yaml",
        scenarios: (0..<3000).map { result("specs/large.yaml", $0, "Scenario \($0) of a large file", .passed) }),
      name: "specs/large.yaml")
    try LastRunRecord.write(merging: large, into: path)
    #expect(try LastRunRecord.load(path: path) == merged.merging(large))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(".reducer-spec").path).sorted()
        == [".gitignore", "last-run.json"])
  }

  @Test func aRecordNotAsWrittenIsMergedWholeAndAnUnreadableOneIsReplaced() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("last-run.json").path
    let ran = LastRunRecord.Ran()
    ran.add(
      SuiteResult(file: "specs/counter.yaml", scenarios: [result("specs/counter.yaml", 1, "Decrementing stops at zero", .passed)]),
      name: "specs/counter.yaml")
    let expected = try record.merging(ran)
    let entries = record.scenarios.map { #"{"file":"\#($0.file)","scenario":\#($0.scenario),\#($0.row.map { "\"row\":\($0)," } ?? "")"name":"\#($0.name)","outcome":"\#($0.outcome.rawValue)"}"# }
    let texts = [
      // JSON of the format, but not as the record writes it.
      #"{"version":1,"scenarios":[\#(entries.joined(separator: ","))],"fileErrors":["specs/broken.yaml"]}"#,
      // As written, but its entries out of order: the search's before the counter's.
      String(decoding: LastRunRecord(scenarios: record.scenarios.reversed(), fileErrors: record.fileErrors).encoded(), as: UTF8.self),
    ]
    for text in texts {
      try Data(text.utf8).write(to: URL(fileURLWithPath: path))
      try LastRunRecord.write(merging: ran, into: path)
      #expect(try LastRunRecord.load(path: path) == expected, "\(text)")
    }
    // Cut short: it cannot be read, and what the run did replaces it.
    let written = record.encoded()
    try written.prefix(written.count - 40).write(to: URL(fileURLWithPath: path))
    try LastRunRecord.write(merging: ran, into: path)
    #expect(try LastRunRecord.load(path: path) == LastRunRecord().merging(ran))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [".gitignore", "last-run.json"])
  }

  /// The run's entries wait in a temporary file, a line each: if the file changes under
  /// the run (nothing in reducer-spec writes to it again), the update fails with the
  /// spool's message, which the recorder shows as its warning, and the record stays as it
  /// was, whether the run is merged into the record or compared with it.
  @Test func entriesThatCannotBeReadBackLeaveTheRecordAsItWas() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("last-run.json").path
    try record.write(to: path)
    var template = Array(directory.appendingPathComponent("spool-XXXXXX").path.utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    try #require(descriptor >= 0)
    let ran = LastRunRecord.Ran(spool: SpoolFile(descriptor: descriptor))
    ran.add(
      SuiteResult(
        file: "specs/large.yaml",
        scenarios: (0..<3000).map { result("specs/large.yaml", $0, "Scenario \($0) of a large file", .passed) }),
      name: "specs/large.yaml")
    // Reading them back puts them all in the file.
    #expect(try ran.lines(of: "specs/large.yaml").count == 3000)
    let end = lseek(descriptor, 0, SEEK_END)
    func overwrite(at offset: off_t, with byte: Character) {
      var byte = byte.asciiValue!
      #expect(pwrite(descriptor, &byte, 1, offset) == 1)
    }
    // The last line without its line feed, then the first line's `{` changed.
    let changes: [(offset: off_t, byte: Character, was: Character, reason: String)] = [
      (end - 1, " ", "\n", "it ended early"), (0, "[", "{", "it holds other text than was written to it"),
    ]
    for change in changes {
      overwrite(at: change.offset, with: change.byte)
      defer { overwrite(at: change.offset, with: change.was) }
      for attempt in [{ _ = try ran.lines(of: "specs/large.yaml") }, { try LastRunRecord.write(merging: ran, into: path) }] {
        #expect {
          try attempt()
        } throws: { error in
          "\(error)" == "cannot read back a temporary file: \(change.reason)"
        }
      }
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == record.encoded())
    }
    // A run whose lines are the record's is compared with it, not merged into it (the same
    // run again leaves the file as it is): a spool cut short under that comparison fails it
    // alike, once every line before the last was found the same, and the record stays. The
    // record of this run alone, so that no line of another file ends the comparison early.
    try FileManager.default.removeItem(atPath: path)
    try LastRunRecord.write(merging: ran, into: path)
    let written = try Data(contentsOf: URL(fileURLWithPath: path))
    try LastRunRecord.write(merging: ran, into: path)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == written)
    overwrite(at: end - 1, with: " ")
    #expect {
      try LastRunRecord.write(merging: ran, into: path)
    } throws: { error in
      "\(error)" == "cannot read back a temporary file: it ended early"
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == written)
    overwrite(at: end - 1, with: "\n")
    #expect(try ran.lines(of: "specs/large.yaml").count == 3000)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix("spool-") }.sorted()
        == [".gitignore", "last-run.json"])
  }

  /// The recorder keeps the record's lines that do not change as they are, and makes the
  /// entries of the others: what it writes is what merging the entries makes, for records
  /// and runs of every kind (files run or not, scenarios that moved, were renamed, ran out
  /// of order or twice, files that could not run, names that need escapes).
  @Test func keepingLinesAsTheyAreWritesWhatMergingEntriesMakes() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("last-run.json").path
    var random = SplitMix64(seed: 0x1A57)
    let files = ["a.yaml", "b.yaml", "c \\ d.yaml", "spécs/e.yaml"]
    let names = ["One", "Two", "Typing \"42\"\t", "Four…"]
    let outcomes: [ScenarioResult.Outcome] = [.passed, .failed, .skipped, .error]
    func entries(of file: String) -> [Entry] {
      (0..<Int.random(in: 0...4, using: &random)).map { _ in
        Entry(
          file: file, scenario: Int.random(in: 0...3, using: &random), row: [nil, nil, 0, 1].randomElement(using: &random)!,
          name: names.randomElement(using: &random)!, outcome: outcomes.randomElement(using: &random)!)
      }
    }
    for round in 0..<400 {
      // The record: files in order, each file's entries sorted or (now and then) not.
      var previous = LastRunRecord()
      for file in files.sorted() where Bool.random(using: &random) {
        let group = entries(of: file)
        previous.scenarios += Int.random(in: 0...4, using: &random) == 0 ? group : group.sorted { $0.id < $1.id }
      }
      previous.fileErrors = files.filter { _ in Int.random(in: 0...3, using: &random) == 0 }.sorted()
      // The run: the same scenarios with new outcomes, other scenarios, or a file that could not run.
      let ran = LastRunRecord.Ran()
      for file in files where Bool.random(using: &random) {
        var group = entries(of: file)
        if Bool.random(using: &random) {
          group = previous.scenarios.filter { $0.file == file }.sorted { $0.id < $1.id }
          for index in group.indices { group[index].outcome = outcomes.randomElement(using: &random)! }
        }
        let results = group.map { result(file, $0.scenario, $0.name, $0.outcome, row: $0.row) }
        let errors =
          Int.random(in: 0...4, using: &random) == 0
          ? [SpecFileError(file: file, location: FileLocation(file: file, line: 1, column: 1), message: "bad")] : []
        ran.add(SuiteResult(file: file, scenarios: results, errors: errors), name: file)
      }
      let expected = try previous.merging(ran)
      try previous.write(to: path)
      try LastRunRecord.write(merging: ran, into: path)
      let written = try Data(contentsOf: URL(fileURLWithPath: path))
      #expect(written == expected.encoded(), "round \(round)")
      // The same run again changes nothing.
      try LastRunRecord.write(merging: ran, into: path)
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == written, "round \(round), again")
    }
  }

  /// A run in which nothing changed since the last one writes the record it found, byte
  /// for byte; any other run is merged into it.
  @Test func aRunThatChangedNothingWritesTheSameRecord() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent(".reducer-spec/last-run.json").path
    let broken = SpecFileError(file: "specs/broken.yaml", location: FileLocation(file: "specs/broken.yaml", line: 1, column: 1), message: "bad")
    let suites = [
      SuiteResult(file: "specs/a.yaml", scenarios: [
        result("specs/a.yaml", 0, "Typing \"42\"\t", .passed), result("specs/a.yaml", 1, "Rows", .failed, row: 0),
        result("specs/a.yaml", 1, "Rows", .passed, row: 1),
      ]),
      SuiteResult(file: "specs/broken.yaml", errors: [broken]),
      SuiteResult(file: "specs/é.yaml", scenarios: [result("specs/é.yaml", 0, "Skipped", .skipped)]),
    ]
    func ran(_ suites: [SuiteResult]) -> LastRunRecord.Ran {
      let ran = LastRunRecord.Ran()
      for suite in suites { ran.add(suite, name: suite.file) }
      return ran
    }
    try LastRunRecord.write(merging: ran(suites), into: path)
    let written = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(written == (try LastRunRecord().merging(ran(suites))).encoded())
    try LastRunRecord.write(merging: ran(suites), into: path)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == written)
    // The directory's .gitignore is made again when it is missing.
    let ignore = directory.appendingPathComponent(".reducer-spec/.gitignore").path
    try FileManager.default.removeItem(atPath: ignore)
    try LastRunRecord.write(merging: ran(suites), into: path)
    #expect(FileManager.default.fileExists(atPath: ignore))

    var changed = suites
    changed[0].scenarios[1].outcome = .passed
    var fewer = suites
    fewer[2].scenarios = []
    var unordered = suites
    unordered[0].scenarios.swapAt(1, 2)
    var nowBroken = suites
    nowBroken[2].errors = [broken]
    var fixed = suites
    fixed[1].errors = []
    fixed[1].scenarios = [result("specs/broken.yaml", 0, "Now it reads", .passed)]
    let runs = [
      ("an outcome", changed), ("a file's scenarios", fewer), ("the order of a file's scenarios", unordered),
      ("a file that cannot run", nowBroken), ("a file that runs again", fixed),
      ("the order of the files", suites.reversed()), ("a file run twice", suites + [suites[2]]),
    ]
    for (what, run) in runs {
      try written.write(to: URL(fileURLWithPath: path))
      let expected = try #require(try LastRunRecord.load(path: path)).merging(ran(run))
      try LastRunRecord.write(merging: ran(run), into: path)
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == expected.encoded(), "\(what)")
    }

    // A record with the same entries but a comma after its last one (JSON that the record
    // does not write) is written as the record writes it.
    let text = String(decoding: written, as: UTF8.self)
    let comma = text.replacingOccurrences(of: "\"skipped\"}\n  ]", with: "\"skipped\"},\n  ]")
    #expect(comma != text)
    try Data(comma.utf8).write(to: URL(fileURLWithPath: path))
    try LastRunRecord.write(merging: ran(suites), into: path)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == written)
  }

  @Test func aLineThatDoesNotChangeIsKeptAsItIs() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("last-run.json").path
    // Written by hand with an escape that the record does not write: JSON all the same.
    let text = #"""
      {
        "version": 1,
        "scenarios": [
          {"file": "a.yaml", "scenario": 0, "name": "\u0041dding", "outcome": "passed"},
          {"file": "b.yaml", "scenario": 0, "name": "\u0042uilding", "outcome": "failed"}
        ],
        "fileErrors": []
      }

      """#
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let ran = LastRunRecord.Ran()
    ran.add(SuiteResult(file: "b.yaml", scenarios: [result("b.yaml", 0, "Building", .passed)]), name: "b.yaml")
    try LastRunRecord.write(merging: ran, into: path)
    // a.yaml did not run: its line is the same bytes. b.yaml's is the run's.
    #expect(
      try String(contentsOfFile: path, encoding: .utf8) == text.replacingOccurrences(
        of: #"{"file": "b.yaml", "scenario": 0, "name": "\u0042uilding", "outcome": "failed"}"#,
        with: #"{"file": "b.yaml", "scenario": 0, "name": "Building", "outcome": "passed"}"#))
  }

  @Test func aRecordThatCannotBeWrittenIsAWarning() throws {
    let file = try TemporaryFile([], name: "a-file")
    let path = file.path + "/.reducer-spec/last-run.json"
    var warnings: [String] = []
    let recorder = LastRunRecorder(path: path, directory: "/repo") { warnings.append($0) }
    recorder.report(SuiteResult(file: "a.yaml", scenarios: [result("a.yaml", 0, "A", .passed)]))
    try recorder.runFinished(RunSummary())
    #expect(
      warnings == [
        "reducer-spec: warning: could not write the record of this run to \(path): \(file.path) is not a directory"
      ])
  }

  @Test func aRunReplacesTheEntriesOfWhatItRanAndKeepsTheOthers() throws {
    let run = runResult([
      SuiteResult(file: "specs/counter.yaml", scenarios: [result("specs/counter.yaml", 1, "Decrementing stops at zero", .passed)])
    ])
    let merged = try record.merging(run)
    #expect(merged.scenarios.map(\.outcome) == [.passed, .passed, .error])
    #expect(merged.fileErrors == ["specs/broken.yaml"])
    #expect(merged.hasFailures)

    // The broken file reads now, and the search passes: nothing failed.
    let fixed = try merged.merging(
      runResult([
        SuiteResult(file: "specs/broken.yaml", scenarios: [result("specs/broken.yaml", 0, "Now it reads", .skipped)]),
        SuiteResult(file: "specs/search.yaml", scenarios: [result("specs/search.yaml", 0, "Searching for swift", .passed, row: 1)]),
      ]))
    #expect(fixed.fileErrors == [])
    #expect(!fixed.hasFailures)
    #expect(fixed.scenarios.map(\.file) == ["specs/broken.yaml", "specs/counter.yaml", "specs/counter.yaml", "specs/search.yaml"])
  }

  @Test func aScenarioThatMovedOrWasRenamedIsListedOnce() throws {
    // A scenario was inserted before "Decrementing stops at zero", which is now index 2.
    let moved = try record.merging(runResult([
      SuiteResult(file: "specs/counter.yaml", scenarios: [
        result("specs/counter.yaml", 2, "Decrementing stops at zero", .passed)
      ])
    ]))
    #expect(moved.scenarios.filter { $0.file == "specs/counter.yaml" }.map(\.scenario) == [0, 2])
    // The first scenario was renamed in place.
    let renamed = try record.merging(runResult([
      SuiteResult(file: "specs/counter.yaml", scenarios: [result("specs/counter.yaml", 0, "Counting up", .failed)])
    ]))
    #expect(renamed.scenarios.filter { $0.file == "specs/counter.yaml" }.map(\.name) == ["Counting up", "Decrementing stops at zero"])
  }

  @Test func aFileThatCannotRunReplacesTheEntriesOfItsScenarios() throws {
    let run = runResult([
      SuiteResult(file: "specs/counter.yaml", errors: [
        SpecFileError(file: "specs/counter.yaml", location: FileLocation(file: "specs/counter.yaml", line: 1, column: 1), message: "bad")
      ])
    ])
    let merged = try record.merging(run)
    #expect(merged.fileErrors == ["specs/broken.yaml", "specs/counter.yaml"])
    #expect(merged.scenarios.map(\.file) == ["specs/search.yaml"])
  }

  @Test func filesAreNamedRelativeToTheCurrentDirectory() throws {
    #expect(LastRunRecord.fileName("./specs/a.yaml", in: "/repo") == "specs/a.yaml")
    #expect(LastRunRecord.fileName("/repo/specs/a.yaml", in: "/repo") == "specs/a.yaml")
    #expect(LastRunRecord.fileName("../other/a.yaml", in: "/repo") == "/other/a.yaml")
    let merged = try LastRunRecord().merging(
      runResult([SuiteResult(file: "./specs/a.yaml", scenarios: [result("./specs/a.yaml", 0, "A", .failed)])])
    ) { LastRunRecord.fileName($0, in: "/repo") }
    #expect(merged.scenarios.map(\.file) == ["specs/a.yaml"])
  }

  @Test func rerunningSelectsTheFailuresByPlaceOrName() {
    let selection = record.rerun(in: "/repo")
    #expect(selection.includes(file: "specs/broken.yaml"))
    #expect(selection.includes(file: "./specs/counter.yaml"))
    #expect(selection.includes(file: "/repo/specs/search.yaml"))
    #expect(!selection.includes(file: "specs/todos.yaml"))
    #expect(selection.contains(planned("specs/counter.yaml", 1, "Decrementing stops at zero")))
    #expect(selection.contains(planned("specs/counter.yaml", 4, "Decrementing stops at zero")), "moved")
    #expect(selection.contains(planned("specs/counter.yaml", 1, "Renamed")), "renamed")
    #expect(!selection.contains(planned("specs/counter.yaml", 0, "Incrementing counts up")), "passed")
    #expect(selection.contains(planned("specs/search.yaml", 0, "Searching for swift", row: 1)))
    #expect(!selection.contains(planned("specs/search.yaml", 0, "Searching for rust", row: 0)))
    #expect(selection.contains(planned("specs/broken.yaml", 3, "Anything")), "a file that could not run")
  }

  @Test func rerunFailedCombinesWithTheOtherSelections() {
    var selection = ScenarioSelection(filters: ["counter"])
    selection.rerun = record.rerun(in: "/repo")
    let plan = [
      planned("specs/counter.yaml", 0, "Incrementing counts up"),
      planned("specs/counter.yaml", 1, "Decrementing stops at zero"),
      planned("specs/search.yaml", 0, "Searching for swift", row: 1),
    ]
    #expect(selection.apply(to: plan).map(\.name) == ["Decrementing stops at zero"])
    selection.filters = []
    selection.shard = Shard(index: 2, count: 2)
    #expect(selection.apply(to: plan).map(\.name) == ["Searching for swift"])
  }

  @Test func whatRerunFailedDoes() {
    let files = ["specs/counter.yaml", "specs/search.yaml", "specs/todos.yaml"]
    #expect(
      RunCommand.rerun(nil, files: files, directory: "/repo")
        == .nothing("no record of a last run in .reducer-spec/last-run.json: nothing to rerun"))
    #expect(
      RunCommand.rerun(LastRunRecord(scenarios: [record.scenarios[0]]), files: files, directory: "/repo")
        == .nothing("nothing failed in the last run (.reducer-spec/last-run.json): nothing to rerun"))
    #expect(
      RunCommand.rerun(record, files: ["specs/todos.yaml"], directory: "/repo")
        == .nothing("nothing that failed in the last run (.reducer-spec/last-run.json) is in the given paths: nothing to rerun"))
    #expect(
      RunCommand.rerun(record, files: files, directory: "/repo")
        == .run(files: ["specs/counter.yaml", "specs/search.yaml"], selection: record.rerun(in: "/repo")))
  }
}

private func result(
  _ file: String, _ index: Int, _ name: String, _ outcome: ScenarioResult.Outcome, row: Int? = nil
) -> ScenarioResult {
  ScenarioResult(
    id: ScenarioID(file: file, scenario: index, row: row), name: name,
    location: FileLocation(file: file, line: 3, column: 5), tags: [], outcome: outcome, duration: 0.01)
}

private func planned(_ file: String, _ index: Int, _ name: String, row: Int? = nil) -> PlannedScenario {
  PlannedScenario(
    id: ScenarioID(file: file, scenario: index, row: row), name: name,
    location: FileLocation(file: file, line: 3, column: 5), tags: [])
}

private func runResult(_ suites: [SuiteResult]) -> RunResult { RunResult(suites: suites, duration: 0) }
