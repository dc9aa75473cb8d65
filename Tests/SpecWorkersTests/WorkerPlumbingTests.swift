import Foundation
import SpecFixtures
import TestSupport
import Testing
@testable import ReducerSpecCLI
@testable import SpecAuthoring
@testable import SpecProcess
@testable import SpecRunner
@testable import SpecWorkers

/// The parts of the worker pool that need no process: the line protocol, the quoted tail
/// of a worker's standard error, and delivery in run order.
@Suite struct WorkerPlumbingTests {
  /// `line`, as text, without its line break (which it must end with, and have no other).
  private func text(_ line: [UInt8]) -> String {
    #expect(line.last == UInt8(ascii: "\n"))
    #expect(line.count { $0 == UInt8(ascii: "\n") } == 1)
    return String(decoding: line.dropLast(), as: UTF8.self)
  }

  /// Writes `value` as a line, reads it back, and returns the line's text.
  @discardableResult
  private func roundTrip<Value: WorkerCodable & Equatable>(_ value: Value) -> String {
    let line = value.line
    #expect(Value(line: Array(line.dropLast())) == value, "\(value)")
    return text(line)
  }

  /// A worker asked to read files ahead keeps them: its engine keeps a file's scenarios,
  /// and the worker its plan, past the files it reads after it before they run (those read
  /// ahead, and as many again for the batches of files read before them), or it would read
  /// them again.
  @Test func aWorkerKeepsMoreFilesThanItIsAskedToReadAhead() {
    #expect(SpecEngine.cacheSize >= 2 * WorkerPool.readsAhead)
    #expect(WorkerMain.keptPlans > SpecEngine.cacheSize)
  }

