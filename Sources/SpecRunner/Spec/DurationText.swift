import SpecYAML

// MARK: - Parsing

/// Durations as the command line and the spec format write them: `300ms`, `1.5s`, `2m`,
/// `1h`, or a bare number of seconds (`0.3`).
package enum DurationText {
  /// The duration that `text` names, or `nil` when it is not one of the accepted forms.
  ///
  /// Exact to the nanosecond: `1.5s` is 1 500 000 000 ns, not a rounded `Double`.
  package static func parse(_ text: String) -> Duration? {
    let units: [(suffix: String, nanoseconds: Int64)] = [
      ("ms", 1_000_000), ("s", 1_000_000_000), ("m", 60_000_000_000), ("h", 3_600_000_000_000),
    ]
    var number = Substring(text)
    var unit: Int64 = 1_000_000_000
    for candidate in units where text.hasSuffix(candidate.suffix) {
      number = text.dropLast(candidate.suffix.count)
      unit = candidate.nanoseconds
      break
    }
    let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    let whole = parts[0]
    let fraction = parts.count == 2 ? parts[1] : ""
    guard !(whole.isEmpty && fraction.isEmpty), !(parts.count == 2 && fraction.isEmpty),
      whole.allSatisfy(\.isASCIIDigit), fraction.allSatisfy(\.isASCIIDigit),
      let wholeValue = whole.isEmpty ? 0 : Int64(whole)
    else { return nil }
    let (scaled, overflow) = wholeValue.multipliedReportingOverflow(by: unit)
    guard !overflow else { return nil }
    // The fraction's digits, scaled to the unit; digits past a nanosecond are dropped.
    var fractionNanoseconds: Int64 = 0
    var place = unit
    for digit in fraction {
      place /= 10
      if place == 0 { break }
      fractionNanoseconds += Int64(digit.asciiValue! - 48) * place
    }
    return .nanoseconds(scaled + fractionNanoseconds)
  }

  // MARK: - Formatting

  /// The shortest of the accepted forms that names `duration`: `300ms`, `1.5s`, `2m`.
  package static func format(_ duration: Duration) -> String {
    let nanoseconds = duration.components.seconds * 1_000_000_000
      + duration.components.attoseconds / 1_000_000_000
    if nanoseconds >= 60_000_000_000, nanoseconds % 60_000_000_000 == 0 {
      return "\(nanoseconds / 60_000_000_000)m"
    }
    if nanoseconds < 1_000_000_000, nanoseconds % 1_000_000 == 0 {
      return "\(nanoseconds / 1_000_000)ms"
    }
    return seconds(Double(nanoseconds) / 1e9)
  }

  /// Seconds with at most three decimals and no trailing zeros: `1.5s`, `10s`, `0.25s`.
  static func seconds(_ value: Double) -> String {
    var text = String(Int64((value * 1000).rounded()))
    while text.count < 4 { text = "0" + text }
    text.insert(".", at: text.index(text.endIndex, offsetBy: -3))
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text + "s"
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
