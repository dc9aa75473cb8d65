import Foundation

// Numbers written as text into bytes: the run writes one or more for every scenario (its
// time on the console, its place in the run record, its answer from a worker).

/// Appends `value`'s decimal digits, with a minus sign when it is negative: what
/// `String(value)` makes of it.
package func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
  if value < 0 { bytes.append(UInt8(ascii: "-")) }
  var magnitude = value.magnitude
  let start = bytes.count
  repeat {
    bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
    magnitude /= 10
  } while magnitude > 0
  bytes[start...].reverse()
}

/// Seconds with three decimals, `0.012`; negative and non-finite values read as `0.000`.
func formatSeconds(_ seconds: Double) -> String {
  var bytes: [UInt8] = []
  appendSeconds(seconds, to: &bytes)
  return String(decoding: bytes, as: UTF8.self)
}

/// Appends what ``formatSeconds(_:)`` makes of `seconds`, without making a string: every
/// scenario's line has a time.
func appendSeconds(_ seconds: Double, to bytes: inout [UInt8]) {
  let value = seconds.isFinite ? max(seconds, 0) : 0
  // By hand for the common case, and `String(format:)` where rounding could differ.
  let scaled = value * 1000
  // Near a half millisecond, the product's rounding error could round the other way than
  // printf, which rounds the exact value.
  guard value < 1e12, abs(scaled - scaled.rounded(.down) - 0.5) > 1e-6 else {
    bytes.append(contentsOf: String(format: "%.3f", value).utf8)
    return
  }
  let milliseconds = Int(scaled.rounded())
  // The whole seconds' digits, then the point and three digits of milliseconds.
  appendDecimal(milliseconds / 1000, to: &bytes)
  let fraction = milliseconds % 1000
  bytes.append(UInt8(ascii: "."))
  bytes.append(UInt8(ascii: "0") + UInt8(fraction / 100))
  bytes.append(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
  bytes.append(UInt8(ascii: "0") + UInt8(fraction % 10))
}

/// Seconds rounded to the millisecond, for machine-readable reports.
func roundedSeconds(_ seconds: Double) -> Double {
  seconds.isFinite ? (max(seconds, 0) * 1000).rounded() / 1000 : 0
}
