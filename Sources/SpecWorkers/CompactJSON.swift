import Foundation
import SpecRunner
import SpecYAML

// JSON written and read by hand, for text whose shape is known in advance: the worker
// protocol's messages (WorkerCodec.swift) and the schema's strings. Through JSONEncoder and
// JSONDecoder, the command's share of a run was as large as a fifth of a worker's.

/// Whether a JSON string escapes this byte: a quote, a backslash or a control character.
private func needsEscape(_ byte: UInt8) -> Bool {
  byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
}

/// Bytes of JSON, written by hand.
package struct JSONWriter {
  package private(set) var bytes: [UInt8] = []

  package init() {}

  package mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

  /// A fixed piece of text, copied from the binary as it is (cheaper than ``raw(_:)``, which
  /// goes through a `String`).
  package mutating func literal(_ text: StaticString) { text.withUTF8Buffer { bytes.append(contentsOf: $0) } }

  package mutating func byte(_ byte: UInt8) { bytes.append(byte) }

  /// Bytes that are JSON already, as they are.
  package mutating func verbatim(_ json: ArraySlice<UInt8>) { bytes.append(contentsOf: json) }

  /// Its digits.
  package mutating func int(_ value: Int) { appendDecimal(value, to: &bytes) }

  /// A number that JSONEncoder would write the same way: integral values without a
  /// fraction. `nil` for a value JSON cannot hold (infinite, NaN).
  package mutating func number(_ value: Double) -> Void? {
    guard value.isFinite else { return nil }
    if value == value.rounded(), abs(value) < 1e15 { int(Int(value)) } else { raw("\(value)") }
    return ()
  }

  /// A JSON string: quotes, backslashes and control characters escaped; everything else,
  /// including `/` and non-ASCII text, as it is (UTF-8).
  package mutating func string(_ text: String) { string(utf8: text.utf8) }

  /// A string of bytes as they are (escaped as ``string(_:)`` escapes them), for text that
  /// need not be valid UTF-8: ``JSONCursor/stringBytes()`` reads them back unchanged.
  package mutating func string(utf8 text: some Collection<UInt8>) {
    bytes.append(UInt8(ascii: "\""))
    if !text.contains(where: needsEscape) {
      bytes.append(contentsOf: text)
      bytes.append(UInt8(ascii: "\""))
      return
    }
    for byte in text {
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

  /// A string, or `null`.
  package mutating func optional(_ text: String?) {
    if let text { string(text) } else { raw("null") }
  }

  /// An integer, or `null`.
  package mutating func optional(_ value: Int?) {
    if let value { int(value) } else { raw("null") }
  }

  /// Any `Double`, read back the same by ``JSONCursor/double()``: a finite one as
  /// ``number(_:)`` writes it, an infinite one as `1e999` or `-1e999` (which any JSON
  /// reader takes as too large), NaN as `null`.
  package mutating func double(_ value: Double) {
    if number(value) != nil { return }
    raw(value.isNaN ? "null" : value < 0 ? "-1e999" : "1e999")
  }

  package mutating func list<S: Sequence>(_ elements: S, _ write: (inout JSONWriter, S.Element) -> Void) {
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
package struct JSONCursor {
  private let bytes: [UInt8]
  private var position = 0

  package init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// Reads `bytes` from `position` on (a line of a larger text, without copying it).
  package init(_ bytes: [UInt8], from position: Int) {
    self.bytes = bytes
    self.position = position
  }

  package var isAtEnd: Bool { position == bytes.count }

  /// Where the next byte to read is.
  package var offset: Int { position }

  /// `true` or `false`.
  package mutating func bool() -> Bool? {
    if take("true") { return true }
    if take("false") { return false }
    return nil
  }

  /// Takes `text` if it comes next.
  package mutating func take(_ text: StaticString) -> Bool {
    let count = text.utf8CodeUnitCount
    guard bytes.count - position >= count else { return false }
    let matches = text.withUTF8Buffer { expected in
      bytes.withUnsafeBufferPointer { memcmp($0.baseAddress! + position, expected.baseAddress!, count) == 0 }
    }
    if matches { position += count }
    return matches
  }

  /// A list: calls `element` for each element until `]`.
  package mutating func list(_ element: (inout JSONCursor) -> Bool) -> Bool {
    guard take("[") else { return false }
    if take("]") { return true }
    repeat {
      guard element(&self) else { return false }
    } while take(",")
    return take("]")
  }

  package mutating func int() -> Int? {
    let start = position
    let negative = position < bytes.count && bytes[position] == UInt8(ascii: "-")
    if negative { position += 1 }
    // A negative number is summed downwards, so that Int.min, whose magnitude Int cannot
    // hold, is read too.
    var value = 0
    let digits = position
    while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
      let digit = Int(bytes[position] - UInt8(ascii: "0"))
      let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
      guard !overflow1, !overflow2 else {
        position = start
        return nil
      }
      value = sum
      position += 1
    }
    guard position > digits else {
      position = start
      return nil
    }
    return value
  }

  /// A JSON number, as a `Double`.
  package mutating func number() -> Double? {
    let start = position
    scan: while position < bytes.count {
      switch bytes[position] {
      case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "e"), UInt8(ascii: "E"):
        position += 1
      default: break scan
      }
    }
    guard position > start else { return nil }
    guard let value = Double(String(decoding: bytes[start..<position], as: UTF8.self)) else {
      position = start
      return nil
    }
    return value
  }

  /// What ``JSONWriter/double(_:)`` writes.
  package mutating func double() -> Double? {
    if take("null") { return .nan }
    return number()
  }

  /// An integer, or `null` as `.some(nil)`.
  mutating func optionalInt() -> Int?? {
    if take("null") { return .some(nil) }
    return int().map { .some($0) }
  }

  /// A string, or `null` as `.some(nil)`.
  mutating func optionalString() -> String?? {
    if take("null") { return .some(nil) }
    return string().map { .some($0) }
  }

  package mutating func string() -> String? {
    scanString(plain: { String(decoding: $0, as: UTF8.self) }, escaped: { String(decoding: $0, as: UTF8.self) })
  }

  /// Passes over a string, checking it as ``string()`` would, without making it.
  package mutating func skipString() -> Bool {
    scanString(plain: { _ in true }, escaped: { _ in true }) ?? false
  }

  /// A string's bytes as they were written, valid UTF-8 or not (``JSONWriter/string(utf8:)``).
  mutating func stringBytes() -> [UInt8]? {
    scanString(plain: { Array($0) }, escaped: { $0 })
  }

  /// Reads a string and hands over its bytes: a slice of the line when it has no escapes
  /// (most strings: one copy), else the bytes unescaped.
  private mutating func scanString<Result>(
    plain: (ArraySlice<UInt8>) -> Result, escaped: ([UInt8]) -> Result
  ) -> Result? {
    guard take("\"") else { return nil }
    let start = position
    let plainEnd = bytes[start...].firstIndex(where: needsEscape) ?? bytes.count
    // A control character ends no string: it is not JSON.
    guard plainEnd == bytes.count || bytes[plainEnd] >= 0x20 else { return nil }
    position = plainEnd
    guard position < bytes.count else { return nil }
    if bytes[position] == UInt8(ascii: "\"") {
      defer { position += 1 }
      return plain(bytes[start..<position])
    }
    var decoded = Array(bytes[start..<position])
    while position < bytes.count {
      let byte = bytes[position]
      position += 1
      switch byte {
      case UInt8(ascii: "\""):
        return escaped(decoded)
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
