// Not JSONEncoder or JSONSerialization: their `.prettyPrinted` (Swift 6.3.1, Linux) writes
// `"key" : value` and every array one element a line, and JSONSerialization reorders keys,
// so `schema`'s output would change (FeaturesSchemaEndToEndTests compares it byte for byte).
// Sendable is said, not inferred: inferring it through `[(String, JSONValue)]` from another
// file is a "circular reference" to Swift 6.3.1.

/// A JSON value with its object keys in order, written the same way every time: what
/// `reducer-spec schema` prints.
package indirect enum JSONValue: Equatable, Sendable {
  case object([(String, JSONValue)])
  case array([JSONValue])
  case string(String)
  case integer(Int)
  case bool(Bool)
  case null

  package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.text() == rhs.text() }

  /// Pretty-printed, two spaces per level; short arrays of scalars on one line.
  package func text(indent: Int = 0) -> String {
    let pad = String(repeating: " ", count: indent)
    let inner = String(repeating: " ", count: indent + 2)
    switch self {
    case .object(let entries):
      if entries.isEmpty { return "{}" }
      return "{\n" + entries.map { inner + Self.quoted($0.0) + ": " + $0.1.text(indent: indent + 2) }
        .joined(separator: ",\n") + "\n" + pad + "}"
    case .array(let elements):
      if elements.isEmpty { return "[]" }
      if elements.allSatisfy(\.isScalar) {
        let line = "[" + elements.map { $0.text() }.joined(separator: ", ") + "]"
        if line.count + indent <= 100 { return line }
      }
      return "[\n" + elements.map { inner + $0.text(indent: indent + 2) }.joined(separator: ",\n") + "\n" + pad + "]"
    case .string(let text): return Self.quoted(text)
    case .integer(let value): return String(value)
    case .bool(let value): return value ? "true" : "false"
    case .null: return "null"
    }
  }

  private var isScalar: Bool {
    switch self {
    case .object, .array: return false
    default: return true
    }
  }

  /// A JSON string: quotes, backslashes and control characters escaped (`\n`, `\r`, `\t`,
  /// the others as `\u00XX`); everything else, `/` and non-ASCII text included, as it is.
  private static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x22: out += #"\""#
      case 0x5C: out += #"\\"#
      case 0x0A: out += #"\n"#
      case 0x0D: out += #"\r"#
      case 0x09: out += #"\t"#
      case 0..<0x20:
        let hex = String(scalar.value, radix: 16)
        out += #"\u00"# + (hex.count == 1 ? "0" : "") + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  package init(stringLiteral value: String) { self = .string(value) }
  package init(integerLiteral value: Int) { self = .integer(value) }
  package init(booleanLiteral value: Bool) { self = .bool(value) }
  package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  package init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(elements) }
}
