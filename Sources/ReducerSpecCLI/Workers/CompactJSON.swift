import Foundation
import SpecRunner
import SpecYAML

// The two messages of the worker protocol that go back and forth for every file, a file's
// plan and a batch of scenarios to run, written and read by hand. They are plain JSON,
// like every other message, but JSONEncoder and JSONDecoder spend some 50,000
// instructions on each scenario of a plan, which made the command's share of a run as large
// as a fifth of a worker's.
//
//   {"planned":["specs/counter.yaml","Counter",[[0,null,7,5,"Counting up",["smoke"]],…]]}
//
// is a file read without errors whose every scenario has the file's path in its id and its
// location: each scenario is `[scenario, row, line, column, name, tags]`. Any other plan
// goes as `{"plan":{…}}` through JSONEncoder, as before.

/// Bytes of JSON, written by hand.
struct JSONWriter {
  private(set) var bytes: [UInt8] = []

  mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

  mutating func int(_ value: Int) { raw(String(value)) }

  /// A number that JSONEncoder would write the same way: integral values without a
  /// fraction. `nil` for a value JSON cannot hold (infinite, NaN).
  mutating func number(_ value: Double) -> Void? {
    guard value.isFinite else { return nil }
    if value == value.rounded(), abs(value) < 1e15 { int(Int(value)) } else { raw("\(value)") }
    return ()
  }

