import Foundation
import SpecRunner
import SpecYAML

// The line protocol between the command and its worker processes. Each message is one
// line of JSON (JSONEncoder's compact form never contains a line break).
//
//   command → worker (the worker's standard input):
//     {"plan":"specs/counter.yaml"}                                    read a file
//     {"run":[{"file":"specs/counter.yaml","scenario":2},…],"timeout":10}
//                                                                     run scenarios, in order
//   worker → command (the worker's standard output; whatever else the worker prints goes
//   to its standard error):
//     {"plan":{…a LoadedFile…}}                                       the file's scenarios, or its errors
//     {"planned":[…]}                                                 or the same, short (CompactJSON.swift)
//     {"step":{"file":"specs/counter.yaml","line":14,"column":9}}    as a step starts (see below)
//     {"result":{…a ScenarioResult…}}                                 when the scenario ends
//     {"passed":0.0012}                                               or: it passed in that many
//                                                                     seconds, as its file's plan says
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
let workerArgument = "__worker"

/// What a worker writes to its standard error at the end of each scenario (never forwarded).
/// NUL bytes do not occur in the text that programs write there.
let scenarioEndMarker: [UInt8] = Array("\u{0}reducer-spec:end-of-scenario\u{0}".utf8)

/// Read this file, or run these scenarios one after another, each within this many
/// seconds. Either `plan` is set, or `run` and `timeout` are. Each scenario of `run` is
/// answered on its own, as a request of its own would be.
struct WorkerRequest: Codable, Hashable, Sendable {
  var plan: String?
  var run: [ScenarioID]?
  /// Seconds.
  var timeout: Double?

  static func plan(_ file: String) -> WorkerRequest { WorkerRequest(plan: file) }
  static func run(_ ids: [ScenarioID], timeout: Double) -> WorkerRequest { WorkerRequest(run: ids, timeout: timeout) }
}

/// A file was read, a step started, or a scenario ended. Exactly one of the four is set.
struct WorkerMessage: Codable, Hashable, Sendable {
  var plan: LoadedFile?
  var step: FileLocation?
  var result: ScenarioResult?
  /// The scenario passed in this many seconds, and its result says nothing its planned
  /// form does not (the most common answer, short to write and to read).
  var passed: Double?

  static func plan(_ file: LoadedFile) -> WorkerMessage { WorkerMessage(plan: file) }
  static func step(_ location: FileLocation) -> WorkerMessage { WorkerMessage(step: location) }
  static func result(_ result: ScenarioResult) -> WorkerMessage { WorkerMessage(result: result) }

  /// The message for a result: `passed` when the result is the plain pass of `planned`.
  static func answer(_ result: ScenarioResult, planned: PlannedScenario?) -> WorkerMessage {
    if let planned, result == passedResult(planned, duration: result.duration) {
      return WorkerMessage(passed: result.duration)
    }
    return .result(result)
  }

  /// The result that a `passed` message stands for.
  static func passedResult(_ planned: PlannedScenario, duration: Double) -> ScenarioResult {
    ScenarioResult(
      id: planned.id, name: planned.name, location: planned.location, tags: planned.tags, outcome: .passed,
      duration: duration)
  }

  /// Reads a `passed` message without a JSON decoder: `{"passed":0.0012}`.
  static func passedDuration(_ line: [UInt8]) -> Double? {
    let prefix = Array(#"{"passed":"#.utf8)
    guard line.count > prefix.count + 1, line.starts(with: prefix), line.last == UInt8(ascii: "}") else { return nil }
    return Double(String(decoding: line[prefix.count..<(line.count - 1)], as: UTF8.self))
  }
}

/// Encodes messages as lines, each with its line break. One per thread that sends.
final class LineEncoder {
  private let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }()

  func encode(_ message: WorkerMessage) -> [UInt8] {
    if let duration = message.passed, duration.isFinite {
      return Array("{\"passed\":\(duration)}\n".utf8)
    }
    if var line = message.plan?.compactLine {
      line.append(UInt8(ascii: "\n"))
      return line
    }
    return encode(message as any Encodable)
  }

  func encode(_ request: WorkerRequest) -> [UInt8] {
    if var line = request.compactLine {
      line.append(UInt8(ascii: "\n"))
      return line
    }
    return encode(request as any Encodable)
  }

  /// Any other message (`record`'s child uses it too).
  func encode(_ message: any Encodable) -> [UInt8] {
    // Encoding these types cannot fail but for a non-finite duration; fall back to zero.
    var bytes = (try? encoder.encode(message)).map(Array.init) ?? Array("{}".utf8)
    bytes.append(UInt8(ascii: "\n"))
    return bytes
  }
}

// MARK: - Lines

/// Splits a stream of bytes into lines, keeping an incomplete last line until its end
/// arrives.
struct LineBuffer {
  private var pending: [UInt8] = []

  /// Adds bytes and returns the lines they complete, without their line breaks.
  mutating func append(_ bytes: some Collection<UInt8>) -> [[UInt8]] {
    pending.append(contentsOf: bytes)
    var lines: [[UInt8]] = []
    var start = 0
    while let end = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
      lines.append(Array(pending[start..<end]))
      start = end + 1
    }
    pending.removeFirst(start)
    return lines
  }

  /// What arrived after the last line break.
  var remainder: [UInt8] { pending }
}
