import Foundation
import SpecAuthoring
import SpecRunner
import SpecYAML

// The one codec of the worker protocol (see WorkerProtocol.swift): every request and every
// message, and every value in them, is a JSON array (or a string or number) whose elements
// come in a fixed order, written with `JSONWriter` and read with `JSONCursor`. Both ends
// are the same executable, so no key names, no optional keys, and no second encoder: a
// line that is not exactly what this file writes is not read.
//
// A file's plan leaves out the file's path where a scenario has it, in its id and its
// location, as it nearly always does: each scenario is `[scenario,row,line,column,name,tags]`,
// with `,idFile,locationFile` after it only when one of them is another file.

/// A value of the worker protocol, written and read by hand in its compact form.
package protocol WorkerCodable {
  func write(to writer: inout JSONWriter)
  /// Reads what ``write(to:)`` writes; `nil` when the text is anything else.
  init?(from cursor: inout JSONCursor)
}

extension WorkerCodable {
  /// The value as one line, with its line break: what goes on the pipe.
  package var line: [UInt8] {
    var writer = JSONWriter()
    write(to: &writer)
    writer.byte(UInt8(ascii: "\n"))
    return writer.bytes
  }

  /// Reads a line (without its line break) that holds exactly one value.
  package init?(line: [UInt8]) {
    var cursor = JSONCursor(line)
    guard let value = Self(from: &cursor), cursor.isAtEnd else { return nil }
    self = value
  }
}

extension JSONWriter {
  package mutating func list(_ values: [some WorkerCodable]) {
    list(values) { writer, value in value.write(to: &writer) }
  }

  package mutating func strings(_ values: [String]) {
    list(values) { writer, value in writer.string(value) }
  }
}

extension JSONCursor {
  package mutating func list<Value: WorkerCodable>(of type: Value.Type) -> [Value]? {
    var values: [Value] = []
    let read = list { cursor in
      guard let value = Value(from: &cursor) else { return false }
      values.append(value)
      return true
    }
    return read ? values : nil
  }

  package mutating func strings() -> [String]? {
    var values: [String] = []
    let read = list { cursor in
      guard let value = cursor.string() else { return false }
      values.append(value)
      return true
    }
    return read ? values : nil
  }
}

// MARK: - Requests

