import SpecRunner
import SpecYAML

/// Checks the paths of `state:` assignments against the shape of a feature's state, for
/// `reducer-spec check`. A run applies a step's assignments to the actual state, so it
/// finds a misspelt field only when the step runs; this finds it without running: every
/// field name along a path must be one the type has (an enum state's case names count as
/// fields, as in `login.email`).
///
/// It is permissive wherever the type's shape says too little (a type that contains itself,
/// a custom `Codable` conformance, a subscript on something that is not a collection): the
/// run still reports what is left.
package final class StatePathCheck {
  let stateShape: TypeShape
  /// The paths found to name fields of the state: specs assert the same few paths at step
  /// after step, and a path's problem does not depend on where it is written.
  private var fine: Set<String> = []

  package init(stateShape: TypeShape) {
    self.stateShape = stateShape
  }

  /// The problems of one `state:` mapping, in the order of its keys. It is read on its
  /// file's tape: a key's node is built only for a path not yet found fine.
  package func problems(in assignments: SpecValue) -> [YAMLError] {
    // The same few lists of keys come step after step: one found fine is not read again.
    let keys = assignments.keyList
    if let keys, fineKeyLists.contains(keys) { return [] }
    let problems = readProblems(in: assignments)
    if let keys, problems.isEmpty {
      if fineKeyLists.count >= 8 { fineKeyLists.removeFirst() }
      fineKeyLists.append(keys)
    }
    return problems
  }

  /// The last lists of keys (``PackedValueKey/init(keysOf:in:)``) whose paths were all fine.
  private var fineKeyLists: [PackedValueKey] = []

  private func readProblems(in assignments: SpecValue) -> [YAMLError] {
    let tape = assignments.tape
    var problems: [YAMLError] = []
    var key = tape.nodes[assignments.root].first
    while key != Tape.none {
      let keyRef = Int(key)
      key = tape.nodes[Int(tape.nodes[keyRef].next)].next
      let name = tape.string(keyRef)
      guard !fine.contains(name) else { continue }
      guard let path = try? StatePath(parsing: name) else { continue }  // reported when the file is bound
      if let found = problem(in: path, at: tape.node(at: keyRef)) {
        problems.append(found)
      } else {
        fine.insert(name)
      }
    }
    return problems
  }

  private func problem(in path: StatePath, at key: YAMLNode) -> YAMLError? {
    var shape = stateShape
    for (component, offset) in zip(path.components, path.offsets) {
      shape = Self.unwrapped(shape)
      switch component {
      case .field(let name):
        switch shape {
        case .record(let named, let fields):
          guard let field = fields.first(where: { $0.name == name }) else {
            return error(name, "key", in: named, candidates: fields.map(\.name), at: key, offset: offset)
          }
          shape = field.shape
        case .enumeration(let named, let cases):
          guard let found = cases.first(where: { $0.name == name }) else {
            return error(name, "case", in: named, candidates: cases.map(\.name), at: key, offset: offset)
          }
          switch found.payload {
          case .none: return nil
          case .value(let payload): shape = payload
          case .fields(let fields): shape = .record(named, fields)
          }
        default:
          return nil
        }
      case .index:
        guard case .list(let element) = shape else { return nil }
        shape = element
      case .key:
        guard case .dictionary(let value) = shape else { return nil }
        shape = value
      case .id:
        // An identified list; in a list of `{ id, state }` pairs (a stack), the path goes on
        // inside `state`.
        guard case .list(let element) = shape else { return nil }
        shape = element
        if case .record(_, let fields) = Self.unwrapped(element), fields.count == 2,
          fields.contains(where: { $0.name == "id" }), let state = fields.first(where: { $0.name == "state" })
        {
          shape = state.shape
        }
      }
    }
    return nil
  }

  private static func unwrapped(_ shape: TypeShape) -> TypeShape {
    if case .optional(let wrapped) = shape { return unwrapped(wrapped) }
    return shape
  }

  /// `unknown key `cont` in Counter.State; did you mean `count`?`, at the component.
  private func error(
    _ name: String, _ kind: String, in named: TypeShape.Named, candidates: [String], at key: YAMLNode, offset: Int
  ) -> YAMLError {
    var location = key.location
    location?.column += offset
    return YAMLError(
      "unknown \(kind) `\(name)` in \(named.name)" + Suggestion.hint(for: name, in: candidates), at: location)
  }
}
