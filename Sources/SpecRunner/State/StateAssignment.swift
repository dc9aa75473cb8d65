import Foundation
import SpecYAML

/// One line of a `state:` or `initialState:` mapping: a path and the value it gets.
///
/// A list of assignments applies in order to an encoded state, exactly like the
/// lines of a `TestStore` assertion closure; a value replaces the whole field.
///
/// ```swift
/// let node = try YAMLParser.parse("count: 1\nsecret: 4", path: "state.yaml")
/// let assignments = try StateAssignment.parse(node)
/// let state = try StateAssignment.apply(assignments, to: Counter.State())
/// ```
public struct StateAssignment: Sendable {
  public var path: StatePath
  /// The key as written, for its position.
  public var key: YAMLNode
  public var value: YAMLNode

  public init(path: StatePath, key: YAMLNode, value: YAMLNode) {
    self.path = path
    self.key = key
    self.value = value
  }

  /// Reads the assignments of a mapping, in order.
  public static func parse(_ node: YAMLNode) throws -> [StateAssignment] {
    guard let mapping = node.mapping else {
      throw YAMLError(
        "expected a mapping of state assignments (`field: value`), found \(node.foundDescription)", at: node)
    }
    return try mapping.entries.map { entry in
      let text = entry.name
      do {
        return StateAssignment(path: try StatePath(parsing: text), key: entry.key, value: entry.value)
      } catch let error as StatePath.ParseError {
        throw YAMLError(error.message, source: entry.key.source, mark: mark(in: entry.key, at: error.offset))
      }
    }
  }

  /// The assignments of a mapping on its file's tape whose keys' paths are parsed already
  /// (``DecodeMemo/paths(of:)``), with their key and value nodes built.
  static func onTape(_ value: SpecValue, paths: [StatePath]) -> [StateAssignment] {
    let tape = value.tape
    var result: [StateAssignment] = []
    result.reserveCapacity(paths.count)
    var key = tape.nodes[value.root].first
    for path in paths {
      let valueRef = Int(tape.nodes[Int(key)].next)
      result.append(StateAssignment(path: path, key: tape.node(at: Int(key)), value: tape.node(at: valueRef)))
      key = tape.nodes[valueRef].next
    }
    return result
  }

  /// The mark of a character of a key: keys are single-line, so it is on the key's line.
  static func mark(in key: YAMLNode, at offset: Int) -> Mark {
    let quoted = key.scalar.map { $0.style == .singleQuoted || $0.style == .doubleQuoted } ?? false
    let shift = offset + (quoted ? 1 : 0)
    guard key.start.line == key.end.line else { return key.start }
    return Mark(line: key.start.line, column: key.start.column + shift, offset: key.start.offset + shift)
  }

  // MARK: - Applying

  /// Applies assignments to an encoded state, in order.
  public static func apply(_ assignments: [StateAssignment], to node: YAMLNode) throws -> YAMLNode {
    var node = node
    // By index: a `for … in` would copy each assignment (its path, key and value) first.
    for index in assignments.indices {
      try assignments[index].apply(to: &node, from: 0)
    }
    return node
  }

  /// Encodes a state, applies the assignments, and decodes the result.
  ///
  /// Errors point at the assignment that caused them: a path that does not exist,
  /// an index out of range, an enum in another case, or a value of the wrong type.
  public static func apply<State: Codable>(
    _ assignments: [StateAssignment], to state: State, decoder: YAMLDecoder = YAMLDecoder()
  ) throws -> State {
    guard !assignments.isEmpty else { return state }
    let encoded = try YAMLEncoder().encode(state)
    return try decoder.decode(State.self, from: apply(assignments, to: encoded))
  }

  private func fail(_ message: String, at component: Int) -> YAMLError {
    let offset = component < path.offsets.count ? path.offsets[component] : 0
    return YAMLError(
      "cannot set `\(path.text)`: \(message)", source: key.source, mark: Self.mark(in: key, at: offset))
  }

  /// A key node for a new entry: the component's name, at its place in the written key.
  private func keyNode(_ name: String, component: Int) -> YAMLNode {
    let mark = Self.mark(in: key, at: path.offsets[component])
    return YAMLNode(.scalar(.init(name)), start: mark, end: mark, source: key.source)
  }

