/// Durations as specs write them: `300ms`, `1.5s`, `2m`, `1h`, or a bare number of seconds.
enum SpecDuration {
  /// The duration a text stands for, or `nil` when it is not one (negative durations are not).
  static func parse(_ text: String) -> Duration? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
    var number = Substring(trimmed)
    var scale = 1.0
    for unit in units where trimmed.hasSuffix(unit.suffix) {
      number = trimmed.dropLast(unit.suffix.count)
      scale = unit.seconds
      break
    }
    guard !number.isEmpty, number.allSatisfy({ $0.isNumber || $0 == "." }),
      number.filter({ $0 == "." }).count <= 1, let value = Double(number), value.isFinite
    else { return nil }
    let nanoseconds = (value * scale * 1e9).rounded()
    guard nanoseconds < 9e18 else { return nil }
    return .nanoseconds(Int64(nanoseconds))
  }

  /// `300ms`, `1.5s`, `2m`: the shortest way a spec would write it.
  static func format(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
    if milliseconds < 1000 { return "\(trim(milliseconds))ms" }
    if milliseconds.truncatingRemainder(dividingBy: 60_000) == 0 { return "\(trim(milliseconds / 60_000))m" }
    return "\(trim(milliseconds / 1000))s"
  }

  private static func trim(_ value: Double) -> String {
    value == value.rounded() ? String(Int64(value)) : String(value)
  }
}

import Foundation
