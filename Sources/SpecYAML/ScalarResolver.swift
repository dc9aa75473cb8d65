import Foundation

/// Reads a plain scalar's text as the value of the Swift type it decodes into.
///
/// The type decides, so YAML 1.1's surprises cannot reach a spec: `no` is `false`
/// for a `Bool` and the string "no" for a `String`; `1_000` is an `Int` only when an
/// `Int` is expected.
enum ScalarResolver {
  static func bool(_ text: String) -> Bool? {
    switch text {
    case "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON": return true
    case "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF": return false
    default: return nil
    }
  }

  /// Decimal (`-42`, `+7`, `1_000`), hexadecimal (`0x2A`), octal (`0o52`) and binary (`0b101`).
  /// `nil` when the text is no integer; `.overflow` when it is one out of `T`'s range.
  enum IntegerResult<T> {
    case value(T)
    case overflow
    case notAnInteger
  }

  static func integer<T: FixedWidthInteger>(_ text: String, as type: T.Type) -> IntegerResult<T> {
    var utf8 = Substring(text).utf8[...]
    guard !utf8.isEmpty else { return .notAnInteger }
    var negative = false
    if utf8.first == UInt8(ascii: "-") || utf8.first == UInt8(ascii: "+") {
      negative = utf8.first == UInt8(ascii: "-")
      utf8 = utf8.dropFirst()
    }
    var radix: T.Magnitude = 10
    if utf8.count > 2, utf8.first == UInt8(ascii: "0") {
      switch utf8.dropFirst().first {
      case UInt8(ascii: "x"), UInt8(ascii: "X"): radix = 16
      case UInt8(ascii: "o"), UInt8(ascii: "O"): radix = 8
      case UInt8(ascii: "b"), UInt8(ascii: "B"): radix = 2
      default: break
      }
      if radix != 10 { utf8 = utf8.dropFirst(2) }
    }
    guard !utf8.isEmpty, utf8.first != UInt8(ascii: "_") else { return .notAnInteger }
    var magnitude: T.Magnitude = 0
    var overflow = false
    var digits = 0
    for byte in utf8 {
      if byte == UInt8(ascii: "_") { continue }
      let digit: T.Magnitude
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = T.Magnitude(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = T.Magnitude(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = T.Magnitude(byte - UInt8(ascii: "A") + 10)
      default: return .notAnInteger
      }
      guard digit < radix else { return .notAnInteger }
      digits += 1
      if overflow { continue }
      let (shifted, o1) = magnitude.multipliedReportingOverflow(by: radix)
      let (sum, o2) = shifted.addingReportingOverflow(digit)
      if o1 || o2 { overflow = true } else { magnitude = sum }
    }
    guard digits > 0 else { return .notAnInteger }
    if overflow { return .overflow }
    if negative {
      guard T.isSigned else { return magnitude == 0 ? .value(0) : .overflow }
      // -(T.max + 1) is representable; build the value from the magnitude without overflowing.
      if magnitude == T.Magnitude(T.max) + 1 { return .value(T.min) }
      guard magnitude <= T.Magnitude(T.max) else { return .overflow }
      return .value(0 - T(magnitude))
    }
    guard magnitude <= T.Magnitude(T.max) else { return .overflow }
    return .value(T(magnitude))
  }

  /// Floating-point numbers, integers, `.inf`, `-.inf` and `.nan` (in YAML's spellings).
  static func double(_ text: String) -> Double? {
    switch text {
    case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .infinity
    case "-.inf", "-.Inf", "-.INF": return -.infinity
    case ".nan", ".NaN", ".NAN": return .nan
    default: break
    }
    guard let first = text.utf8.first,
      first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".")
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
    else { return nil }
    // Swift's parser also takes "inf", "nan" and hexadecimal floats; YAML does not.
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "+"),
        UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "_"):
        continue
      default:
        return nil
      }
    }
    if text.utf8.contains(UInt8(ascii: "_")) {
      return Double(text.replacingOccurrences(of: "_", with: ""))
    }
    return Double(text)
  }

  /// Whether a plain scalar reads as a number, for wording messages.
  static func looksNumeric(_ text: String) -> Bool {
    if case .value = integer(text, as: Int.self) { return true }
    if case .overflow = integer(text, as: Int.self) { return true }
    return double(text) != nil
  }

  /// Decimal numbers written exactly, without going through `Double`.
  static func decimal(_ text: String) -> Decimal? {
    let cleaned = text.utf8.contains(UInt8(ascii: "_")) ? text.replacingOccurrences(of: "_", with: "") : text
    var sawDigit = false
    var index = cleaned.utf8.startIndex
    let utf8 = cleaned.utf8
    if index < utf8.endIndex, utf8[index] == UInt8(ascii: "-") || utf8[index] == UInt8(ascii: "+") {
      index = utf8.index(after: index)
    }
    var sawDot = false
    var sawExponent = false
    while index < utf8.endIndex {
      let byte = utf8[index]
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): sawDigit = true
      case UInt8(ascii: ".") where !sawDot && !sawExponent: sawDot = true
      case UInt8(ascii: "e"), UInt8(ascii: "E"):
        guard sawDigit, !sawExponent else { return nil }
        sawExponent = true
        let next = utf8.index(after: index)
        if next < utf8.endIndex, utf8[next] == UInt8(ascii: "-") || utf8[next] == UInt8(ascii: "+") {
          index = next
        }
      default: return nil
      }
      index = utf8.index(after: index)
    }
    guard sawDigit else { return nil }
    return Decimal(string: cleaned, locale: Locale(identifier: "en_US_POSIX"))
  }
}
