import Foundation

/// A type's name as a Swift user writes it: `Counter.State`, `[Repository]`, `Int?`,
/// without module prefixes.
package func typeName(_ type: Any.Type) -> String {
  prettify(String(reflecting: type))
}

private func prettify(_ name: String) -> String {
  // Private and local types: `Module.(unknown context at $1234).Name` → `Module.Name`.
  var name = name
  while let start = name.range(of: "(unknown context at "), let end = name[start.upperBound...].range(of: ").") {
    name.removeSubrange(start.lowerBound..<end.upperBound)
  }
  while let start = name.range(of: "(extension in "), let end = name[start.upperBound...].range(of: "):") {
    name.removeSubrange(start.lowerBound..<end.upperBound)
  }
  // Drop the module from each dotted name: `ExampleFeatures.Counter.State` → `Counter.State`.
  var out = ""
  var word = ""
  func flush() {
    if let dot = word.firstIndex(of: "."), word.first?.isUppercase == true || word.first == "_" {
      out += word[word.index(after: dot)...]
    } else {
      out += word
    }
    word = ""
  }
  for character in name {
    if character.isLetter || character.isNumber || character == "_" || character == "." {
      word.append(character)
    } else {
      flush()
      out.append(character)
    }
  }
  flush()
  return sugar(out)
}

/// `Array<X>` → `[X]`, `Optional<X>` → `X?`, `Dictionary<K, V>` → `[K: V]`.
private func sugar(_ name: String) -> String {
  for (prefix, render) in [
    ("Optional<", { (inner: String) in inner + "?" }),
    ("Array<", { (inner: String) in "[" + inner + "]" }),
    ("Dictionary<", { (inner: String) in "[" + inner.replacingFirst(", ", with: ": ") + "]" }),
  ] as [(String, (String) -> String)] where name.hasPrefix(prefix) && name.hasSuffix(">") {
    let inner = String(name.dropFirst(prefix.count).dropLast())
    return render(sugar(inner))
  }
  return name
}

extension String {
  fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
    guard let range = range(of: target) else { return self }
    return replacingCharacters(in: range, with: replacement)
  }
}
