import Foundation
import SpecYAML

/// Action paths: a key of an action written as a path of cases, with `[id=ID]` for an
/// element of a collection or a stack, whose value is the payload of the last case.
///
/// | written | the same action, nested |
/// | --- | --- |
/// | `todos[id=0].binding.isComplete: true` | `{ todos: { element: { id: 0, action: { binding: { isComplete: true } } } } }` |
/// | `path[id=1]: ACTION` | `{ path: { element: { id: 1, action: ACTION } } }` |
/// | `destination.presented.addContact.saveButtonTapped` | `{ destination: { presented: { addContact: saveButtonTapped } } }` |
///
/// The expansion is made on nodes before decoding, each new node placed at its segment of
/// the written key, so that a decoding error points at the segment it is about. It applies
/// to a plain key of the action's mapping (and, again, to a plain key of the value such a
/// key has), and to a plain scalar action with dots; a quoted key is never a path.
package enum ActionPath {
  /// Whether an action written at `ref` has a key or a scalar to expand: a quick look at
  /// the tape, so that the usual action builds no node tree.
  static func needsExpansion(_ t: Tape, _ ref: Int) -> Bool {
    switch t.kind(ref) {
    case .scalar:
      return t.nodes[ref].style == .plain && t.nodes[ref].tag == .none
        && t.withScalarBytes(ref) { isPathText($0, scalar: true) }
    case .mapping:
      // Along the keys' links: `t.keys(ref)` would allocate an array for one look.
      var key = t.nodes[ref].first
      while key != Tape.none {
        let keyRef = Int(key)
        if t.kind(keyRef) == .scalar, t.nodes[keyRef].style == .plain,
          t.withScalarBytes(keyRef, { isPathText($0, scalar: false) })
        {
          return true
        }
        key = t.nodes[Int(t.nodes[keyRef].next)].next
      }
      return false
    case .sequence:
      return false
    }
  }

  /// A plain scalar action with a dot (`a.b`, not `1.5`), or a key with a dot or `[`.
  private static func isPathText(_ text: String, scalar: Bool) -> Bool {
    var text = text
    return text.withUTF8 { isPathText($0, scalar: scalar) }
  }

  /// ``isPathText(_:scalar:)`` on UTF-8 bytes in place: the usual action key (`increment`)
  /// is read without making a `String` of it.
  private static func isPathText(_ bytes: UnsafeBufferPointer<UInt8>, scalar: Bool) -> Bool {
    guard let first = bytes.first else { return false }
    // An ASCII letter or `_` without asking Unicode's tables (the usual key); other text by them.
    let isLetter =
      first == UInt8(ascii: "_") || (first | 0x20 >= UInt8(ascii: "a") && first | 0x20 <= UInt8(ascii: "z"))
      || (first >= 0x80 && String(decoding: bytes, as: UTF8.self).unicodeScalars.first!.properties.isAlphabetic)
    guard isLetter else { return false }
    let dot = memchr(bytes.baseAddress!, Int32(UInt8(ascii: ".")), bytes.count) != nil
    return dot || (!scalar && memchr(bytes.baseAddress!, Int32(UInt8(ascii: "[")), bytes.count) != nil)
  }

  /// The action with its path keys (and a dotted scalar) expanded.
  package static func expand(_ node: YAMLNode) throws -> YAMLNode {
    switch node.content {
    case .scalar(let scalar) where scalar.style == .plain && node.tag == .none && isPathText(scalar.value, scalar: true):
      return try expand(key: node, value: nil)
    case .mapping(let mapping):
      var result = YAMLNode.Mapping()
      for entry in mapping.entries {
        guard let key = entry.key.scalar, key.style == .plain, isPathText(key.value, scalar: false) else {
          result.set(key: entry.key, value: entry.value)
          continue
        }
        // The value of a path is an action too: `todos[id=0]: { binding.isComplete: true }`.
        let value = entry.value.mapping == nil ? entry.value : try expand(entry.value)
        let expanded = try expand(key: entry.key, value: value)
        guard let nested = expanded.mapping, let first = nested.entries.first else { continue }
        if result[first.name] != nil {
          throw YAMLError("the case `\(first.name)` is written twice in this action", at: entry.key)
        }
        result.set(key: first.key, value: first.value)
      }
      var out = node
      out.content = .mapping(result)
      return out
    default:
      return node
    }
  }

  /// The nested form of one path key and its value (`nil` for a scalar action, whose last
  /// case has no payload).
  private static func expand(key: YAMLNode, value: YAMLNode?) throws -> YAMLNode {
    let text = key.scalar?.value ?? ""
    let path: StatePath
    do {
      path = try StatePath(parsing: text)
    } catch {
      let message = error.message.replacingOccurrences(of: "invalid state path", with: "invalid action path")
      throw YAMLError(message, source: key.source, mark: StateAssignment.mark(in: key, at: error.offset))
    }
    func located(_ content: YAMLNode.Content, _ component: Int) -> YAMLNode {
      let mark = StateAssignment.mark(in: key, at: path.offsets[component])
      return YAMLNode(content, start: mark, end: mark, source: key.source)
    }
    func mapping(_ name: String, _ value: YAMLNode, _ component: Int) -> YAMLNode {
      var mapping = YAMLNode.Mapping()
      mapping.set(key: located(.scalar(.init(name)), component), value: value)
      return located(.mapping(mapping), component)
    }
    var result: YAMLNode? = value
    for index in path.components.indices.reversed() {
      switch path.components[index] {
      case .field(let name):
        result = result.map { mapping(name, $0, index) } ?? located(.scalar(.init(name)), index)
      case .id(let id):
        guard let action = result else {
          throw YAMLError(
            "`\(text)` needs an action for the element: write `\(text): ACTION`", source: key.source,
            mark: StateAssignment.mark(in: key, at: path.offsets[index]))
        }
        var element = YAMLNode.Mapping()
        element.set(key: located(.scalar(.init("id")), index), value: located(.scalar(.init(id)), index))
        element.set(key: located(.scalar(.init("action")), index), value: action)
        result = mapping("element", located(.mapping(element), index), index)
      case .index, .key:
        throw YAMLError(
          "invalid action path `\(text)`: an action path is case names separated by dots, with `[id=ID]` for an element",
          source: key.source, mark: StateAssignment.mark(in: key, at: path.offsets[index]))
      }
    }
    return result!
  }
}
