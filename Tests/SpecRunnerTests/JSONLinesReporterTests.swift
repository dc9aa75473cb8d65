import Foundation
import TestSupport
import Testing
@testable import SpecRunner

/// `--format json`: every event's line, character for character.
@Suite struct JSONLinesReporterTests {
  private func output(_ run: RunResult) throws -> [String] {
    let lines = LineCollector()
    try run.replay(into: JSONLinesReporter(sink: lines.append))
    return lines.lines
  }

  @Test func everyEvent() throws {
    let lines = try output(ReporterFixtures.everyOutcome)
    let expected = [
      #"{"event":"runStarted","files":3,"jobs":2}"#,
      #"{"column":11,"event":"scenarioStarted","file":"specs/counter.yaml","id":"specs/counter.yaml#0","line":5,"name":"Incrementing counts up","tags":["smoke"]}"#,
      #"{"duration":0.012,"event":"scenarioFinished","failures":0,"file":"specs/counter.yaml","id":"specs/counter.yaml#0","name":"Incrementing counts up","outcome":"passed"}"#,
      #"{"column":11,"event":"scenarioStarted","file":"specs/counter.yaml","id":"specs/counter.yaml#1","line":10,"name":"Decrementing stops at zero","tags":[]}"#,
      #"{"column":9,"event":"stepFailed","file":"specs/counter.yaml","id":"specs/counter.yaml#1","line":14,"message":"A state change does not match expectation.\n\n    \#u{2007} Counter.State(\n    −   count: 0\n    +   count: -1\n    \#u{2007} )\n\n(Expected: −, Actual: +)","scenario":"Decrementing stops at zero","sourceLine":"      - send: decrement","summary":"A state change does not match expectation."}"#,
      #"{"duration":0.02,"event":"scenarioFinished","failures":1,"file":"specs/counter.yaml","id":"specs/counter.yaml#1","name":"Decrementing stops at zero","outcome":"failed"}"#,
      #"{"column":11,"event":"scenarioStarted","file":"specs/counter.yaml","id":"specs/counter.yaml#2","line":20,"name":"Resetting","tags":[]}"#,
      #"{"duration":0,"event":"scenarioFinished","failures":0,"file":"specs/counter.yaml","id":"specs/counter.yaml#2","name":"Resetting","outcome":"skipped","skipReason":"not written yet"}"#,
      #"{"column":9,"event":"scenarioStarted","file":"specs/search.yaml","id":"specs/search.yaml#0.1","line":12,"name":"Searching for swift","tags":["search"]}"#,
      #"{"duration":1.5,"errorMessage":"The worker stopped with signal 11 (SIGSEGV). It wrote:\nFatal error: Unexpectedly found nil while unwrapping an Optional value\n\nCurrent stack trace:","event":"scenarioFinished","failures":0,"file":"specs/search.yaml","id":"specs/search.yaml#0.1","name":"Searching for swift","outcome":"error"}"#,
      #"{"column":10,"event":"fileFailed","file":"specs/broken.yaml","line":1,"message":"unknown feature \"Nope\"; the registered features are Counter, RepositorySearch","sourceLine":"feature: Nope"}"#,
      #"{"duration":1.75,"event":"summary","exitStatus":1,"failed":2,"fileErrors":1,"interrupted":false,"passed":1,"skipped":1}"#,
    ]
    #expect(lines.count == expected.count)
    for (line, expected) in zip(lines, expected) {
      #expect(line == expected)
    }
  }

  @Test func anInterruptedSuccessfulRun() throws {
    var run = ReporterFixtures.allPassing
    run.wasInterrupted = true
    #expect(
      try output(run).last
        == #"{"duration":0.02,"event":"summary","exitStatus":1,"failed":0,"fileErrors":0,"interrupted":true,"passed":1,"skipped":0}"#
    )
    run.wasInterrupted = false
    #expect(
      try output(run).last
        == #"{"duration":0.02,"event":"summary","exitStatus":0,"failed":0,"fileErrors":0,"interrupted":false,"passed":1,"skipped":0}"#
    )
  }

  @Test func controlCharactersAndAFileErrorWithoutASourceLine() throws {
    let error = SpecFileError(
      file: "specs/x.yaml", location: FileLocation(file: "specs/x.yaml", line: 0, column: 0),
      message: "Bytes \u{1B}[31m\u{0}\t/")
    let lines = LineCollector()
    JSONLinesReporter(sink: lines.append).fileFailed(error)
    #expect(
      lines.lines == [
        #"{"column":0,"event":"fileFailed","file":"specs/x.yaml","line":0,"message":"Bytes \u001b[31m\u0000\t/"}"#
      ])
  }

  @Test func everyLineIsOneJSONObjectWithAnEvent() throws {
    for line in try output(ReporterFixtures.everyOutcome) {
      #expect(!line.contains("\n"))
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      #expect(object?["event"] is String)
    }
  }
}