  private func apply(to node: inout YAMLNode, from index: Int) throws {
    let components = path.components
    guard index < components.count else {
      node = value
      return
    }
    let isLast = index == components.count - 1
    let holder = path.prefix(index)
    switch (components[index], node.content) {
    case (.field(let name), .mapping(var mapping)):
      if node.isEnumCase, let current = mapping.entries.first?.name, current != name {
        throw fail("`\(holder)` is in case `\(current)`, not `\(name)`", at: index)
      }
      if let position = mapping.position(of: name) {
        node.content = .scalar(.init(""))  // release the mapping so the edit does not copy it
        if isLast {
          // The field's value is replaced whole: no need to take the old one out first.
          mapping.set(key: mapping.entries[position].key, value: value)
        } else {
          var child = mapping.entries[position].value
          try apply(to: &child, from: index + 1)
          mapping.set(key: mapping.entries[position].key, value: child)
        }
        node.content = .mapping(mapping)
      } else if isLast {
        mapping.set(key: keyNode(name, component: index), value: value)
        node.content = .mapping(mapping)
      } else {
        let hint = Suggestion.hint(for: name, in: mapping.keys)
        throw fail(
          "`\(path.prefix(index + 1))` is nil or not a field; set it whole (`\(path.prefix(index + 1)): { … }`)" + hint,
          at: index)
      }
    case (.field(let name), .scalar(let scalar)) where node.isEnumCase:
      throw fail("`\(holder)` is in case `\(scalar.value)`, not `\(name)`", at: index)
    case (.field(let name), _):
      if node.isNull {
        throw fail("`\(holder)` is nil, so it has no field `\(name)`", at: index)
      }
      throw fail("`\(holder)` is \(node.foundDescription), which has no field `\(name)`", at: index)
    case (.index(let position), .sequence(var elements)):
      guard position < elements.count else {
        throw fail(
          "index \(position) is out of range; `\(holder)` has \(elements.count) element\(elements.count == 1 ? "" : "s")",
          at: index)
      }
      node.content = .scalar(.init(""))
      try apply(to: &elements[position], from: index + 1)
      node.content = .sequence(elements)
    case (.index, _):
      throw fail("`\(holder)` is \(node.foundDescription), not a sequence", at: index)
    case (.key(let name), .mapping(var mapping)):
      if let position = mapping.position(of: name) {
        if isLast, value.isNull {
          mapping[name] = nil
          node.content = .mapping(mapping)
          return
        }
        var child = mapping.entries[position].value
        node.content = .scalar(.init(""))
        try apply(to: &child, from: index + 1)
        mapping.set(key: mapping.entries[position].key, value: child)
        node.content = .mapping(mapping)
      } else if isLast {
        if !value.isNull {
          var key = keyNode(name, component: index)
          key.content = .scalar(.init(name, style: .doubleQuoted))
          mapping.set(key: key, value: value)
          node.content = .mapping(mapping)
        }
      } else {
        throw fail("`\(path.prefix(index + 1))` has no value", at: index)
      }
    case (.key, _):
      if node.isNull {
        throw fail("`\(holder)` is nil, not a dictionary", at: index)
      }
      throw fail("`\(holder)` is \(node.foundDescription), not a dictionary", at: index)
    case (.id(let id), .sequence(var elements)):
      try apply(id: id, to: &elements, holder: holder, at: index)
      node.content = .sequence(elements)
    case (.id, _):
      if node.isNull {
        throw fail("`\(holder)` is nil, not a list of identified elements", at: index)
      }
      throw fail("`\(holder)` is \(node.foundDescription), not a list of identified elements", at: index)
    }
  }

  // MARK: Identified elements

  /// `[id=ID]` on a list: the element whose `id` is ID. In a list of `{ id: ID, state: S }`
  /// pairs (a navigation stack), the path goes on inside `state`, and assigning a whole element
  /// at an id that is not there appends `{ id: ID, state: VALUE }`.
  private func apply(id: String, to elements: inout [YAMLNode], holder: String, at index: Int) throws {
    let isLast = index == path.components.count - 1
    if let position = elements.firstIndex(where: { Self.id(of: $0).map { Self.ids(id, $0) } ?? false }) {
      guard Self.isPair(elements[position]), var pair = elements[position].mapping,
        let state = pair.position(of: "state")
      else {
        try apply(to: &elements[position], from: index + 1)
        return
      }
      var child = pair.entries[state].value
      try apply(to: &child, from: index + 1)
      pair.set(key: pair.entries[state].key, value: child)
      elements[position].content = .mapping(pair)
      return
    }
    // A stack (a list of pairs; an empty list unless the value is an element with an `id`)
    // gets the element appended, as `$0.path[id: 0] = …` does in a TCA test.
    let isStack =
      elements.isEmpty ? !(value.mapping.map { $0["id"] != nil } ?? false) : elements.allSatisfy(Self.isPair)
    if isLast, isStack {
      let mark = Self.mark(in: key, at: path.offsets[index])
      func located(_ content: YAMLNode.Content) -> YAMLNode {
        YAMLNode(content, start: mark, end: mark, source: key.source)
      }
      var pair = YAMLNode.Mapping()
      pair.set(key: located(.scalar(.init("id"))), value: located(.scalar(.init(id))))
      pair.set(key: located(.scalar(.init("state"))), value: value)
      elements.append(located(.mapping(pair)))
      return
    }
    let written = UUID.fromInteger(id) != nil
    let ids = elements.compactMap { Self.id(of: $0) }.map { actual in
      written ? (UUID(uuidString: actual)?.integerForm.map { String($0) } ?? actual) : actual
    }
    var message = "`\(holder)` has no element with id \(id)"
    if elements.isEmpty {
      message += ": it is empty"
    } else if ids.isEmpty {
      message += ": its elements have no `id`"
    } else {
      message += "; its ids are " + ids.joined(separator: ", ")
    }
    if isLast { message += " (to add an element, assign the whole `\(holder)`)" }
    throw fail(message, at: index)
  }

  /// The text of an element's `id`, when it is a mapping with a scalar `id`.
  private static func id(of element: YAMLNode) -> String? {
    element.mapping?["id"]?.scalar?.value
  }

  /// Whether a written id is an element's id: the same text, or the same UUID (an integer N
  /// standing for `UUID(N)`).
  private static func ids(_ written: String, _ actual: String) -> Bool {
    if written == actual { return true }
    func uuid(_ text: String) -> UUID? { UUID.fromInteger(text) ?? UUID(uuidString: text) }
    guard let left = uuid(written), let right = uuid(actual) else { return false }
    return left == right
  }

  /// `{ id: ID, state: S }`: an element of a navigation stack.
  private static func isPair(_ element: YAMLNode) -> Bool {
    guard let mapping = element.mapping, mapping.count == 2 else { return false }
    return mapping["id"] != nil && mapping["state"] != nil
  }
}
