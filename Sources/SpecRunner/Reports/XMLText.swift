import SpecYAML

/// Text made safe for an XML 1.0 file.
///
/// - ANSI escape sequences (`ESC [ … m` and the other CSI sequences) are removed: they
///   colour a terminal, not a report.
/// - Every other character that XML 1.0 forbids (the C0 controls but tab, line feed and
///   carriage return, and U+FFFE, U+FFFF) becomes a visible Swift-style escape such as
///   `\u{0}` or `\u{1B}`, so the reader still sees that something was there and what.
///   (Lone surrogates cannot occur in a Swift string.)
/// - `&`, `<`, `>` are escaped everywhere; in attributes also `"` and `'`, and tab, line
///   feed and carriage return as `&#9;`, `&#10;`, `&#13;` (a parser would turn them into
///   spaces otherwise). In text a carriage return is `&#13;` for the same reason.
enum XMLText {
  /// `text` escaped for an attribute value between double quotes.
  static func attribute(_ text: String) -> String {
    escape(text, inAttribute: true)
  }

  /// `text` escaped for element content.
  static func content(_ text: String) -> String {
    escape(text, inAttribute: false)
  }

  private static func escape(_ text: String, inAttribute: Bool) -> String {
    var result = ""
    result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
    for scalar in withoutANSIEscapes(text) {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"" where inAttribute: result += "&quot;"
      case "'" where inAttribute: result += "&apos;"
      case "\t" where inAttribute: result += "&#9;"
      case "\n" where inAttribute: result += "&#10;"
      case "\r": result += "&#13;"
      case "\t", "\n": result.unicodeScalars.append(scalar)
      case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
        result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// The scalars of `text` without its ANSI CSI sequences: `ESC [`, parameter bytes
  /// (0x30–0x3F), intermediate bytes (0x20–0x2F) and a final byte (0x40–0x7E). An `ESC`
  /// that does not start such a sequence stays (and is escaped visibly).
  static func withoutANSIEscapes(_ text: String) -> [Unicode.Scalar] {
    let scalars = Array(text.unicodeScalars)
    var result: [Unicode.Scalar] = []
    result.reserveCapacity(scalars.count)
    var index = 0
    while index < scalars.count {
      if scalars[index] == "\u{1B}", index + 1 < scalars.count, scalars[index + 1] == "[" {
        var end = index + 2
        while end < scalars.count, (0x20...0x3F).contains(scalars[end].value) { end += 1 }
        if end < scalars.count, (0x40...0x7E).contains(scalars[end].value) {
          index = end + 1
          continue
        }
      }
      result.append(scalars[index])
      index += 1
    }
    return result
  }
}
