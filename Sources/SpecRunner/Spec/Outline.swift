import SpecYAML

/// Fills an outline's placeholders from one example row.
///
/// A scalar that is exactly `<name>` becomes the row's value, with its type (a number, a
/// list, a mapping); inside longer text, `<name>` is replaced by the value's text. Keys
/// are filled as text. A placeholder that no row defines is an error at the placeholder;
/// one that other rows define but this row does not is an error at the row.
package struct Outline {
  let template: YAMLNode
  /// Every placeholder the template uses, with the first node that uses it.
  private let uses: [(name: String, node: YAMLNode)]
  private var errors: [YAMLError] = []
  private var reported: Set<String> = []

  init(template: YAMLNode) {
    self.template = template
    var uses: [(String, YAMLNode)] = []
    var seen: Set<String> = []
    Self.visit(template) { text, node in
      for name in Self.placeholders(in: text) where seen.insert(name).inserted { uses.append((name, node)) }
    }
    self.uses = uses
  }

  mutating func takeErrors() -> [YAMLError] {
    defer { errors = [] }
    return errors
  }

  /// The template with the row's values in place of its placeholders, or `nil` when the row
  /// lacks one.
  mutating func fill(with row: YAMLNode.Mapping, row rowNode: YAMLNode) -> YAMLNode? {
    var complete = true
    for use in uses where row[use.name] == nil {
      complete = false
      if reported.insert(use.name).inserted {
        errors.append(
          YAMLError(
            "the placeholder `<\(use.name)>` is not defined by the example row"
              + Suggestion.hint(for: use.name, in: row.keys)
              + " (every row of `examples` gives a value for each placeholder)",
            at: use.node))
      }
    }
    guard complete else { return nil }
    return fill(template, row: row)
  }

  private func fill(_ node: YAMLNode, row: YAMLNode.Mapping) -> YAMLNode {
    switch node.content {
    case .scalar(let scalar):
      if let name = Self.wholePlaceholder(scalar.value), scalar.style == .plain, let value = row[name] {
        return value.located(like: node)
      }
      guard scalar.value.contains("<") else { return node }
      var copy = node
      copy.content = .scalar(.init(substitute(scalar.value, row: row), style: scalar.style))
      return copy
    case .sequence(let elements):
      var copy = node
      copy.content = .sequence(elements.map { fill($0, row: row) })
      return copy
    case .mapping(let mapping):
      var filled = YAMLNode.Mapping()
      for entry in mapping.entries {
        var key = entry.key
        if let text = key.scalar, text.value.contains("<") {
          key.content = .scalar(.init(substitute(text.value, row: row), style: text.style))
        }
        filled.set(key: key, value: fill(entry.value, row: row))
      }
      var copy = node
      copy.content = .mapping(filled)
      return copy
    }
  }

  private func substitute(_ text: String, row: YAMLNode.Mapping) -> String {
    var result = text
    for name in Self.placeholders(in: text) {
      guard let value = row[name] else { continue }
      let replacement = value.scalar?.value ?? YAMLEmitter.flow(value)
      result = result.replacingOccurrences(of: "<\(name)>", with: replacement)
    }
    return result
  }

  // MARK: - Finding placeholders

  /// Calls `body` with the text of every scalar and key in a tree.
  private static func visit(_ node: YAMLNode, _ body: (String, YAMLNode) -> Void) {
    switch node.content {
    case .scalar(let scalar): body(scalar.value, node)
    case .sequence(let elements): for element in elements { visit(element, body) }
    case .mapping(let mapping):
      for entry in mapping.entries {
        if let key = entry.key.scalar { body(key.value, entry.key) }
        visit(entry.value, body)
      }
    }
  }

  /// The names of the `<name>` placeholders in a text, in order.
  package static func placeholders(in text: String) -> [String] {
    guard text.contains("<") else { return [] }
    var names: [String] = []
    var rest = Substring(text)
    while let open = rest.firstIndex(of: "<") {
      let after = rest[rest.index(after: open)...]
      guard let close = after.firstIndex(of: ">") else { break }
      let name = after[..<close]
      if isIdentifier(name) { names.append(String(name)) }
      rest = after[after.index(after: close)...]
    }
    return names
  }

  /// `count` for the text `<count>`.
  static func wholePlaceholder(_ text: String) -> String? {
    guard text.hasPrefix("<"), text.hasSuffix(">"), text.count > 2 else { return nil }
    let name = text.dropFirst().dropLast()
    return isIdentifier(name) ? String(name) : nil
  }

  private static func isIdentifier(_ text: Substring) -> Bool {
    guard let first = text.first, first.isLetter || first == "_" else { return false }
    return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
  }
}

import Foundation
