/// A value as TCA's messages name an action: `Counter.Action.response(.success)`, the cases
/// and their labels without the payloads that are not enums (abbreviated: without the type,
/// `.response(.success)`).
package func debugCaseOutput(_ value: Any, abbreviated: Bool = false) -> String {
  func caseOutput(_ value: Any) -> String {
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .enum:
      guard let child = mirror.children.first else {
        let output = "\(value)"
        return output == "\(typeName(type(of: value)))" ? "" : ".\(output)"
      }
      let childOutput = caseOutput(child.value)
      return ".\(child.label ?? "")\(childOutput.isEmpty ? "" : "(\(childOutput))")"
    case .tuple:
      return mirror.children.map { label, value in
        let childOutput = caseOutput(value)
        let isUnlabeled = label.map { $0.allSatisfy { $0 == "." || $0.isNumber } } ?? true
        return "\(label.map { isUnlabeled ? "_:" : "\($0):" } ?? "")\(childOutput.isEmpty ? "" : " \(childOutput)")"
      }
      .joined(separator: ", ")
    default:
      return ""
    }
  }
  if let value = value as? any CustomDebugStringConvertible { return value.debugDescription }
  return "\(abbreviated ? "" : typeName(type(of: value)))\(caseOutput(value))"
}

/// A type's name without its module, and without the contexts Swift cannot name (a type
/// declared in a function): `Counter.Action`.
func typeName(_ type: Any.Type) -> String {
  var name = String(reflecting: type).replacingOccurrences(
    of: #"\(unknown context at \$[[:xdigit:]]+\)\."#, with: "", options: .regularExpression)
  if let dot = name.firstIndex(of: ".") {
    name = String(name[name.index(after: dot)...])
  }
  return name
}
