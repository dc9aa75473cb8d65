/// Writes nodes as YAML text that parses back to the same nodes.
///
/// Two layouts: ``block(_:)`` for files and listings, one key per line; and
/// ``flow(_:)`` for one-line renderings in messages: `{ setCount: "42" }`.
public enum YAMLEmitter {
  /// The node in block style, ending with a line break.
  public static func block(_ node: YAMLNode) -> String {
    var out = ""
    writeBlock(node, indent: 0, into: &out, afterDash: false)
    if !out.hasSuffix("\n") { out += "\n" }
    return out
  }

  /// The node on one line, in flow style: `{ a: 1, b: [x, y] }`.
  public static func flow(_ node: YAMLNode) -> String {
    var out = ""
    writeFlow(node, into: &out)
    return out
  }

  // MARK: Scalars

  /// Whether a string must be quoted to be read back as the same string.
  public static func needsQuotes(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return true }
    switch text {
    case "~", "null", "Null", "NULL", "<<": return true
    default: break
    }
    if ScalarResolver.bool(text) != nil || ScalarResolver.looksNumeric(text) || ISO8601.parse(text) != nil {
      return true
    }
    if " \t".unicodeScalars.contains(first) || " \t".unicodeScalars.contains(last) { return true }
    if "-?:,[]{}#&*!|>'\"%@`".unicodeScalars.contains(first) {
      // `-x`, `?x`, `:x` are plain when not followed by a space, but quoting them costs nothing.
      return true
    }
    var previous: Unicode.Scalar = " "
    for scalar in text.unicodeScalars {
      if scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\u{85}" || scalar == "\u{2028}"
        || scalar == "\u{2029}" || scalar == "\u{FEFF}"
      {
        return true
      }
      if scalar == "#", previous == " " || previous == "\t" { return true }
      if previous == ":", scalar == " " || scalar == "\t" { return true }
      if "{}[],".unicodeScalars.contains(scalar) { return true }
      previous = scalar
    }
    return last == ":"
  }

  /// A scalar as written: plain when safe, else double-quoted with escapes.
  static func scalarText(_ scalar: YAMLNode.Scalar) -> String {
    if scalar.style == .plain {
      if scalar.value.isEmpty { return "null" }
      if !needsQuotes(scalar.value) || isPlainToken(scalar.value) { return scalar.value }
    }
    return doubleQuoted(scalar.value)
  }

  /// Plain scalars that must stay plain to keep their meaning: null, booleans, numbers.
  private static func isPlainToken(_ text: String) -> Bool {
    text == "~" || text == "null" || text == "Null" || text == "NULL" || ScalarResolver.bool(text) != nil
      || ScalarResolver.looksNumeric(text) || ISO8601.parse(text) != nil
  }

  static func doubleQuoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      case "\0": out += "\\0"
      case "\u{85}": out += "\\N"
      case "\u{2028}": out += "\\L"
      case "\u{2029}": out += "\\P"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\u{FEFF}" {
          let hex = String(scalar.value, radix: 16, uppercase: true)
          out += scalar.value <= 0xFF ? "\\x" + String(repeating: "0", count: 2 - hex.count) + hex
            : "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }

  // MARK: Block style

  private static func writeBlock(_ node: YAMLNode, indent: Int, into out: inout String, afterDash: Bool) {
    let pad = String(repeating: " ", count: indent)
    switch node.content {
    case .scalar(let scalar):
      out += scalarText(scalar) + "\n"
    case .sequence(let elements):
      if elements.isEmpty {
        out += "[]\n"
        return
      }
      for (offset, element) in elements.enumerated() {
        if offset > 0 || !afterDash { out += pad }
        out += "- "
        writeBlock(element, indent: indent + 2, into: &out, afterDash: true)
      }
    case .mapping(let mapping):
      if mapping.isEmpty {
        out += "{}\n"
        return
      }
      for (offset, entry) in mapping.entries.enumerated() {
        if offset > 0 || !afterDash { out += pad }
        out += keyText(entry.key) + ":"
        switch entry.value.content {
        case .scalar(let scalar):
          out += " " + scalarText(scalar) + "\n"
        case .sequence(let elements) where elements.isEmpty:
          out += " []\n"
        case .mapping(let inner) where inner.isEmpty:
          out += " {}\n"
        default:
          out += "\n"
          writeBlock(entry.value, indent: indent + 2, into: &out, afterDash: false)
        }
      }
    }
  }

  private static func keyText(_ key: YAMLNode) -> String {
    guard let scalar = key.scalar else { return flow(key) }
    return needsQuotes(scalar.value) && !(scalar.style == .plain && isPlainToken(scalar.value))
      ? doubleQuoted(scalar.value) : scalar.value
  }

  // MARK: Flow style

  private static func writeFlow(_ node: YAMLNode, into out: inout String) {
    switch node.content {
    case .scalar(let scalar):
      out += scalarText(scalar)
    case .sequence(let elements):
      out += "["
      for (offset, element) in elements.enumerated() {
        if offset > 0 { out += ", " }
        writeFlow(element, into: &out)
      }
      out += "]"
    case .mapping(let mapping):
      if mapping.isEmpty {
        out += "{}"
        return
      }
      out += "{ "
      for (offset, entry) in mapping.entries.enumerated() {
        if offset > 0 { out += ", " }
        out += keyText(entry.key) + ": "
        writeFlow(entry.value, into: &out)
      }
      out += " }"
    }
  }
}
