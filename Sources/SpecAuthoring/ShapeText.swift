import SpecRunner
import SpecYAML

/// Writes ``TypeShape``s as a spec author reads them: `[Repository]`, `String?`,
/// `{ success: [Int] } | { failure: String }`, `retry | dismiss`.
///
/// Structs, and enums too long for one line, are written by name; ``named`` collects them, in
/// the order they were first met, so that a description lists each one once.
package struct ShapeText {
  /// The named types met so far, to describe below: each with its shape.
  package private(set) var named: [(name: String, shape: TypeShape)] = []
  private var seen: Set<ObjectIdentifier> = []

  package init() {}

  /// Enums written inline at most this long; longer ones are written by name.
  static let inlineLimit = 60

  /// The text of a shape, on one line.
  package mutating func text(_ shape: TypeShape) -> String {
    switch shape {
    case .scalar(let scalar): return Self.name(of: scalar)
    case .optional(let wrapped):
      let inner = text(wrapped)
      return inner.contains(" | ") ? "(\(inner))?" : inner + "?"
    case .list(let element): return "[\(text(element))]"
    case .arguments(let arguments): return "[" + arguments.map { text($0) }.joined(separator: ", ") + "]"
    case .dictionary(let value): return "[String: \(text(value))]"
    case .nothing: return "null"
    case .unknown(let name): return "\(name) (any value)"
    case .recursive(let named): return named.name
    case .rawValues(let named, let values):
      let inline = values.joined(separator: " | ")
      if inline.count <= Self.inlineLimit { return inline }
      return reference(named, shape)
    case .identified(let element): return "[\(text(element))] (identified by id)"
    case .presented(let wrapped):
      let inner = text(wrapped)
      return (inner.contains(" | ") ? "(\(inner))?" : inner + "?") + " (presented)"
    case .stack(let element): return "[{ id: Int, state: \(text(element)) }] (a navigation stack)"
    case .binding(_, let fields):
      return fields.map { "{ \(field($0)) }" }.joined(separator: " | ")
    case .enumeration(let named, let cases) where named.role != .plain:
      return navigationAction(named.role, cases)
    case .record(let named, let fields) where named.role == .button:
      return "{ " + fields.map { field($0) }.joined(separator: ", ") + " }"
    case .enumeration(let named, let cases):
      var copy = self
      let inline = cases.map { copy.inlineCase($0) }.joined(separator: " | ")
      if inline.count <= Self.inlineLimit && cases.count <= 3 {
        self = copy
        return inline
      }
      return reference(named, shape)
    case .record(let named, _):
      return reference(named, shape)
    }
  }

  /// ReducerCore's navigation actions, always inline: `{ presented: ACTION } | dismiss`,
  /// `{ element: { id: ID, action: ACTION } }`, and a stack's three cases.
  private mutating func navigationAction(_ role: TypeShape.Role, _ cases: [TypeShape.Case]) -> String {
    let order: [String]
    switch role {
    case .presentationAction: order = ["presented", "dismiss"]
    case .stackAction: order = ["push", "popFrom", "element"]
    default: order = cases.map(\.name)
    }
    let sorted = order.compactMap { name in cases.first { $0.name == name } }
      + cases.filter { !order.contains($0.name) }
    return sorted.map { inlineCase($0) }.joined(separator: " | ")
  }

  private mutating func reference(_ named: TypeShape.Named, _ shape: TypeShape) -> String {
    if seen.insert(named.id).inserted { self.named.append((named.name, shape)) }
    return named.name
  }

  /// `increment`, `{ setCount: String }`, `{ move: { row: Int, column: Int } }`.
  private mutating func inlineCase(_ item: TypeShape.Case) -> String {
    switch item.payload {
    case .none: return item.name
    default: return "{ \(item.name): \(payload(item.payload)) }"
    }
  }

  /// A case's payload: `String`, or `{ row: Int, column: Int }`.
  package mutating func payload(_ payload: TypeShape.Payload) -> String {
    switch payload {
    case .none: return ""
    case .value(let shape): return text(shape)
    case .fields(let fields):
      return "{ " + fields.map { field($0) }.joined(separator: ", ") + " }"
    }
  }

  /// `row: Int`; a field that may be left out (and is not optional) gets ` (may be left out)`
  /// where there is room for it, in lists of fields one per line.
  package mutating func field(_ field: TypeShape.Field, onItsOwnLine: Bool = false) -> String {
    let text = "\(field.name): \(self.text(field.shape))"
    if onItsOwnLine, !field.isRequired, !field.shape.isOptional { return text + " (may be left out)" }
    return text
  }

  /// One case on its own line: `increment`, `setCount: String`.
  package mutating func caseLine(_ item: TypeShape.Case) -> String {
    if case .none = item.payload { return item.name }
    return "\(item.name): \(payload(item.payload))"
  }

  /// The lines that describe a named type's contents, for a list of types.
  package mutating func body(of shape: TypeShape) -> [String] {
    switch shape {
    case .record(_, let fields):
      return fields.map { field($0, onItsOwnLine: true) }
    case .enumeration(_, let cases):
      return cases.map { caseLine($0) }
    case .rawValues(_, let values):
      return values
    default:
      return [text(shape)]
    }
  }

  package static func name(of scalar: TypeShape.Scalar) -> String {
    switch scalar {
    case .string: return "String"
    case .integer(let name), .number(let name): return name
    case .bool: return "Bool"
    case .date: return "Date (2024-05-01T09:00:00Z)"
    case .uuid: return "UUID"
    case .url: return "URL"
    case .data: return "Data (base64)"
    case .decimal: return "Decimal"
    }
  }
}

extension TypeShape {
  package var isOptional: Bool {
    if case .optional = self { return true }
    return false
  }
}
