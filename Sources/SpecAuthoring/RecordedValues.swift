import SpecRunner
import SpecYAML

/// How `record` writes the values it records in the spec format's short forms.
package enum RecordedValues {
  /// The value with each UUID of the form `00000000-0000-0000-0000-00000000000N` written as
  /// the integer N, as `uuid: incrementing` hands them out (`id: 0`). The caller checks that
  /// the value still decodes to the same thing (a string field may hold such a text).
  static func integerUUIDs(_ node: YAMLNode) -> YAMLNode {
    var node = node
    switch node.content {
    case .scalar(let scalar):
      if let integer = integer(ofUUID: scalar.value) { node.content = .scalar(YAMLNode.Scalar(String(integer))) }
    case .sequence(let elements):
      node.content = .sequence(elements.map(integerUUIDs))
    case .mapping(let mapping):
      var result = YAMLNode.Mapping()
      for entry in mapping.entries { result.set(key: entry.key, value: integerUUIDs(entry.value)) }
      node.content = .mapping(result)
    }
    return node
  }

  private static let zeroPrefix = "00000000-0000-0000-0000-"

  private static func integer(ofUUID text: String) -> Int? {
    guard text.count == 36, text.hasPrefix(zeroPrefix) else { return nil }
    let tail = text.dropFirst(zeroPrefix.count)
    guard tail.allSatisfy(\.isHexDigit), let value = Int(tail, radix: 16), value < 1_000_000 else { return nil }
    return value
  }

  /// A received action as an action path when it nests three cases or more:
  /// `{ destination: { presented: { addContact: { delegate: { saveContact: C } } } } }` is
  /// `destination.presented.addContact.delegate.saveContact: C`, and
  /// `{ todos: { element: { id: 0, action: A } } }` is `todos[id=0]…`. A path goes through a
  /// case whose payload is a mapping of one key to a mapping (or `element:` with `id:` and
  /// `action:`); the payload it ends at is written whole. `nil` for a shorter action.
  static func actionPath(_ action: YAMLNode) -> (path: String, value: YAMLNode)? {
    guard var entry = onlyEntry(action), isPlainName(entry.name) else { return nil }
    var path = entry.name
    var cases = 1
    var value = entry.value
    while true {
      if let mapping = value.mapping, mapping.count == 2, let id = mapping["id"], let action = mapping["action"],
        case .scalar(let scalar) = id.content, path.hasSuffix(".element") || path == "element"
      {
        // `…element: { id: 0, action: A }` is `…[id=0]`, then A's cases.
        path.removeLast(path == "element" ? "element".count : ".element".count)
        guard !path.isEmpty, !scalar.value.contains(where: { "[]\"'".contains($0) }) else { return nil }
        path += "[id=\(scalar.value.contains(where: \.isWhitespace) ? "\"\(scalar.value)\"" : scalar.value)]"
        guard let next = onlyEntry(action), isPlainName(next.name), next.value.mapping != nil else {
          value = action
          break
        }
        entry = next
        path += "." + entry.name
        cases += 1
        value = entry.value
        continue
      }
      guard let next = onlyEntry(value), isPlainName(next.name), next.value.mapping != nil else { break }
      entry = next
      path += "." + entry.name
      cases += 1
      value = entry.value
    }
    return cases >= 3 ? (path, value) : nil
  }

  private static func onlyEntry(_ node: YAMLNode) -> YAMLNode.Mapping.Entry? {
    guard let mapping = node.mapping, mapping.count == 1 else { return nil }
    return mapping.entries.first
  }

  private static func isPlainName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
    return name.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
  }
}
