import Foundation

/// ISO 8601 dates as specs write them: `2024-05-01T09:00:00Z`, with or without
/// fractional seconds, `Z` or a `+02:00` offset (no offset means UTC), or a bare
/// `2024-05-01` (midnight UTC).
///
/// Hand-written because it runs for every date of every spec: no formatter
/// objects, no locale, and exact round trips to the microsecond.
enum ISO8601 {
  /// Seconds between 1970-01-01 and 2001-01-01, Foundation's reference date.
  static let referenceOffset = 978_307_200

  static func parse(_ text: String) -> Date? {
    let bytes = Array(text.utf8)
    var index = 0
    func number(_ digits: Int) -> Int? {
      guard index + digits <= bytes.count else { return nil }
      var value = 0
      for offset in 0..<digits {
        let byte = bytes[index + offset]
        guard byte >= 0x30, byte <= 0x39 else { return nil }
        value = value * 10 + Int(byte - 0x30)
      }
      index += digits
      return value
    }
    func expect(_ characters: UInt8...) -> Bool {
      guard index < bytes.count, characters.contains(bytes[index]) else { return false }
      index += 1
      return true
    }
    guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2), expect(UInt8(ascii: "-")),
      let day = number(2), (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
    else { return nil }
    var seconds = daysFromCivil(year: year, month: month, day: day) * 86_400
    var fraction = 0.0
    if index < bytes.count {
      guard expect(UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")), let hour = number(2),
        expect(UInt8(ascii: ":")), let minute = number(2), expect(UInt8(ascii: ":")), let second = number(2),
        hour < 24, minute < 60, second < 60
      else { return nil }
      seconds += hour * 3600 + minute * 60 + second
      if expect(UInt8(ascii: ".")) {
        var numerator = 0
        var denominator = 1
        var digits = 0
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
          if digits < 9 {
            numerator = numerator * 10 + Int(bytes[index] - 0x30)
            denominator *= 10
          }
          digits += 1
          index += 1
        }
        guard digits > 0 else { return nil }
        fraction = Double(numerator) / Double(denominator)
      }
      if index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
      if expect(UInt8(ascii: "Z"), UInt8(ascii: "z")) {
      } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
        let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
        index += 1
        guard let hours = number(2), hours < 24 else { return nil }
        var minutes = 0
        if index < bytes.count {
          _ = expect(UInt8(ascii: ":"))
          guard let value = number(2), value < 60 else { return nil }
          minutes = value
        }
        seconds -= sign * (hours * 3600 + minutes * 60)
      }
    }
    guard index == bytes.count else { return nil }
    return Date(timeIntervalSinceReferenceDate: Double(seconds - referenceOffset) + fraction)
  }

  /// `2024-05-01T09:00:00Z`, with as many fractional digits (up to six) as the date has.
  static func format(_ date: Date) -> String {
    let interval = date.timeIntervalSinceReferenceDate
    guard interval.isFinite else { return "\(interval)" }
    var whole = interval.rounded(.down)
    var micro = Int(((interval - whole) * 1_000_000).rounded())
    if micro == 1_000_000 {
      whole += 1
      micro = 0
    }
    let total = Int(whole) + referenceOffset
    let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
    let secondOfDay = total - days * 86_400
    let (year, month, day) = civilFromDays(days)
    var text =
      pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(secondOfDay / 3600, 2) + ":"
      + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
    if micro > 0 {
      var digits = pad(micro, 6)
      while digits.hasSuffix("0") { digits.removeLast() }
      text += "." + digits
    }
    return text + "Z"
  }

  private static func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(abs(value))
    let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
    return value < 0 ? "-" + padded : padded
  }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's algorithm).
  static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
