import Foundation
import SpecYAML

/// Checks the case path of a `receive: .case.path` step against the action type, segment
/// by segment, when the spec is bound: a misspelt case is an error at its segment, not an
/// action that is never received.
///
/// The first segment is checked against the case names of the action's `CodingKeys`
/// (``CodingKeyProbe``), which costs little; the segments after it against the shape of the
/// action (``ShapeProbe``), found once per action type: each segment names a case of the
/// enum that the case before it holds (`.saveResponse.success`), or a bindable field of a
/// binding action (`.binding.query`).
enum CasePathCheck {
  /// The problem with `path` as a case path of `action`, and the index of the segment it
  /// is about; `nil` when every segment that can be checked names a case.
  ///
  /// - Parameters:
  ///   - firstCases: The case names of `action` (``CodingKeyProbe``), or `nil` when they
  ///     cannot be listed.
  ///   - userInfo: The feature's, for an action type whose shape is the feature's
  ///     (``FeatureDependentShape``).
  static func problem(
    in path: [String], of action: any Decodable.Type, firstCases: [String]?,
    userInfo: [CodingUserInfoKey: any Sendable] = [:]
  ) -> (message: String, segment: Int)? {
    let written = "." + path.joined(separator: ".")
    if let firstCases, !firstCases.contains(path[0]) {
      return (unknownCase(path[0], of: typeName(action), cases: firstCases, in: written), 0)
    }
    guard path.count > 1 else { return nil }
    var shape = shape(of: action, userInfo: userInfo)
    for (index, name) in path.enumerated() {
      while case .optional(let wrapped) = shape { shape = wrapped }
      switch shape {
      case .enumeration(let named, let cases):
        guard let found = cases.first(where: { $0.name == name }) else {
          return (unknownCase(name, of: named.name, cases: cases.map(\.name), in: written), index)
        }
        switch found.payload {
        case .value(let payload):
          shape = payload
        case .none where index < path.count - 1:
          return (
            "the case `\(name)` of \(named.name) has no value, so the case path `\(written)` cannot go on past it: "
              + "end it at `.\(path[...index].joined(separator: "."))`",
            index + 1
          )
        case .none, .fields:
          // A case of labelled values is encoded as a mapping of several keys: no case path
          // goes into it.
          return nil
        }
      case .binding(let named, let fields):
        let names = fields.map(\.name)
        guard names.contains(name) else {
          // `BindingAction<Todos.State>`: the fields are the state's.
          let root =
            named.name.hasPrefix("BindingAction<") && named.name.hasSuffix(">")
            ? String(named.name.dropFirst("BindingAction<".count).dropLast()) : named.name
          return (
            "unknown bindable field `\(name)` in the case path `\(written)`" + Suggestion.hint(for: name, in: names)
              + "; the bindable fields of \(root) are " + names.map { "`\($0)`" }.joined(separator: ", "),
            index
          )
        }
        return nil
      default:
        return nil
      }
    }
    return nil
  }

  /// `unknown case `x` for T in the case path `.x`; did you mean `y`?; the cases of T are …`.
  private static func unknownCase(_ name: String, of type: String, cases: [String], in written: String) -> String {
    "unknown case `\(name)` for \(type) in the case path `\(written)`" + Suggestion.hint(for: name, in: cases)
      + "; the cases of \(type) are " + cases.map { "`\($0)`" }.joined(separator: ", ")
  }

  /// The shape of an action type, found once per type.
  private static func shape(of type: any Decodable.Type, userInfo: [CodingUserInfoKey: any Sendable]) -> TypeShape {
    // One type for every feature of its kind: its shape is the feature's, never kept.
    if type is any FeatureDependentShape.Type { return ShapeProbe().shape(of: type, userInfo: userInfo) }
    let id = ObjectIdentifier(type)
    lock.lock()
    defer { lock.unlock() }
    if let known = shapes[id] { return known }
    let shape = ShapeProbe().shape(of: type)
    shapes[id] = shape
    return shape
  }

  private static let lock = NSLock()
  private nonisolated(unsafe) static var shapes: [ObjectIdentifier: TypeShape] = [:]
}
