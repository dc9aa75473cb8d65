import Foundation

// The line protocol between the command and its worker processes. Each message is one
// line of JSON (JSONEncoder's compact form never contains a line break).
//
//   command → worker (the worker's standard input):
//     {"id":{"file":"specs/counter.yaml","scenario":2},"timeout":10}
//   worker → command (the worker's standard output; whatever else the worker prints goes
//   to its standard error):
//     {"step":{"file":"specs/counter.yaml","line":14,"column":9}}    as a step starts (see below)
//     {"result":{…a ScenarioResult…}}                                 when the scenario ends
//
// A worker runs the scenarios in the order it was sent them, one at a time, and exits
// when its standard input ends. The command may send several requests at once (a batch).
//
// The step a scenario is in goes to the worker's `StepBoard`, memory it shares with the
// command, which reads it only when the worker crashes or times out. A `step` message is
// sent only for a step in another file than its scenario's, or by a worker without a board.
//
// Just before each result, the worker writes `scenarioEndMarker` to its standard error,
// so that the command can tell what one scenario wrote there from what the next one wrote.

/// The first argument that starts an executable as a worker instead of a command.
let workerArgument = "__worker"

/// What a worker writes to its standard error at the end of each scenario (never forwarded).
/// NUL bytes do not occur in the text that programs write there.
let scenarioEndMarker: [UInt8] = Array("\u{0}reducer-spec:end-of-scenario\u{0}".utf8)

/// Run this scenario, within this many seconds.
struct WorkerRequest: Codable, Hashable, Sendable {
  var id: ScenarioID
  /// Seconds.
  var timeout: Double
}

/// A step started, or the scenario ended. Exactly one of the two is set.
struct WorkerMessage: Codable, Hashable, Sendable {
  var step: FileLocation?
  var result: ScenarioResult?

  static func step(_ location: FileLocation) -> WorkerMessage { WorkerMessage(step: location) }
  static func result(_ result: ScenarioResult) -> WorkerMessage { WorkerMessage(result: result) }
}

/// Encodes a message as one line, with its line break.
func encodeLine<Message: Encodable>(_ message: Message) -> [UInt8] {
  // Encoding these types cannot fail but for a non-finite duration; fall back to zero.
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  var bytes = (try? encoder.encode(message)).map(Array.init) ?? Array("{}".utf8)
  bytes.append(UInt8(ascii: "\n"))
  return bytes
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