  /// A JSON string: quotes, backslashes and control characters escaped; everything else,
  /// including `/` and non-ASCII text, as it is (UTF-8).
  mutating func string(_ text: String) {
    bytes.append(UInt8(ascii: "\""))
    if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
      bytes.append(contentsOf: text.utf8)
      bytes.append(UInt8(ascii: "\""))
      return
    }
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): raw(#"\""#)
      case UInt8(ascii: "\\"): raw(#"\\"#)
      case UInt8(ascii: "\n"): raw(#"\n"#)
      case UInt8(ascii: "\r"): raw(#"\r"#)
      case UInt8(ascii: "\t"): raw(#"\t"#)
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        raw(#"\u00"#)
        bytes.append(hex[Int(byte >> 4)])
        bytes.append(hex[Int(byte & 0xF)])
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  mutating func list<S: Sequence>(_ elements: S, _ write: (inout JSONWriter, S.Element) -> Void) {
    bytes.append(UInt8(ascii: "["))
    var first = true
    for element in elements {
      if !first { bytes.append(UInt8(ascii: ",")) }
      first = false
      write(&self, element)
    }
    bytes.append(UInt8(ascii: "]"))
  }
}

/// Reads JSON of a shape known in advance, by hand; every method returns `nil` (or
/// `false`) when the text is not what it expects.
struct JSONCursor {
  private let bytes: [UInt8]
  private var position = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  var isAtEnd: Bool { position == bytes.count }

  /// Takes `text` if it comes next.
  mutating func take(_ text: StaticString) -> Bool {
    let count = text.utf8CodeUnitCount
    guard bytes.count - position >= count else { return false }
    let matches = text.withUTF8Buffer { expected in
      bytes.withUnsafeBufferPointer { memcmp($0.baseAddress! + position, expected.baseAddress!, count) == 0 }
    }
    if matches { position += count }
    return matches
  }

  /// A list: calls `element` for each element until `]`.
  mutating func list(_ element: (inout JSONCursor) -> Bool) -> Bool {
    guard take("[") else { return false }
    if take("]") { return true }
    repeat {
      guard element(&self) else { return false }
    } while take(",")
    return take("]")
  }

  mutating func int() -> Int? {
    let start = position
    if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
    var value = 0
    let digits = position
    while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
      let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times.addingReportingOverflow(Int(bytes[position] - UInt8(ascii: "0")))
      guard !overflow1, !overflow2 else { return nil }
      value = sum
      position += 1
    }
    guard position > digits else {
      position = start
      return nil
    }
    return bytes[start] == UInt8(ascii: "-") ? -value : value
  }

  /// A JSON number, as a `Double`.
  mutating func number() -> Double? {
    let start = position
    while position < bytes.count, "0123456789+-.eE".utf8.contains(bytes[position]) { position += 1 }
    guard position > start, let value = Double(String(decoding: bytes[start..<position], as: UTF8.self)) else {
      position = start
      return nil
    }
    return value
  }

  /// A string, or `null` as `.some(nil)`.
  mutating func optionalString() -> String?? {
    if take("null") { return .some(nil) }
    return string().map { .some($0) }
  }

  mutating func string() -> String? {
    guard take("\"") else { return nil }
    let start = position
    // Most strings have no escapes: one copy.
    while position < bytes.count, bytes[position] != UInt8(ascii: "\""), bytes[position] != UInt8(ascii: "\\") {
      guard bytes[position] >= 0x20 else { return nil }
      position += 1
    }
    guard position < bytes.count else { return nil }
    if bytes[position] == UInt8(ascii: "\"") {
      defer { position += 1 }
      return String(decoding: bytes[start..<position], as: UTF8.self)
    }
    var decoded = Array(bytes[start..<position])
    while position < bytes.count {
      let byte = bytes[position]
      position += 1
      switch byte {
      case UInt8(ascii: "\""):
        return String(decoding: decoded, as: UTF8.self)
      case UInt8(ascii: "\\"):
        guard position < bytes.count else { return nil }
        let escape = bytes[position]
        position += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
          guard let scalar = unicodeEscape() else { return nil }
          decoded.append(contentsOf: String(Character(scalar)).utf8)
        default: return nil
        }
      case 0..<0x20:
        return nil
      default:
        decoded.append(byte)
      }
    }
    return nil
  }

  /// The scalar of `\uXXXX` (after its `\u`), joining a surrogate pair.
  private mutating func unicodeEscape() -> Unicode.Scalar? {
    guard let high = hex4() else { return nil }
    if (0xD800..<0xDC00).contains(high) {
      guard take(#"\u"#), let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
      return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    }
    return Unicode.Scalar(high)
  }

  private mutating func hex4() -> UInt32? {
    guard bytes.count - position >= 4 else { return nil }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[position]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: return nil
      }
      value = value << 4 | UInt32(digit)
      position += 1
    }
    return value
  }
}

// MARK: - The two messages

extension LoadedFile {
  /// `{"planned":[…]}` (see above), or `nil` when this plan does not fit that form.
  var compactLine: [UInt8]? {
    guard errors.isEmpty,
      scenarios.allSatisfy({ $0.id.file == file && $0.location.file == file })
    else { return nil }
    var writer = JSONWriter()
    writer.raw(#"{"planned":["#)
    writer.string(file)
    writer.raw(",")
    if let feature { writer.string(feature) } else { writer.raw("null") }
    writer.raw(",")
    writer.list(scenarios) { writer, scenario in
      writer.raw("[")
      writer.int(scenario.id.scenario)
      writer.raw(",")
      if let row = scenario.id.row { writer.int(row) } else { writer.raw("null") }
      writer.raw(",")
      writer.int(scenario.location.line)
      writer.raw(",")
      writer.int(scenario.location.column)
      writer.raw(",")
      writer.string(scenario.name)
      writer.raw(",")
      writer.list(scenario.tags) { $0.string($1) }
      writer.raw("]")
    }
    writer.raw("]}")
    return writer.bytes
  }

  /// Reads `{"planned":[…]}`; `nil` for any other line.
  init?(compactLine line: [UInt8]) {
    var cursor = JSONCursor(line)
    guard cursor.take(#"{"planned":["#), let file = cursor.string(), cursor.take(","),
      let feature = cursor.optionalString(), cursor.take(",")
    else { return nil }
    var scenarios: [PlannedScenario] = []
    let read = cursor.list { cursor in
      guard cursor.take("["), let index = cursor.int(), cursor.take(",") else { return false }
      var row: Int?
      if !cursor.take("null") {
        guard let value = cursor.int() else { return false }
        row = value
      }
      guard cursor.take(","), let line = cursor.int(), cursor.take(","), let column = cursor.int(),
        cursor.take(","), let name = cursor.string(), cursor.take(",")
      else { return false }
      var tags: [String] = []
      guard
        cursor.list({ cursor in
          guard let tag = cursor.string() else { return false }
          tags.append(tag)
          return true
        }), cursor.take("]")
      else { return false }
      scenarios.append(
        PlannedScenario(
          id: ScenarioID(file: file, scenario: index, row: row), name: name,
          location: FileLocation(file: file, line: line, column: column), tags: tags))
      return true
    }
    guard read, cursor.take("]}"), cursor.isAtEnd else { return nil }
    self.init(file: file, feature: feature, scenarios: scenarios, errors: [])
  }
}

extension WorkerRequest {
  /// The request as JSONEncoder writes it (sorted keys, slashes as they are), by hand;
  /// `nil` for a request that is neither a `plan` nor a `run`.
  var compactLine: [UInt8]? {
    var writer = JSONWriter()
    if let plan, run == nil, timeout == nil {
      writer.raw(#"{"plan":"#)
      writer.string(plan)
      writer.raw("}")
      return writer.bytes
    }
    guard plan == nil, let run, let timeout else { return nil }
    writer.raw(#"{"run":"#)
    writer.list(run) { writer, id in
      writer.raw(#"{"file":"#)
      writer.string(id.file)
      if let row = id.row {
        writer.raw(#","row":"#)
        writer.int(row)
      }
      writer.raw(#","scenario":"#)
      writer.int(id.scenario)
      writer.raw("}")
    }
    writer.raw(#","timeout":"#)
    guard writer.number(timeout) != nil else { return nil }
    writer.raw("}")
    return writer.bytes
  }

  /// Reads what ``compactLine`` writes (JSONEncoder's form of a request, keys in order);
  /// `nil` for any other line.
  init?(compactLine line: [UInt8]) {
    var cursor = JSONCursor(line)
    if cursor.take(#"{"plan":"#) {
      guard let file = cursor.string(), cursor.take("}"), cursor.isAtEnd else { return nil }
      self = .plan(file)
      return
    }
    guard cursor.take(#"{"run":"#) else { return nil }
    var ids: [ScenarioID] = []
    let read = cursor.list { cursor in
      guard cursor.take(#"{"file":"#), let file = cursor.string() else { return false }
      var row: Int?
      if cursor.take(#","row":"#) {
        guard let value = cursor.int() else { return false }
        row = value
      }
      guard cursor.take(#","scenario":"#), let scenario = cursor.int(), cursor.take("}") else { return false }
      ids.append(ScenarioID(file: file, scenario: scenario, row: row))
      return true
    }
    guard read, cursor.take(#","timeout":"#), let timeout = cursor.number(), cursor.take("}"), cursor.isAtEnd else {
      return nil
    }
    self = .run(ids, timeout: timeout)
  }
}
