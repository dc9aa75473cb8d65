import Foundation
import SpecAuthoring
import SpecRunner
import SpecYAML

// The line protocol between the command and its worker processes. Both ends are the same
// executable, so every request and message goes in one compact form of its own, written
// and read by hand (WorkerCodec.swift): one line of JSON each, an array whose first element
// names it and whose other elements come in a fixed order.
//
//   command → worker (the worker's standard input):
//     ["plan","specs/counter.yaml"]                                    read a file
//     ["run",10,[["specs/counter.yaml",2],["specs/counter.yaml",3,1]]] run scenarios, in order,
//                                                                     each within 10 seconds
//     ["record","specs/counter.yaml",null]                             record a file's scenarios
//                                                                     (those its filter selects)
//     ["check","specs/counter.yaml"]                                   read a file and check it
//                                                                     (`reducer-spec check`)
//   worker → command (the worker's standard output; whatever else the worker prints goes
//   to its standard error):
//     ["plan",["specs/counter.yaml","Counter",[[0,null,7,5,"Counting up",["smoke"]],…],[]]]
//                                                                     the file's scenarios, or its errors
//     ["step",["specs/counter.yaml",14,9]]                             as a step starts (see below)
//     ["result",[…a ScenarioResult…]]                                  when the scenario ends
//     ["passed",0.0012]                                                or: it passed in that many
//                                                                     seconds, as its file's plan says
//                                                                     (then its stub calls, if any:
//                                                                     ,[["gauge.read",1]])
//     ["recording"]                                                    a scenario of a record starts
//     ["recorded",[…a RecordedFile…]]                                  the record ends: the new text
//     ["checked",[…a plan…],[null,"not written yet"]]                  what checking the file found,
//                                                                     and each scenario's skip reason
//
// A worker answers its requests in the order it was sent them, one at a time, and exits
// when its standard input ends. The command sends several requests at once: the next file
// to read while the scenarios of the last one run, so that a worker never waits for it.
// Reading a file is the worker's job, not the command's: the command reads no spec file
// when it runs them, so its own work stays small however many workers there are.
//
// The step a scenario is in goes to the worker's `StepBoard`, memory it shares with the
// command, which reads it only when the worker crashes or times out. A `step` message is
// sent only for a step in another file than its scenario's, or by a worker without a board.
//
// Just before each answer, the worker writes `scenarioEndMarker` to its standard error,
// so that the command can tell what one request wrote there from what the next one wrote.

/// The first argument that starts an executable as a worker instead of a command.
package let workerArgument = "__worker"

/// What a worker writes to its standard error at the end of each scenario (never forwarded).
/// NUL bytes do not occur in the text that programs write there.
package let scenarioEndMarker: [UInt8] = Array("\u{0}reducer-spec:end-of-scenario\u{0}".utf8)

/// What the command asks a worker to do.
package enum WorkerRequest: Hashable, Sendable {
  /// Read this file: answered with a ``WorkerMessage/plan(_:)``.
  case plan(String)
  /// Run these scenarios one after another, each within this many seconds. Each is
  /// answered on its own, as a request of its own would be: ``WorkerMessage/passed(_:)`` or
  /// ``WorkerMessage/result(_:)``.
  case run([ScenarioID], timeout: Double)
  /// Record the scenarios of this file whose qualified name contains the filter (all of
  /// them without one), and work out the file's new text (`reducer-spec record`): a
  /// ``WorkerMessage/recording`` as each scenario starts, then a ``WorkerMessage/recorded(_:)``.
  /// The worker writes no file.
  case record(String, filter: String?)
  /// Read this file and check it as `reducer-spec check` does: answered with a
  /// ``WorkerMessage/checked(_:)``.
  case check(String)
  /// Forget every file read: the requests after it read them again, as they are now (a
  /// `--watch` run reuses its workers, and the files change between runs). Not answered.
  case forget
}

/// A file was read, a step started, a scenario ended, or a file was recorded.
package enum WorkerMessage: Hashable, Sendable {
  case plan(LoadedFile)
  case step(FileLocation)
  case result(ScenarioResult)
  /// The scenario passed in this many seconds, and its result says nothing its planned
  /// form does not but its stub calls (the most common answer, short to write and to read).
  case passed(Double, stubCalls: [String: Int]?)
  /// A scenario of the file being recorded starts: its timeout starts now.
  case recording
  case recorded(RecordedFile)
  case checked(CheckedFile)

  /// The message for a result: `passed` when the result is the plain pass of `planned`.
  package static func answer(_ result: ScenarioResult, planned: PlannedScenario?) -> WorkerMessage {
    if let planned, result == passedResult(planned, duration: result.duration, stubCalls: result.stubCalls) {
      return .passed(result.duration, stubCalls: result.stubCalls)
    }
    return .result(result)
  }

  /// The result that a `passed` message stands for.
  static func passedResult(_ planned: PlannedScenario, duration: Double, stubCalls: [String: Int]?) -> ScenarioResult {
    var result = ScenarioResult(
      id: planned.id, name: planned.name, location: planned.location, tags: planned.tags, outcome: .passed,
      duration: duration)
    result.stubCalls = stubCalls
    return result
  }
}

// MARK: - Lines

/// Splits a stream of bytes into lines, keeping an incomplete last line until its end
/// arrives.
package struct LineBuffer {
  private var pending: [UInt8] = []

  /// Adds bytes and returns the lines they complete, without their line breaks.
  package mutating func append(_ bytes: some Collection<UInt8>) -> [[UInt8]] {
    pending.append(contentsOf: bytes)
    var lines: [[UInt8]] = []
    var start = 0
    while let end = pending.lineFeed(from: start) {
      lines.append(Array(pending[start..<end]))
      start = end + 1
    }
    pending.removeFirst(start)
    return lines
  }

  /// What arrived after the last line break.
  var remainder: [UInt8] { pending }
}

extension [UInt8] {
  /// Where the first line feed at or after `start` is; `nil` when there is none. With
  /// memchr: a worker's answers come many at a time, and a byte-by-byte search cost the
  /// command more than reading them.
  package func lineFeed(from start: Int) -> Int? {
    withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress, start < buffer.count,
        let found = memchr(base + start, Int32(UInt8(ascii: "\n")), buffer.count - start)
      else { return nil }
      return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
  }
}
