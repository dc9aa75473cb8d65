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
    syntaxNeedsQuotes(text) || readsAsNonString(text)
  }

  /// Whether a mapping key must be quoted. Keys are looked up by their text, so
  /// `1:` and `true:` stay plain; only YAML's syntax (and the merge key) needs quotes.
  package static func keyNeedsQuotes(_ text: String) -> Bool {
    text == "<<" || syntaxNeedsQuotes(text)
  }

  /// Plain text that YAML or a type-directed decoder reads as null, a boolean, a number or a date.
  static func readsAsNonString(_ text: String) -> Bool {
    switch text {
    case "~", "null", "Null", "NULL": return true
    default:
      return ScalarResolver.bool(text) != nil || ScalarResolver.looksNumeric(text) || ISO8601.parse(text) != nil
    }
  }

  /// Text that a plain scalar cannot hold: indicators, `: `, ` #`, edge spaces, breaks, control characters.
  static func syntaxNeedsQuotes(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return true }
    if " \t".unicodeScalars.contains(first) || " \t".unicodeScalars.contains(last) { return true }
    if ",[]{}#&*!|>'\"%@`?:".unicodeScalars.contains(first) { return true }
    // `-7` and `-x` are plain; `- x` and a lone `-` are syntax.
    if first == "-" {
      let second = text.unicodeScalars.dropFirst().first
      if second == nil || second == " " || second == "\t" { return true }
    }
    var previous: Unicode.Scalar = " "
    for scalar in text.unicodeScalars {
      if !isPrintable(scalar) || scalar == "\n" || scalar == "\r" || scalar == "\u{85}" || scalar == "\u{2028}" || scalar == "\u{2029}" { return true }
      if scalar == "#", previous == " " { return true }
      // libyaml ends a plain scalar at `: ` and, in flow context, rejects `:` before `?`, `,`, `[`, `]`, `{`, `}`.
      if previous == ":", scalar == " " || scalar == "\t" || scalar == "?" { return true }
      if "{}[],\t".unicodeScalars.contains(scalar) { return true }
      previous = scalar
    }
    return last == ":"
  }

  /// libyaml's printable characters: anything else must be escaped in a double-quoted scalar.
  static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09, 0x0A, 0x0D, 0x20...0x7E, 0x85, 0xA0...0xD7FF, 0x10000...0x10FFFF: return true
    case 0xE000...0xFFFD: return scalar.value != 0xFEFF
    default: return false
    }
  }

  /// A scalar as written: plain when safe, else double-quoted with escapes.
  static func scalarText(_ scalar: YAMLNode.Scalar) -> String {
    if scalar.style == .plain {
      if scalar.value.isEmpty { return "null" }
      if !syntaxNeedsQuotes(scalar.value) { return scalar.value }
    }
    return doubleQuoted(scalar.value)
  }

  /// A scalar node as written; a plain scalar tagged `!!str` is quoted when plain text would read otherwise.
  static func scalarText(of node: YAMLNode) -> String {
    guard let scalar = node.scalar else { return flow(node) }
    if scalar.style == .plain, node.tag == .string, needsQuotes(scalar.value) {
      return doubleQuoted(scalar.value)
    }
    return scalarText(scalar)
  }

  package static func doubleQuoted(_ text: String) -> String {
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
        if !isPrintable(scalar) || scalar == "\t" {
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
    case .scalar:
      out += scalarText(of: node) + "\n"
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
        case .scalar:
          out += " " + scalarText(of: entry.value) + "\n"
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
    return keyNeedsQuotes(scalar.value) ? doubleQuoted(scalar.value) : scalar.value
  }

  // MARK: Flow style

  private static func writeFlow(_ node: YAMLNode, into out: inout String) {
    switch node.content {
    case .scalar:
      out += scalarText(of: node)
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