extension WorkerRequest: WorkerCodable {
  package func write(to writer: inout JSONWriter) {
    switch self {
    case .plan(let file):
      writer.raw(#"["plan","#)
      writer.string(file)
    case .run(let ids, let timeout):
      writer.raw(#"["run","#)
      writer.double(timeout)
      writer.byte(UInt8(ascii: ","))
      writer.list(ids)
    case .record(let file, let filter):
      writer.raw(#"["record","#)
      writer.string(file)
      writer.byte(UInt8(ascii: ","))
      writer.optional(filter)
    case .check(let file):
      writer.raw(#"["check","#)
      writer.string(file)
    case .forget:
      writer.raw(#"["forget""#)
    }
    writer.byte(UInt8(ascii: "]"))
  }

  package init?(from cursor: inout JSONCursor) {
    if cursor.take(#"["run","#) {
      guard let timeout = cursor.double(), cursor.take(","), let ids = cursor.list(of: ScenarioID.self) else {
        return nil
      }
      self = .run(ids, timeout: timeout)
    } else if cursor.take(#"["plan","#) {
      guard let file = cursor.string() else { return nil }
      self = .plan(file)
    } else if cursor.take(#"["record","#) {
      guard let file = cursor.string(), cursor.take(","), let filter = cursor.optionalString() else { return nil }
      self = .record(file, filter: filter)
    } else if cursor.take(#"["check","#) {
      guard let file = cursor.string() else { return nil }
      self = .check(file)
    } else if cursor.take(#"["forget""#) {
      self = .forget
    } else {
      return nil
    }
    guard cursor.take("]") else { return nil }
  }
}

// MARK: - Messages

extension WorkerMessage: WorkerCodable {
  package func write(to writer: inout JSONWriter) {
    switch self {
    case .passed(let duration, let stubCalls):
      writer.raw(#"["passed","#)
      writer.double(duration)
      if let stubCalls {
        writer.byte(UInt8(ascii: ","))
        writeStubCalls(stubCalls, to: &writer)
      }
    case .plan(let file):
      writer.raw(#"["plan","#)
      file.write(to: &writer)
    case .step(let location):
      writer.raw(#"["step","#)
      location.write(to: &writer)
    case .result(let result):
      writer.raw(#"["result","#)
      result.write(to: &writer)
    case .recording:
      writer.raw(#"["recording""#)
    case .recorded(let file):
      writer.raw(#"["recorded","#)
      file.write(to: &writer)
    case .checked(let checked):
      writer.raw(#"["checked","#)
      checked.file.write(to: &writer)
      writer.byte(UInt8(ascii: ","))
      writer.list(checked.skipReasons) { writer, reason in writer.optional(reason) }
    }
    writer.byte(UInt8(ascii: "]"))
  }

  package init?(from cursor: inout JSONCursor) {
    // The most common first: a pass, a plan.
    if cursor.take(#"["passed","#) {
      guard let duration = cursor.double() else { return nil }
      var stubCalls: [String: Int]?
      if cursor.take(",") {
        guard let calls = readStubCalls(from: &cursor) else { return nil }
        stubCalls = calls
      }
      self = .passed(duration, stubCalls: stubCalls)
    } else if cursor.take(#"["plan","#) {
      guard let file = LoadedFile(from: &cursor) else { return nil }
      self = .plan(file)
    } else if cursor.take(#"["result","#) {
      guard let result = ScenarioResult(from: &cursor) else { return nil }
      self = .result(result)
    } else if cursor.take(#"["step","#) {
      guard let location = FileLocation(from: &cursor) else { return nil }
      self = .step(location)
    } else if cursor.take(#"["recording""#) {
      self = .recording
    } else if cursor.take(#"["recorded","#) {
      guard let file = RecordedFile(from: &cursor) else { return nil }
      self = .recorded(file)
    } else if cursor.take(#"["checked","#) {
      guard let file = LoadedFile(from: &cursor), cursor.take(",") else { return nil }
      var skipReasons: [String?] = []
      let read = cursor.list { cursor in
        guard let reason = cursor.optionalString() else { return false }
        skipReasons.append(reason)
        return true
      }
      guard read else { return nil }
      self = .checked(CheckedFile(file: file, skipReasons: skipReasons))
    } else {
      return nil
    }
    guard cursor.take("]") else { return nil }
  }
}

// MARK: - Values

extension FileLocation: WorkerCodable {
  /// `["specs/counter.yaml",14,9]`
  package func write(to writer: inout JSONWriter) {
    writer.byte(UInt8(ascii: "["))
    writer.string(file)
    writer.byte(UInt8(ascii: ","))
    writer.int(line)
    writer.byte(UInt8(ascii: ","))
    writer.int(column)
    writer.byte(UInt8(ascii: "]"))
  }

  package init?(from cursor: inout JSONCursor) {
    guard cursor.take("["), let file = cursor.string(), cursor.take(","), let line = cursor.int(), cursor.take(","),
      let column = cursor.int(), cursor.take("]")
    else { return nil }
    self.init(file: file, line: line, column: column)
  }
}

extension ScenarioID: WorkerCodable {
  /// `["specs/counter.yaml",2]`, or with the example row: `["specs/counter.yaml",2,1]`.
  package func write(to writer: inout JSONWriter) {
    writer.byte(UInt8(ascii: "["))
    writer.string(file)
    writer.byte(UInt8(ascii: ","))
    writer.int(scenario)
    if let row {
      writer.byte(UInt8(ascii: ","))
      writer.int(row)
    }
    writer.byte(UInt8(ascii: "]"))
  }

  package init?(from cursor: inout JSONCursor) {
    guard cursor.take("["), let file = cursor.string(), cursor.take(","), let scenario = cursor.int() else {
      return nil
    }
    var row: Int?
    if cursor.take(",") {
      guard let value = cursor.int() else { return nil }
      row = value
    }
    guard cursor.take("]") else { return nil }
    self.init(file: file, scenario: scenario, row: row)
  }
}

extension StepFailure: WorkerCodable {
  /// `[LOCATION,message,sourceLine]`
  package func write(to writer: inout JSONWriter) {
    writer.byte(UInt8(ascii: "["))
    location.write(to: &writer)
    writer.byte(UInt8(ascii: ","))
    writer.string(message)
    writer.byte(UInt8(ascii: ","))
    writer.optional(sourceLine)
    writer.byte(UInt8(ascii: "]"))
  }

  package init?(from cursor: inout JSONCursor) {
    guard cursor.take("["), let location = FileLocation(from: &cursor), cursor.take(","),
      let message = cursor.string(), cursor.take(","), let sourceLine = cursor.optionalString(), cursor.take("]")
    else { return nil }
    self.init(location: location, message: message, sourceLine: sourceLine)
  }
}

extension SpecFileError: WorkerCodable {
  /// `[file,LOCATION,message,sourceLine]`
  package func write(to writer: inout JSONWriter) {
    writer.byte(UInt8(ascii: "["))
    writer.string(file)
    writer.byte(UInt8(ascii: ","))
    location.write(to: &writer)
    writer.byte(UInt8(ascii: ","))
    writer.string(message)
    writer.byte(UInt8(ascii: ","))
    writer.optional(sourceLine)
    writer.byte(UInt8(ascii: "]"))
  }

  package init?(from cursor: inout JSONCursor) {
    guard cursor.take("["), let file = cursor.string(), cursor.take(","), let location = FileLocation(from: &cursor),
      cursor.take(","), let message = cursor.string(), cursor.take(","), let sourceLine = cursor.optionalString(),
      cursor.take("]")
    else { return nil }
    self.init(file: file, location: location, message: message, sourceLine: sourceLine)
  }
}

extension ScenarioResult: WorkerCodable {
  /// `[ID,name,LOCATION,tags,outcome,duration,failures,skipReason,errorMessage]`, then
  /// `,notes` when there are notes or stub calls (`[]` for none), then `,stubCalls` when
  /// there are any.
  package func write(to writer: inout JSONWriter) {
    writer.byte(UInt8(ascii: "["))
    id.write(to: &writer)
    writer.byte(UInt8(ascii: ","))
    writer.string(name)
    writer.byte(UInt8(ascii: ","))
    location.write(to: &writer)
    writer.byte(UInt8(ascii: ","))
    writer.strings(tags)
    writer.byte(UInt8(ascii: ","))
    writer.string(outcome.rawValue)
    writer.byte(UInt8(ascii: ","))
    writer.double(duration)
    writer.byte(UInt8(ascii: ","))
    writer.list(failures)
    writer.byte(UInt8(ascii: ","))
    writer.optional(skipReason)
    writer.byte(UInt8(ascii: ","))
    writer.optional(errorMessage)
    if (notes?.isEmpty == false) || stubCalls != nil {
      writer.byte(UInt8(ascii: ","))
      writer.list(notes ?? [])
    }
    if let stubCalls {
      writer.byte(UInt8(ascii: ","))
      writeStubCalls(stubCalls, to: &writer)
    }
    writer.byte(UInt8(ascii: "]"))
  }

  package init?(from cursor: inout JSONCursor) {
    guard cursor.take("["), let id = ScenarioID(from: &cursor), cursor.take(","), let name = cursor.string(),
      cursor.take(","), let location = FileLocation(from: &cursor), cursor.take(","), let tags = cursor.strings(),
      cursor.take(","), let outcome = cursor.string().flatMap(Outcome.init(rawValue:)), cursor.take(","),
      let duration = cursor.double(), cursor.take(","), let failures = cursor.list(of: StepFailure.self),
      cursor.take(","), let skipReason = cursor.optionalString(), cursor.take(","),
      let errorMessage = cursor.optionalString()
    else { return nil }
    // `,notes` when the scenario noted something (skipped assertions) or has stub calls.
    var notes: [StepFailure]?
    var stubCalls: [String: Int]?
    if cursor.take(",") {
      guard let list = cursor.list(of: StepFailure.self) else { return nil }
      notes = list.isEmpty ? nil : list
      if cursor.take(",") {
        guard let calls = readStubCalls(from: &cursor) else { return nil }
        stubCalls = calls
      }
    }
    guard cursor.take("]") else { return nil }
    self.init(
      id: id, name: name, location: location, tags: tags, outcome: outcome, duration: duration, failures: failures,
      skipReason: skipReason, errorMessage: errorMessage)
    self.notes = notes
    self.stubCalls = stubCalls
  }
}

/// A scenario's stub calls: `[["gauge.read",1],["gauge.save",0]]`, by name.
private func writeStubCalls(_ calls: [String: Int], to writer: inout JSONWriter) {
  writer.list(calls.sorted { $0.key < $1.key }) { writer, entry in
    writer.byte(UInt8(ascii: "["))
    writer.string(entry.key)
    writer.byte(UInt8(ascii: ","))
    writer.int(entry.value)
    writer.byte(UInt8(ascii: "]"))
  }
}

private func readStubCalls(from cursor: inout JSONCursor) -> [String: Int]? {
  var calls: [String: Int] = [:]
  let complete = cursor.list { cursor in
    guard cursor.take("["), let name = cursor.string(), cursor.take(","), let count = cursor.int(), cursor.take("]")
    else { return false }
    calls[name] = count
    return true
  }
  return complete ? calls : nil
}

extension LoadedFile: WorkerCodable {
  /// `[file,feature,scenarios,errors]`, each scenario written without the file's path
  /// (see the top of this file).
  package func write(to writer: inout JSONWriter) {
    writer.byte(UInt8(ascii: "["))
    writer.string(file)
    writer.byte(UInt8(ascii: ","))
    writer.optional(feature)
    writer.byte(UInt8(ascii: ","))
    writer.list(scenarios) { writer, scenario in
      writer.byte(UInt8(ascii: "["))
      writer.int(scenario.id.scenario)
      writer.byte(UInt8(ascii: ","))
      writer.optional(scenario.id.row)
      writer.byte(UInt8(ascii: ","))
      writer.int(scenario.location.line)
      writer.byte(UInt8(ascii: ","))
      writer.int(scenario.location.column)
      writer.byte(UInt8(ascii: ","))
      writer.string(scenario.name)
      writer.byte(UInt8(ascii: ","))
      writer.strings(scenario.tags)
      if scenario.id.file != file || scenario.location.file != file {
        writer.byte(UInt8(ascii: ","))
        writer.string(scenario.id.file)
        writer.byte(UInt8(ascii: ","))
        writer.string(scenario.location.file)
      }
      writer.byte(UInt8(ascii: "]"))
    }
    writer.byte(UInt8(ascii: ","))
    writer.list(errors)
    writer.byte(UInt8(ascii: "]"))
  }

  package init?(from cursor: inout JSONCursor) {
    guard cursor.take("["), let file = cursor.string(), cursor.take(","), let feature = cursor.optionalString(),
      cursor.take(",")
    else { return nil }
    var scenarios: [PlannedScenario] = []
    let read = cursor.list { cursor in
      guard cursor.take("["), let index = cursor.int(), cursor.take(","), let row = cursor.optionalInt(),
        cursor.take(","), let line = cursor.int(), cursor.take(","), let column = cursor.int(), cursor.take(","),
        let name = cursor.string(), cursor.take(","), let tags = cursor.strings()
      else { return false }
      var (idFile, locationFile) = (file, file)
      if cursor.take(",") {
        guard let id = cursor.string(), cursor.take(","), let location = cursor.string() else { return false }
        (idFile, locationFile) = (id, location)
      }
      guard cursor.take("]") else { return false }
      scenarios.append(
        PlannedScenario(
          id: ScenarioID(file: idFile, scenario: index, row: row), name: name,
          location: FileLocation(file: locationFile, line: line, column: column), tags: tags))
      return true
    }
    guard read, cursor.take(","), let errors = cursor.list(of: SpecFileError.self), cursor.take("]") else { return nil }
    self.init(file: file, feature: feature, scenarios: scenarios, errors: errors)
  }
}

extension RecordedFile: WorkerCodable {
  /// `[scenarios,broken,errors,notes,rewritten,diff]`; the new text as its bytes (escaped
  /// as a string's), whatever they are.
  package func write(to writer: inout JSONWriter) {
    writer.byte(UInt8(ascii: "["))
    writer.int(scenarios)
    writer.raw(broken ? ",true," : ",false,")
    writer.string(errors)
    writer.byte(UInt8(ascii: ","))
    writer.strings(notes)
    writer.byte(UInt8(ascii: ","))
    if let rewritten { writer.string(utf8: rewritten) } else { writer.raw("null") }
    writer.byte(UInt8(ascii: ","))
    writer.string(diff)
    writer.byte(UInt8(ascii: "]"))
  }

  package init?(from cursor: inout JSONCursor) {
    guard cursor.take("["), let scenarios = cursor.int(), cursor.take(","), let broken = cursor.bool(),
      cursor.take(","), let errors = cursor.string(), cursor.take(","), let notes = cursor.strings(), cursor.take(",")
    else { return nil }
    var rewritten: [UInt8]?
    if !cursor.take("null") {
      guard let bytes = cursor.stringBytes() else { return nil }
      rewritten = bytes
    }
    guard cursor.take(","), let diff = cursor.string(), cursor.take("]") else { return nil }
    self.init(scenarios: scenarios, broken: broken, errors: errors, notes: notes, rewritten: rewritten, diff: diff)
  }
}
