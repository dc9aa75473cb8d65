import Foundation
import TestSupport
import Testing
@testable import ReducerSpecCLI
@testable import SpecRunner

/// The parts of the worker pool that need no process: the line protocol, the quoted tail
/// of a worker's standard error, and delivery in run order.
@Suite struct WorkerPlumbingTests {
  @Test func protocolMessagesAreOneLineOfJSON() throws {
    let encoder = LineEncoder()
    let request = WorkerRequest.run(
      [ScenarioID(file: "specs/counter.yaml", scenario: 2, row: 1), ScenarioID(file: "specs/counter.yaml", scenario: 3)],
      timeout: 1.5)
    #expect(
      String(decoding: encoder.encode(request), as: UTF8.self)
        == #"{"run":[{"file":"specs/counter.yaml","row":1,"scenario":2},{"file":"specs/counter.yaml","scenario":3}],"timeout":1.5}"#
        + "\n")
    #expect(
      String(decoding: encoder.encode(WorkerRequest.plan("specs/counter.yaml")), as: UTF8.self)
        == #"{"plan":"specs/counter.yaml"}"# + "\n")
    let step = WorkerMessage.step(FileLocation(file: "specs/counter.yaml", line: 14, column: 9))
    #expect(
      String(decoding: encoder.encode(step), as: UTF8.self)
        == #"{"step":{"column":9,"file":"specs/counter.yaml","line":14}}"# + "\n")
    let planned = PlannedScenario(
      id: ScenarioID(file: "a.yaml", scenario: 0), name: "counts", location: FileLocation(file: "a.yaml", line: 3, column: 5),
      tags: ["smoke"])
    let plan = WorkerMessage.plan(LoadedFile(file: "a.yaml", feature: "Counter", scenarios: [planned], errors: []))
    #expect(LoadedFile(compactLine: Array(encoder.encode(plan).dropLast())).map(WorkerMessage.plan) == plan)
    let result = ScenarioResult(
      id: ScenarioID(file: "a.yaml", scenario: 0), name: "two\nlines", location: FileLocation(file: "a.yaml", line: 3, column: 5),
      tags: [], outcome: .failed, duration: 0.25,
      failures: [StepFailure(location: FileLocation(file: "a.yaml", line: 4, column: 9), message: "A state change does not match expectation.\n\n  − a\n  + b")])
    let line = encoder.encode(WorkerMessage.result(result))
    #expect(line.filter { $0 == UInt8(ascii: "\n") }.count == 1)
    #expect(try JSONDecoder().decode(WorkerMessage.self, from: Data(line)) == .result(result))
  }

  @Test func sendingToAWorkerThatEndedFailsWithoutEndingTheCommand() throws {
    // Without care, the write raises SIGPIPE, whose default action ends this process.
    let process = try WorkerProcess.spawn(executable: "/bin/sh", arguments: ["-c", "exit 0"], environment: [:])
    #expect(process.wait() == .exited(0))
    #expect(!process.send(Array("{\"plan\":\"a.yaml\"}\n".utf8)))
    var pending = sigset_t()
    sigpending(&pending)
    #expect(sigismember(&pending, SIGPIPE) == 0)
  }

  @Test func aFilesPlanGoesAsACompactLineThatReadsBackTheSame() throws {
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
    let line = LineEncoder().encode(WorkerMessage.plan(plan))
    #expect(
      String(decoding: line, as: UTF8.self)
        == #"{"planned":["specs/a \"b\"\\c.yaml","Counter",[[0,null,3,5,"counts",["smoke","slow"]],"#
        + #"[1,0,4,5,"two\nlines\tand a \u0001 and \"quotes\" / é 🎉",[]],[1,12,4,5,"",[""]]]]}"# + "\n")
    #expect(LoadedFile(compactLine: Array(line.dropLast())) == plan)
    // Standard JSON: any decoder reads it.
    let json = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]
    #expect(((json?["planned"] as? [Any])?[0] as? String) == file)

    var noFeature = plan
    noFeature.feature = nil
    #expect(noFeature.compactLine.flatMap(LoadedFile.init(compactLine:)) == noFeature)
    let empty = LoadedFile(file: "a.yaml", feature: "Counter", scenarios: [], errors: [])
    #expect(String(decoding: empty.compactLine ?? [], as: UTF8.self) == #"{"planned":["a.yaml","Counter",[]]}"#)
    #expect(empty.compactLine.flatMap(LoadedFile.init(compactLine:)) == empty)
  }

  @Test func aPlanTheCompactLineCannotHoldGoesInFull() throws {
    let encoder = LineEncoder()
    let error = SpecFileError(file: "a.yaml", location: FileLocation(file: "a.yaml", line: 1, column: 1), message: "no")
    let broken = LoadedFile(file: "a.yaml", feature: nil, scenarios: [], errors: [error])
    #expect(broken.compactLine == nil)
    #expect(String(decoding: encoder.encode(WorkerMessage.plan(broken)), as: UTF8.self).hasPrefix(#"{"plan":{"#))
    let elsewhere = LoadedFile(
      file: "a.yaml", feature: "Counter",
      scenarios: [
        PlannedScenario(
          id: ScenarioID(file: "a.yaml", scenario: 0), name: "x", location: FileLocation(file: "b.yaml", line: 1, column: 1),
          tags: [])
      ], errors: [])
    #expect(elsewhere.compactLine == nil)
    #expect(try JSONDecoder().decode(WorkerMessage.self, from: Data(encoder.encode(WorkerMessage.plan(elsewhere)))).plan == elsewhere)
  }

  @Test func aMalformedCompactPlanIsNotRead() {
    let good = #"{"planned":["a.yaml","Counter",[[0,null,3,5,"x",["t"]]]]}"#
    #expect(LoadedFile(compactLine: Array(good.utf8)) != nil)
    for bad in [
      String(good.dropLast()), good + " ", good.replacingOccurrences(of: "null", with: "nul"),
      good.replacingOccurrences(of: "3,5", with: "3,"), good.replacingOccurrences(of: "\"x\"", with: "\"x\\q\""),
      good.replacingOccurrences(of: "\"x\"", with: "\"x\\u12\""),
      good.replacingOccurrences(of: "\"x\"", with: "\"\\ud800\""),
      good.replacingOccurrences(of: "3,5", with: "99999999999999999999,5"),
      good.replacingOccurrences(of: "\"x\"", with: "\"x\ny\""), #"{"plan":{}}"#, "",
    ] {
      #expect(LoadedFile(compactLine: Array(bad.utf8)) == nil, "\(bad)")
    }
    let escaped = #"{"planned":["a.yaml",null,[[0,null,1,1,"\u00e9\ud83c\udf89\/\b\f\r",[]]]]}"#
    #expect(LoadedFile(compactLine: Array(escaped.utf8))?.scenarios.first?.name == "é🎉/\u{8}\u{C}\r")
  }

  @Test func requestsAreWrittenAsJSONEncoderWouldWriteThem() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let ids = [ScenarioID(file: #"specs/"quoted"\é.yaml"#, scenario: 2, row: 1), ScenarioID(file: "a\tb.yaml", scenario: 0)]
    for request in [
      WorkerRequest.run(ids, timeout: 10), .run(ids, timeout: 0.25), .run([], timeout: 1e-5), .plan("specs/counter.yaml"),
      .plan(#"a "b"\c"#),
    ] {
      let line = try #require(request.compactLine)
      #expect(String(decoding: line, as: UTF8.self) == String(decoding: try encoder.encode(request), as: UTF8.self))
      #expect(try JSONDecoder().decode(WorkerRequest.self, from: Data(line)) == request)
      #expect(WorkerRequest(compactLine: line) == request)
    }
    for other in [
      #"{"plan":"a.yaml","run":[]}"#, #"{"run":[],"timeout":}"#, #"{"run":[{"file":"a","scenario":1}]}"#,
      #"{"timeout":1,"run":[]}"#, #"{"run":[{"scenario":1,"file":"a"}],"timeout":1}"#, #"{"plan":"a.yaml"} "#,
    ] {
      #expect(WorkerRequest(compactLine: Array(other.utf8)) == nil, "\(other)")
    }
    #expect(WorkerRequest.run(ids, timeout: .infinity).compactLine == nil)
  }

  @Test func aPlainPassIsOneShortLine() throws {
    let encoder = LineEncoder()
    let planned = PlannedScenario(
      id: ScenarioID(file: "a.yaml", scenario: 1), name: "counts", location: FileLocation(file: "a.yaml", line: 3, column: 5),
      tags: ["smoke"])
    let passed = WorkerMessage.passedResult(planned, duration: 0.00125)
    let line = encoder.encode(WorkerMessage.answer(passed, planned: planned))
    #expect(String(decoding: line, as: UTF8.self) == #"{"passed":0.00125}"# + "\n")
    #expect(WorkerMessage.passedDuration(Array(line.dropLast())) == 0.00125)
    #expect(try JSONDecoder().decode(WorkerMessage.self, from: Data(line)) == WorkerMessage(passed: 0.00125))
    #expect(WorkerMessage.passedDuration(Array(#"{"passed":1e-05}"#.utf8)) == 0.00001)
    #expect(WorkerMessage.passedDuration(Array(#"{"passed":}"#.utf8)) == nil)
    #expect(WorkerMessage.passedDuration(Array(#"{"result":{}}"#.utf8)) == nil)

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
    let scenarios = plannedScenarios(4)
    let broken = SpecFileError(file: "b.yaml", location: FileLocation(file: "b.yaml", line: 2, column: 1), message: "broken")
    let reporter = RecordingReporter()
    var forwarded: [String] = []
    var delivery = OrderedDelivery(
      reporters: [reporter], forwardOutput: { forwarded.append("\($0.name): " + String(decoding: $1, as: UTF8.self)) })
    #expect(delivery.add(scenarios[0]) == 0)
    delivery.add(broken)
    for scenario in scenarios.dropFirst() { delivery.add(scenario) }
    #expect(reporter.events == [])
    delivery.record(2, result(scenarios[2]), output: Array("two\n".utf8))
    delivery.record(1, result(scenarios[1]), output: [])
    #expect(reporter.events == [])
    delivery.record(0, result(scenarios[0]), output: Array("zero\n".utf8))
    #expect(
      reporter.events == [
        "started s0", "finished s0", "file failed b.yaml:2:1", "started s1", "finished s1", "started s2", "finished s2",
      ])
    #expect(forwarded == ["s0: zero\n", "s2: two\n"])
    delivery.finish()  // s3 never finished: left out.
    #expect(reporter.events.count == 7)
    #expect(delivery.delivered.map(\.name) == ["s0", "s1", "s2"])
  }

  @MainActor @Test func finishSkipsWhatDidNotRunAndDeliversTheRest() {
    let scenarios = plannedScenarios(3)
    let reporter = RecordingReporter()
    var delivery = OrderedDelivery(reporters: [reporter], forwardOutput: { _, _ in })
    for scenario in scenarios { delivery.add(scenario) }
    delivery.record(2, result(scenarios[2]), output: [])
    delivery.finish()
    #expect(reporter.events == ["started s2", "finished s2"])
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

  private func result(_ scenario: PlannedScenario) -> ScenarioResult {
    ScenarioResult(
      id: scenario.id, name: scenario.name, location: scenario.location, tags: scenario.tags, outcome: .passed, duration: 0)
  }
}

final class RecordingReporter: RunReporter {
  var events: [String] = []
  func fileFailed(_ error: SpecFileError) { events.append("file failed \(error.location)") }
  func scenarioStarted(_ scenario: PlannedScenario) { events.append("started \(scenario.name)") }
  func scenarioFinished(_ result: ScenarioResult) { events.append("finished \(result.name)") }
}

@MainActor @Suite struct OutputBufferTests {
  @Test func writesInBurstsAndOnFlush() {
    var writes: [String] = []
    let buffer = OutputBuffer { writes.append($0) }
    buffer.append("a\n")
    buffer.append("b\n")
    #expect(writes == [])
    buffer.flush()
    buffer.flush()  // Nothing more to write: no empty write.
    #expect(writes == ["a\nb\n"])
    buffer.append(String(repeating: "x", count: 1 << 16))  // A large burst goes out at once.
    #expect(writes.count == 2)
  }
}