  @Test func everyRequestIsOneCompactLineThatReadsBackTheSame() {
    let ids = [
      ScenarioID(file: "specs/counter.yaml", scenario: 2, row: 1), ScenarioID(file: #"specs/"q"\é.yaml"#, scenario: 3),
    ]
    #expect(
      roundTrip(WorkerRequest.run(ids, timeout: 1.5))
        == #"["run",1.5,[["specs/counter.yaml",2,1],["specs/\"q\"\\é.yaml",3]]]"#)
    #expect(roundTrip(WorkerRequest.run([], timeout: 10)) == #"["run",10,[]]"#)
    #expect(roundTrip(WorkerRequest.run(ids, timeout: 1e-5)).hasPrefix(#"["run",1e-05,"#))
    #expect(roundTrip(WorkerRequest.run(ids, timeout: .infinity)).hasPrefix(#"["run",1e999,"#))
    #expect(roundTrip(WorkerRequest.plan("specs/counter.yaml")) == #"["plan","specs/counter.yaml"]"#)
    #expect(roundTrip(WorkerRequest.plan("a\tb\n.yaml")) == #"["plan","a\tb\n.yaml"]"#)
    #expect(roundTrip(WorkerRequest.forget) == #"["forget"]"#)
    #expect(roundTrip(WorkerRequest.record("specs/a.yaml", filter: nil)) == #"["record","specs/a.yaml",null]"#)
    #expect(
      roundTrip(WorkerRequest.record("specs/a.yaml", filter: "a.yaml › Counting"))
        == #"["record","specs/a.yaml","a.yaml › Counting"]"#)
    #expect(roundTrip(WorkerRequest.check("specs/counter.yaml")) == #"["check","specs/counter.yaml"]"#)
  }

  @Test func everyMessageIsOneCompactLineThatReadsBackTheSame() {
    let location = FileLocation(file: "specs/counter.yaml", line: 14, column: 9)
    #expect(roundTrip(WorkerMessage.step(location)) == #"["step",["specs/counter.yaml",14,9]]"#)
    #expect(roundTrip(WorkerMessage.passed(0.00125, stubCalls: nil)) == #"["passed",0.00125]"#)
    #expect(roundTrip(WorkerMessage.passed(2, stubCalls: nil)) == #"["passed",2]"#)
    #expect(
      roundTrip(WorkerMessage.passed(0.5, stubCalls: ["gauge.save": 0, "gauge.read": 2]))
        == #"["passed",0.5,[["gauge.read",2],["gauge.save",0]]]"#)
    #expect(roundTrip(WorkerMessage.recording) == #"["recording"]"#)

    let failed = ScenarioResult(
      id: ScenarioID(file: "a.yaml", scenario: 0, row: 3), name: "two\nlines",
      location: FileLocation(file: "a.yaml", line: 3, column: 5), tags: ["smoke", ""], outcome: .failed, duration: 0.25,
      failures: [
        StepFailure(
          location: FileLocation(file: "b.yaml", line: 4, column: 9),
          message: "A state change does not match expectation: …\n\n  − a\n  + b", sourceLine: "    - send: increment"),
        StepFailure(location: location, message: ""),
      ])
    #expect(
      roundTrip(WorkerMessage.result(failed))
        == #"["result",[["a.yaml",0,3],"two\nlines",["a.yaml",3,5],["smoke",""],"failed",0.25,"#
        + #"[[["b.yaml",4,9],"A state change does not match expectation: …\n\n  − a\n  + b","    - send: increment"],"#
        + #"[["specs/counter.yaml",14,9],"",null]],null,null]]"#)
    for outcome in [ScenarioResult.Outcome.passed, .failed, .skipped, .error] {
      var result = failed
      result.outcome = outcome
      result.failures = []
      result.skipReason = outcome == .skipped ? "waiting for the design" : nil
      result.errorMessage = outcome == .error ? "the worker crashed with signal SIGILL\nThe worker's last lines" : nil
      roundTrip(WorkerMessage.result(result))
    }
    var calling = failed
    calling.stubCalls = ["gauge.read": 3]
    #expect(roundTrip(WorkerMessage.result(calling)).hasSuffix(#",null,null,[],[["gauge.read",3]]]]"#))
    calling.notes = [StepFailure(location: location, message: "skipped")]
    #expect(roundTrip(WorkerMessage.result(calling)).hasSuffix(#""skipped",null]],[["gauge.read",3]]]]"#))
    var odd = failed
    odd.duration = .infinity
    roundTrip(WorkerMessage.result(odd))
    odd.duration = .nan
    // NaN is not equal to itself: compare its line.
    #expect(WorkerMessage(line: Array(WorkerMessage.result(odd).line.dropLast())).map { $0.line } == WorkerMessage.result(odd).line)

    let error = SpecFileError(
      file: "a.yaml", location: FileLocation(file: "a.yaml", line: 6, column: 9),
      message: "unknown key `stat` in a step; did you mean `state`?", sourceLine: "        stat: {}")
    let broken = LoadedFile(
      file: "a.yaml", feature: nil, scenarios: [],
      errors: [error, SpecFileError(file: "a.yaml", location: FileLocation(file: "a.yaml", line: 0, column: 0), message: "x")])
    #expect(
      roundTrip(WorkerMessage.plan(broken))
        == #"["plan",["a.yaml",null,[],[["a.yaml",["a.yaml",6,9],"unknown key `stat` in a step; did you mean `state`?","        stat: {}"],"#
        + #"["a.yaml",["a.yaml",0,0],"x",null]]]]"#)

    let recorded = RecordedFile(
      scenarios: 3, broken: false, errors: "a.yaml: error: cannot\n",
      notes: ["a.yaml:3:5: note: exhaustivity is off: this scenario is left as it is"],
      rewritten: Array("feature: Tally\r\n\t\"é\"\u{1}\\".utf8) + [0xFF, 0xC3], diff: "--- a/a.yaml\n+++ b/a.yaml\n")
    // The new text goes as its bytes, escaped as a string's; bytes that are not UTF-8 as they are.
    roundTrip(WorkerMessage.recorded(recorded))
    let line = WorkerMessage.recorded(recorded).line
    let expected = Array(#"["recorded",[3,false,"a.yaml: error: cannot\n",["a.yaml:3:5: note: exhaustivity is off: this scenario is left as it is"],"#.utf8)
      + Array(#""feature: Tally\r\n\t\"é\"\u0001\\"#.utf8) + [0xFF, 0xC3]
      + Array(#"","--- a/a.yaml\n+++ b/a.yaml\n"]]"#.utf8) + [UInt8(ascii: "\n")]
    #expect(line == expected, "\(String(decoding: line, as: UTF8.self))")
    #expect(roundTrip(WorkerMessage.recorded(RecordedFile())) == #"["recorded",[0,false,"",[],null,""]]"#)
    roundTrip(WorkerMessage.recorded(RecordedFile(scenarios: 0, broken: true, errors: "x\n", rewritten: [])))

    // A check: the file as read, and each scenario's skip reason.
    let planned = [
      PlannedScenario(
        id: ScenarioID(file: "a.yaml", scenario: 0), name: "counts", location: FileLocation(file: "a.yaml", line: 3, column: 5),
        tags: []),
      PlannedScenario(
        id: ScenarioID(file: "a.yaml", scenario: 1), name: "later", location: FileLocation(file: "a.yaml", line: 9, column: 5),
        tags: ["draft"]),
    ]
    let checked = CheckedFile(
      file: LoadedFile(file: "a.yaml", feature: "Counter", scenarios: planned, errors: []),
      skipReasons: [nil, "waiting for the design"])
    #expect(
      roundTrip(WorkerMessage.checked(checked))
        == #"["checked",["a.yaml","Counter",[[0,null,3,5,"counts",[]],[1,null,9,5,"later",["draft"]]],[]],[null,"waiting for the design"]]"#)
    #expect(
      roundTrip(WorkerMessage.checked(CheckedFile(file: broken, skipReasons: [])))
        == #"["checked",["a.yaml",null,[],[["a.yaml",["a.yaml",6,9],"unknown key `stat` in a step; did you mean `state`?","        stat: {}"],"#
        + #"["a.yaml",["a.yaml",0,0],"x",null]]],[]]"#)
    #expect(WorkerMessage(line: Array(#"["checked",["a.yaml",null,[],[]],[1]]"#.utf8)) == nil)
  }

  @Test func aCheckedFilesResultsAreItsScenariosPassedOrSkipped() {
    let location = FileLocation(file: "a.yaml", line: 3, column: 5)
    let scenario = PlannedScenario(id: ScenarioID(file: "a.yaml", scenario: 0), name: "counts", location: location, tags: ["t"])
    let skipped = PlannedScenario(id: ScenarioID(file: "a.yaml", scenario: 1), name: "later", location: location, tags: [])
    let file = LoadedFile(file: "a.yaml", feature: "Counter", scenarios: [scenario, skipped], errors: [])
    let results = CheckedFile(file: file, skipReasons: [nil, "not yet"]).results
    #expect(results.map(\.outcome) == [.passed, .skipped])
    #expect(results.map(\.skipReason) == [nil, "not yet"])
    #expect(results.map(\.duration) == [0, 0])
    #expect(results[0].tags == ["t"])
    var broken = file
    broken.errors = [SpecFileError(file: "a.yaml", location: location, message: "x")]
    #expect(CheckedFile(file: broken, skipReasons: []).results.isEmpty)
  }

  @Test func aFilesPlanLeavesOutItsPathWhereAScenarioHasIt() throws {
    let file = #"specs/a "b"\c.yaml"#
    func scenario(_ index: Int, row: Int? = nil, _ name: String, tags: [String]) -> PlannedScenario {
      PlannedScenario(
        id: ScenarioID(file: file, scenario: index, row: row), name: name,
        location: FileLocation(file: file, line: 3 + index, column: 5), tags: tags)
    }
    let plan = LoadedFile(
      file: file, feature: "Counter",
      scenarios: [
        scenario(0, "counts", tags: ["smoke", "slow"]),
        scenario(1, row: 0, "two\nlines\tand a \u{1} and \"quotes\" / é 🎉", tags: []),
        scenario(1, row: 12, "", tags: [""]),
      ], errors: [])
    #expect(
      roundTrip(WorkerMessage.plan(plan))
        == #"["plan",["specs/a \"b\"\\c.yaml","Counter",[[0,null,3,5,"counts",["smoke","slow"]],"#
        + #"[1,0,4,5,"two\nlines\tand a \u0001 and \"quotes\" / é 🎉",[]],[1,12,4,5,"",[""]]],[]]]"#)
    // Standard JSON: any reader reads it.
    let json = try JSONSerialization.jsonObject(with: Data(WorkerMessage.plan(plan).line)) as? [Any]
    #expect(((json?[1] as? [Any])?[0] as? String) == file)

    var noFeature = plan
    noFeature.feature = nil
    roundTrip(WorkerMessage.plan(noFeature))
    #expect(
      roundTrip(WorkerMessage.plan(LoadedFile(file: "a.yaml", feature: "Counter", scenarios: [], errors: [])))
        == #"["plan",["a.yaml","Counter",[],[]]]"#)
    // A scenario whose id or location is in another file says so.
    let elsewhere = LoadedFile(
      file: "a.yaml", feature: "Counter",
      scenarios: [
        PlannedScenario(
          id: ScenarioID(file: "a.yaml", scenario: 0), name: "x", location: FileLocation(file: "b.yaml", line: 1, column: 1),
          tags: [])
      ], errors: [])
    #expect(roundTrip(WorkerMessage.plan(elsewhere)) == #"["plan",["a.yaml","Counter",[[0,null,1,1,"x",[],"a.yaml","b.yaml"]],[]]]"#)
  }

  @Test func integersAreWrittenAsJSONAndReadBack() {
    let values = [0, 7, 10, 99, 12345, -1, -42, Int.max, Int.min]
    var json = JSONWriter()
    for (index, value) in values.enumerated() {
      if index > 0 { json.literal(",") }
      json.int(value)
    }
    #expect(String(decoding: json.bytes, as: UTF8.self) == values.map(String.init).joined(separator: ","))
    var cursor = JSONCursor(json.bytes)
    var read: [Int] = []
    repeat {
      guard let value = cursor.int() else { break }
      read.append(value)
    } while cursor.take(",")
    #expect(read == values)
    // One past either end is refused, and the cursor stays where the number starts.
    for text in ["9223372036854775808", "-9223372036854775809", "99999999999999999999"] {
      var cursor = JSONCursor(Array(text.utf8))
      #expect(cursor.int() == nil, "\(text)")
      #expect(cursor.offset == 0, "\(text)")
    }
  }

  @Test func stringsAreEscapedAndReadWhereverTheSpecialByteFalls() {
    // Strings are looked through eight bytes at a time: a quote, a backslash or a control
    // character is found at every place in a word, and bytes of UTF-8 (0x80 and over) and
    // the neighbours of the special bytes are not taken for them.
    let specials: [(Character, String)] = [("\"", #"\""#), ("\\", #"\\"#), ("\n", #"\n"#), ("\u{1}", #"\u0001"#), ("\u{1F}", #"\u001f"#)]
    let plain: [Character] = ["a", "é", "!", "#", "[", "]", " ", "\u{7F}", "…"]
    for length in 0..<20 {
      for place in 0...length {
        for (special, escaped) in specials + [("x", "x")] {
          let filler = String((0..<length).map { plain[$0 % plain.count] })
          let text = String(filler.prefix(place)) + String(special) + String(filler.dropFirst(place))
          var json = JSONWriter()
          json.string(text)
          let expected = "\"" + String(filler.prefix(place)) + escaped + String(filler.dropFirst(place)) + "\""
          #expect(String(decoding: json.bytes, as: UTF8.self) == expected)
          var cursor = JSONCursor(json.bytes)
          #expect(cursor.string() == text)
          #expect(cursor.isAtEnd)
          var skipping = JSONCursor(json.bytes)
          let skipped = skipping.skipString()
          #expect(skipped && skipping.isAtEnd)
        }
        // A control character as it is ends no string: it is not JSON.
        let raw = Array(("\"" + String(repeating: "b", count: place) + "\u{2}" + String(repeating: "c", count: length) + "\"").utf8)
        var cursor = JSONCursor(raw)
        #expect(cursor.string() == nil)
        var skipping = JSONCursor(raw)
        let skipped = skipping.skipString()
        #expect(!skipped)
      }
    }
  }

  @Test func numbersAreReadAsDoubleReadsThem() {
    // Durations as workers write them, and numbers at the limits of a double's precision
    // and range.
    var texts = [
      "0", "-0", "0.5", "-0.25", "0.000123", "1.5e-05", "12.75", "0.1", "0.30000000000000004",
      "9007199254740991", "9007199254740992", "9007199254740993", "0.9007199254740993",
      "1.0000000000000000000001", "123456789012345678901234567890", "1e999", "-1e999", "5e-324",
      "0.0000000000000000000001", "0.00000000000000000000001", "1E3", "+1",
    ]
    // Short decimals that are read without `Double(_:)` (and texts like them that are not).
    texts += [
      "0.000131542", "1.31542e-05", "1.31542E-05", "1.5e+16", "1e22", "1e23", "1e-22", "1e-23", "999999999999999",
      "9999999999999999", "0.1234567890123456", "00.5", "1.", ".5", "-.5", "1e", "1e+", "-", "1-2", "1.2.3", "1e5e5",
      "-0.0", "0e999", "5e-1000", "123456789012345e-22", "1234567890123456e-22", "1.0e0001",
    ]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2000 {
      let value = Double.random(in: 0..<2, using: &generator) * Double(Int.random(in: 1...1000, using: &generator))
      var json = JSONWriter()
      json.double(value)
      texts.append(String(decoding: json.bytes, as: UTF8.self))
      // A duration as a worker measures it, from whole nanoseconds.
      let duration = Duration.nanoseconds(Int64.random(in: 0...5_000_000_000, using: &generator))
      var written = JSONWriter()
      written.double(duration.inSeconds)
      texts.append(String(decoding: written.bytes, as: UTF8.self))
    }
    for text in texts {
      var cursor = JSONCursor(Array(text.utf8))
      let read = cursor.number()
      let expected = Double(text)
      #expect(read?.bitPattern == expected?.bitPattern, "\(text)")
      #expect(cursor.offset == (expected == nil ? 0 : text.utf8.count), "\(text)")
    }
  }

  @Test func aDurationIsItsNanosecondsInSeconds() {
    #expect(Duration.nanoseconds(131_542).inSeconds == Double("0.000131542"))
    #expect((Duration.seconds(1) + .milliseconds(500)).inSeconds == 1.5)
    #expect(Duration.zero.inSeconds == 0)
    // Attoseconds below a nanosecond are below the clock's resolution: dropped.
    #expect(Duration(secondsComponent: 2, attosecondsComponent: 999).inSeconds == 2)
    #expect(Duration.seconds(2_000_000).inSeconds == 2_000_000)
    var json = JSONWriter()
    json.double(Duration.nanoseconds(131_542).inSeconds)
    #expect(String(decoding: json.bytes, as: UTF8.self) == "0.000131542")
  }

  @Test func aLineThatIsNotExactlyAMessageIsNotRead() {
    let good = #"["plan",["a.yaml","Counter",[[0,null,3,5,"x",["t"]]],[]]]"#
    #expect(WorkerMessage(line: Array(good.utf8)) != nil)
    for bad in [
      String(good.dropLast()), good + " ", good + "]", good.replacingOccurrences(of: "null", with: "nul"),
      good.replacingOccurrences(of: "3,5", with: "3,"), good.replacingOccurrences(of: "\"x\"", with: "\"x\\q\""),
      good.replacingOccurrences(of: "\"x\"", with: "\"x\\u12\""),
      good.replacingOccurrences(of: "\"x\"", with: "\"\\ud800\""),
      good.replacingOccurrences(of: "3,5", with: "99999999999999999999,5"),
      good.replacingOccurrences(of: "\"x\"", with: "\"x\ny\""), good.replacingOccurrences(of: "[]]]", with: "]]"),
      #"["passed",]"#, #"["passed"]"#, #"["result",[]]"#, #"["step",["a",1]]"#, #"["recording",1]"#,
      #"["recorded",[0,maybe,"",[],null,""]]"#, #"{"passed":0.1}"#, #"["nonsense"]"#, "",
    ] {
      #expect(WorkerMessage(line: Array(bad.utf8)) == nil, "\(bad)")
    }
    let escaped = #"["plan",["a.yaml",null,[[0,null,1,1,"\u00e9\ud83c\udf89\/\b\f\r",[]]],[]]]"#
    guard case .plan(let file)? = WorkerMessage(line: Array(escaped.utf8)) else {
      Issue.record("not read: \(escaped)")
      return
    }
    #expect(file.scenarios.first?.name == "é🎉/\u{8}\u{C}\r")

    for other in [
      #"["plan","a.yaml",1]"#, #"["run",1]"#, #"["run",,[]]"#, #"["run",1,[["a"]]]"#, #"["run",1,[["a",1,]]]"#,
      #"["record","a.yaml"]"#, #"["record","a.yaml",1]"#, #"["plan","a.yaml"] "#, #"{"plan":"a.yaml"}"#,
    ] {
      #expect(WorkerRequest(line: Array(other.utf8)) == nil, "\(other)")
    }
  }

  @Test func aPlainPassIsOneShortLine() throws {
    let planned = PlannedScenario(
      id: ScenarioID(file: "a.yaml", scenario: 1), name: "counts", location: FileLocation(file: "a.yaml", line: 3, column: 5),
      tags: ["smoke"])
    let passed = WorkerMessage.passedResult(planned, duration: 0.00125, stubCalls: nil)
    #expect(WorkerMessage.answer(passed, planned: planned) == .passed(0.00125, stubCalls: nil))
    // A pass with stub calls is still short: the calls go with it.
    var calling = passed
    calling.stubCalls = ["gauge.read": 1]
    #expect(WorkerMessage.answer(calling, planned: planned) == .passed(0.00125, stubCalls: ["gauge.read": 1]))

    // Anything the plan does not say goes in full: a failure, a skip, another name, no plan.
    var failed = passed
    failed.outcome = .failed
    failed.failures = [StepFailure(location: planned.location, message: "no")]
    #expect(WorkerMessage.answer(failed, planned: planned) == .result(failed))
    var renamed = passed
    renamed.name = "counts twice"
    #expect(WorkerMessage.answer(renamed, planned: planned) == .result(renamed))
    #expect(WorkerMessage.answer(passed, planned: nil) == .result(passed))
  }

  @Test func sendingToAWorkerThatEndedFailsWithoutEndingTheCommand() throws {
    // Without care, the write raises SIGPIPE, whose default action ends this process.
    let process = try WorkerProcess.spawn(executable: "/bin/sh", arguments: ["-c", "exit 0"], environment: [:])
    #expect(process.wait() == .exited(0))
    // Another test's spawn, between its fork and its exec, holds a copy of every descriptor
    // of this process, the pipe's read end too: a write then lands in the pipe. Once that
    // child has exec'd, the read end is gone and the write fails.
    let failed = (0..<500).contains { _ in
      if !process.send(WorkerRequest.plan("a.yaml").line) { return true }
      usleep(10_000)
      return false
    }
    #expect(failed)
    var pending = sigset_t()
    sigpending(&pending)
    #expect(sigismember(&pending, SIGPIPE) == 0)
  }

  #if os(Linux)
    /// A worker has its three pipes and, when given, its step board as descriptor 3, and no
    /// other descriptor of its parent's: not one that another thread opened without
    /// close-on-exec (here a file; in a test process running specs, it could be a file being
    /// written, whose last close a watcher waits for, or a socket).
    ///
    /// Both ways: glibc's close-from action, which closes everything at once in the child,
    /// and the close actions of the descriptors listed in `/proc/self/fd`, which the C
    /// libraries without the former get. The listing is the parent's at one moment: a
    /// descriptor that another test's thread opens between it and the spawn can slip through,
    /// so that way is held to the descriptor that was open before.
    @Test(arguments: [false, true], [false, true])
    func aWorkerHasItsPipesAndItsBoardAndNothingElse(withBoard: Bool, listingDescriptors: Bool) throws {
      // Above any descriptor the worker is given; F_DUPFD leaves it without close-on-exec.
      let opened = open("/dev/null", O_RDONLY)
      let stray = fcntl(opened, F_DUPFD, 200)
      close(opened)
      #expect(stray >= 200)
      defer { close(stray) }
      let board = open("/dev/null", O_RDONLY | O_CLOEXEC)
      defer { close(board) }
      // cat waits for the end of its input, holding only what it was given.
      let process = try WorkerProcess.spawn(
        executable: "/bin/cat", arguments: [], environment: [:], passing: withBoard ? (board, 3) : nil,
        listingDescriptors: listingDescriptors)
      // Until cat has echoed a line, its dynamic loader may still hold the libraries it opens
      // at the lowest free descriptor: a listing then would count one of those.
      #expect(try echoedLine(by: process) == "started")
      let held = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.pid)/fd").compactMap { Int32($0) }
        .sorted()
      process.closeInput()
      #expect(process.wait() == .exited(0))
      let given: [Int32] = withBoard ? [0, 1, 2, 3] : [0, 1, 2]
      if listingDescriptors {
        #expect(Array(held.prefix(given.count)) == given)
        #expect(!held.contains(stray))
      } else {
        #expect(held == given)
      }
    }
  #endif

  /// Sends a line to a process that echoes its input (cat) and waits, up to ten seconds, for
  /// it to come back: the process is then past its start.
  private func echoedLine(by process: WorkerProcess) throws -> String {
    try #require(process.send(Array("started\n".utf8)))
    var echoed: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 64)
    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(10)
    while echoed.last != UInt8(ascii: "\n"), clock.now < deadline {
      var ready = pollfd(fd: process.output, events: Int16(POLLIN), revents: 0)
      _ = poll(&ready, 1, 100)
      guard let bytes = buffer.withUnsafeMutableBytes({ process.readAvailable(from: .output, buffer: $0) }) else { break }
      echoed += bytes
    }
    return String(decoding: echoed.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
  }

  @Test func lineBufferKeepsAnIncompleteLine() {
    var buffer = LineBuffer()
    #expect(buffer.append(Array("{\"a\":".utf8)) == [])
    #expect(buffer.append(Array("1}\n{\"b\"".utf8)).map { String(decoding: $0, as: UTF8.self) } == ["{\"a\":1}"])
    #expect(buffer.append(Array(":2}\n\n".utf8)).map { String(decoding: $0, as: UTF8.self) } == ["{\"b\":2}", ""])
    #expect(buffer.remainder == [])
  }

  @Test func theQuotedTailEndsBeforeASwiftStackTrace() {
    let output = """
      line 1
      line 2

      main.swift:95: Fatal error: the scenario traps on purpose
      Current stack trace:
      0    libswiftCore.so  0x00007f swift_reportError + 33
      1    libswiftCore.so  0x00007f _assertionFailure + 221

      """
    #expect(
      WorkerPool.tail(of: Array(output.utf8), lines: 2)
        == "  line 2\n  main.swift:95: Fatal error: the scenario traps on purpose")
    #expect(WorkerPool.tail(of: Array("a\r\nb\n".utf8), lines: 10) == "  a\n  b")
    #expect(WorkerPool.tail(of: Array("💣 Program crashed: Illegal instruction\nThread 0 crashed:\n".utf8), lines: 10) == "")
    #expect(WorkerPool.tail(of: [], lines: 10) == "")
  }

  @Test func signalNames() {
    #expect(SignalName.describe(SIGILL) == "SIGILL (illegal instruction)")
    #expect(SignalName.describe(SIGTRAP) == "SIGTRAP (trace/breakpoint trap)")
    #expect(SignalName.describe(SIGSEGV) == "SIGSEGV (segmentation fault)")
    #expect(SignalName.describe(SIGABRT) == "SIGABRT (aborted)")
    #expect(SignalName.describe(SIGKILL) == "SIGKILL (killed)")
    #expect(SignalName.describe(77) == "77")
    #expect(SignalName.name(SIGINT) == "SIGINT")
    #expect(SignalName.name(77) == "signal 77")
  }

  @MainActor @Test func resultsReachReportersInRunOrder() {
    let scenarios = plannedScenarios(8)
    let broken = SpecFileError(file: "b.yaml", location: FileLocation(file: "b.yaml", line: 2, column: 1), message: "broken")
    let reporter = RecordingReporter()
    var forwarded: [String] = []
    var delivery = OrderedDelivery(
      reporters: [reporter], forwardOutput: { forwarded.append("\($0.name): " + String(decoding: $1, as: UTF8.self)) })
    #expect(delivery.add(scenarios[0]) == 0)
    delivery.endFile("specs/f0.yaml", feature: "Counter")
    delivery.add(broken)
    delivery.endFile("b.yaml", feature: nil)
    for scenario in scenarios[4...6] { delivery.add(scenario) }
    delivery.endFile("specs/f1.yaml", feature: "Counter")
    #expect(reporter.events == [])
    delivery.record(2, result(scenarios[5], .failed), output: Array("two\n".utf8))
    delivery.record(1, result(scenarios[4]), output: [])
    #expect(reporter.events == [])
    delivery.record(0, result(scenarios[0]), output: Array("zero\n".utf8))
    #expect(
      reporter.events == [
        "started s0", "finished s0", "suite specs/f0.yaml (Counter): s0",
        "file failed b.yaml:2:1", "suite b.yaml: 1 error",
        "started s4", "finished s4", "started s5", "finished s5",
      ])
    #expect(forwarded == ["s0: zero\n", "s5: two\n"])
    delivery.finish()  // s6 never finished: left out of its file's results.
    #expect(reporter.events.suffix(2) == ["finished s5", "suite specs/f1.yaml (Counter): s4 s5"])
    #expect(delivery.added == 4)
    #expect(delivery.delivered == 3)
    var counts = RunSummary()
    counts.files = 3
    counts.failedFiles = 1
    counts.fileErrors = 1
    counts.scenarios = 3
    counts.passed = 2
    counts.failed = 1
    #expect(delivery.summary == counts)
    #expect(delivery.failedScenarios == [scenarios[5].id])
    #expect(delivery.brokenFiles == ["b.yaml"])
  }

  @Test func answersAboutFilesAreDeliveredInFileOrder() {
    var delivered: [String] = []
    var answers = AnswersInFileOrder<String> { index, answer in delivered.append("\(index) \(answer)") }
    answers.add(2, "c")
    answers.add(1, "b")
    #expect(delivered == [])
    answers.add(0, "a")
    #expect(delivered == ["0 a", "1 b", "2 c"])
    // File 3 was never answered (the run was interrupted): what came after it, in order.
    answers.add(5, "f")
    answers.add(4, "e")
    answers.finish()
    #expect(delivered == ["0 a", "1 b", "2 c", "4 e", "5 f"])
  }

  @MainActor @Test func finishSkipsWhatDidNotRunAndDeliversTheRest() {
    let scenarios = plannedScenarios(3)
    let reporter = RecordingReporter()
    var delivery = OrderedDelivery(reporters: [reporter], forwardOutput: { _, _ in })
    for scenario in scenarios { delivery.add(scenario) }
    delivery.endFile("specs/f0.yaml", feature: "Counter")
    delivery.record(2, result(scenarios[2]), output: [])
    delivery.finish()
    #expect(reporter.events == ["started s2", "finished s2", "suite specs/f0.yaml (Counter): s2"])
  }

  @MainActor @Test func aFileWithNothingDeliveredHasNoSuite() {
    let scenarios = plannedScenarios(2)
    let reporter = RecordingReporter()
    var delivery = OrderedDelivery(reporters: [reporter], forwardOutput: { _, _ in })
    delivery.endFile("specs/none-selected.yaml", feature: "Counter")
    for scenario in scenarios { delivery.add(scenario) }
    delivery.endFile("specs/f0.yaml", feature: "Counter")
    delivery.finish()  // The run stopped before either finished.
    #expect(reporter.events == [])
    #expect(delivery.summary == RunSummary())
  }

  @MainActor @Test func aFileErrorAddedFirstIsDeliveredAtOnce() {
    let reporter = RecordingReporter()
    var delivery = OrderedDelivery(reporters: [reporter], forwardOutput: { _, _ in })
    delivery.add(SpecFileError(file: "a.yaml", location: FileLocation(file: "a.yaml", line: 1, column: 1), message: "broken"))
    #expect(reporter.events == ["file failed a.yaml:1:1"])
  }

  @MainActor @Test func forwardedOutputNamesItsScenario() {
    let scenario = plannedScenarios(1)[0]
    #expect(SpecRun.forwardedOutput(of: scenario, Array("one\ntwo".utf8)) == "── output of specs/f0.yaml › s0 ──\none\ntwo\n")
    #expect(SpecRun.forwardedOutput(of: scenario, Array("one\n".utf8)) == "── output of specs/f0.yaml › s0 ──\none\n")
    #expect(SpecRun.forwardedOutput(reading: "specs/f0.yaml", Array("one".utf8)) == "── output while reading specs/f0.yaml ──\none\n")
  }

  private func result(_ scenario: PlannedScenario, _ outcome: ScenarioResult.Outcome = .passed) -> ScenarioResult {
    ScenarioResult(
      id: scenario.id, name: scenario.name, location: scenario.location, tags: scenario.tags, outcome: outcome, duration: 0)
  }
}

final class RecordingReporter: RunReporter {
  var events: [String] = []
  func fileFailed(_ error: SpecFileError) { events.append("file failed \(error.location)") }
  func scenarioStarted(_ scenario: PlannedScenario) { events.append("started \(scenario.name)") }
  func scenarioFinished(_ result: ScenarioResult) { events.append("finished \(result.name)") }
  func suiteFinished(_ suite: SuiteResult) {
    let feature = suite.feature.map { " (\($0))" } ?? ""
    let contents = suite.errors.isEmpty ? suite.scenarios.map(\.name).joined(separator: " ") : "\(suite.errors.count) error"
    events.append("suite \(suite.file)\(feature): \(contents)")
  }
}

@MainActor @Suite struct OutputBufferTests {
  @Test func writesInBurstsAndOnFlush() {
    var writes: [String] = []
    let buffer = OutputBuffer { writes.append($0) }
    buffer.append("a\n")
    buffer.appendLine("b")
    #expect(writes == [])
    buffer.flush()
    buffer.flush()  // Nothing more to write: no empty write.
    #expect(writes == ["a\nb\n"])
    buffer.append(String(repeating: "x", count: 1 << 16))  // A large burst goes out at once.
    #expect(writes.count == 2)
    buffer.appendLine(String(repeating: "y", count: 1 << 16))
    #expect(writes.count == 3)
    #expect(writes.last == String(repeating: "y", count: 1 << 16) + "\n")
    // A line given as bytes goes between the others, in order.
    buffer.appendLine("é")
    Array("✓ ok".utf8).withUnsafeBufferPointer(buffer.appendLine(utf8:))
    buffer.append("z")
    buffer.flush()
    #expect(writes.last == "é\n✓ ok\nz")
  }

  @Test func writesBytesWhereTheyAreTaken() {
    var strings: [String] = []
    var bytes: [[UInt8]] = []
    let buffer = OutputBuffer(write: { strings.append($0) }, writeBytes: { bytes.append(Array($0)) })
    buffer.appendLine("é")
    Array("✓ ok".utf8).withUnsafeBufferPointer(buffer.appendLine(utf8:))
    buffer.flush()
    buffer.flush()
    #expect(strings == [])
    #expect(bytes == [Array("é\n✓ ok\n".utf8)])
  }
}
