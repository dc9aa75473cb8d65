import SpecRunner
import SpecYAML

/// What the specs of a run cover of their features' behaviour, for `reducer-spec coverage`:
/// per feature, every action case (nested cases too) and whether a step sends or receives
/// it, every state field (nested struct fields too) and whether a `state:` or `assert:` step
/// checks it, and every registered stub and whether a spec stubs it. Read from the specs as
/// written; nothing runs.
struct BehaviourCoverage {
  /// One thing a feature can do or has: an action case, a state field, a stub.
  struct Item: Equatable {
    /// `alert.presented.retry`, `detail.note`, `searchClient.search`.
    var name: String
    /// How many steps send (actions), check (fields) or stub (stubs) it.
    var hits: Int = 0
    /// How many steps receive it (actions only).
    var received: Int = 0
    var isCovered: Bool { hits + received > 0 }
  }

  enum Kind: String, CaseIterable {
    case actions, fields, stubs
  }

  struct FeatureCoverage {
    var name: String
    /// The spec files of the feature that were read.
    var files: [String] = []
    var actions: [Item] = []
    var fields: [Item] = []
    var stubs: [Item] = []

    func items(_ kind: Kind) -> [Item] {
      switch kind {
      case .actions: actions
      case .fields: fields
      case .stubs: stubs
      }
    }

    /// The covered share of a kind, in percent; `nil` when the feature has none of it.
    func percent(_ kind: Kind) -> Double? {
      let items = items(kind)
      guard !items.isEmpty else { return nil }
      return Double(items.filter(\.isCovered).count) * 100 / Double(items.count)
    }
  }

  /// The features that the specs name, sorted by name.
  var features: [FeatureCoverage]
  /// The files that could not be read or bound (`reducer-spec check` says why): not counted.
  var failedFiles: [String]

  /// The coverage of the features that these spec files name.
  @MainActor
  init(files: [String], engine: SpecEngine) {
    var byName: [String: (feature: Feature, coverage: FeatureCoverage, tree: [ActionCase])] = [:]
    var failed: [String] = []
    let probe = ShapeProbe()
    for loaded in engine.load(files: files) {
      guard loaded.errors.isEmpty, let name = loaded.feature, let feature = engine.features[name] else {
        failed.append(loaded.file)
        continue
      }
      if byName[name] == nil {
        let tree = ActionCase.tree(of: probe.shape(of: feature.types.action.type))
        var coverage = FeatureCoverage(name: name)
        coverage.actions = ActionCase.leaves(of: tree).map { Item(name: $0) }
        coverage.fields = Self.fieldNames(of: probe.shape(of: feature.types.state.type)).map { Item(name: $0) }
        coverage.stubs = feature.stubs.map { Item(name: $0.name) }
        byName[name] = (feature, coverage, tree)
      }
      var entry = byName[name]!
      entry.coverage.files.append(loaded.file)
      var stubbed = engine.fileStubNames(of: loaded.file)
      var sent: [String] = []
      var received: [String] = []
      var asserted: [[String]] = []
      for scenario in engine.scenarioSpecs(of: loaded.file).scenarios {
        let behaviour = scenario.behaviour
        stubbed += behaviour.stubbed
        for action in behaviour.sent { sent += ActionCase.covered(by: action, in: entry.tree) }
        for action in behaviour.received { received += ActionCase.covered(by: action, in: entry.tree) }
        for path in behaviour.receivedCasePaths { received += ActionCase.covered(byCasePath: path, in: entry.tree) }
        for assignments in behaviour.assertions { asserted += Self.assertedPaths(in: assignments) }
      }
      for index in entry.coverage.actions.indices {
        let name = entry.coverage.actions[index].name
        entry.coverage.actions[index].hits += sent.filter { $0 == name }.count
        entry.coverage.actions[index].received += received.filter { $0 == name }.count
      }
      for index in entry.coverage.fields.indices {
        let field = entry.coverage.fields[index].name.split(separator: ".").map(String.init)
        entry.coverage.fields[index].hits += asserted.filter { path in
          path.starts(with: field) || field.starts(with: path)
        }.count
      }
      for index in entry.coverage.stubs.indices {
        let name = entry.coverage.stubs[index].name
        entry.coverage.stubs[index].hits += stubbed.filter { $0 == name }.count
      }
      byName[name] = entry
    }
    features = byName.values.map(\.coverage).sorted { $0.name < $1.name }
    failedFiles = failed
  }

  // MARK: - State fields

  /// The state's fields, and the fields of the structs they hold (`detail.note`), in the
  /// order the state's `init(from:)` reads them. Lists, enums and presented children are
  /// fields whose insides are not counted.
  static func fieldNames(of shape: TypeShape) -> [String] {
    var names: [String] = []
    func walk(_ shape: TypeShape, _ prefix: String, depth: Int) {
      guard depth < 8 else { return }
      switch shape {
      case .record(_, let fields):
        for field in fields {
          let name = prefix + field.name
          names.append(name)
          walk(field.shape, name + ".", depth: depth + 1)
        }
      case .optional(let wrapped) where depth > 0:
        walk(wrapped, prefix, depth: depth)
      default:
        break
      }
    }
    walk(shape, "", depth: 0)
    return names
  }

  /// The fields that a mapping of assignments checks: each key's leading field names
  /// (`todos[id=0].title` checks `todos`; `self` is every field: the empty path).
  static func assertedPaths(in assignments: YAMLNode) -> [[String]] {
    guard let mapping = assignments.mapping else { return [] }
    return mapping.entries.compactMap { entry in
      guard let key = entry.key.scalar?.value, let path = try? StatePath(parsing: key) else { return nil }
      var fields: [String] = []
      for component in path.components {
        guard case .field(let name) = component else { break }
        fields.append(name)
      }
      return fields
    }
  }
}

/// An action case of a feature, with the cases nested in its payload: the action cases of
/// a child feature (`alert`, `destination`), a presentation's `presented` and `dismiss`, an
/// element of a collection or a stack, a binding's fields.
struct ActionCase {
  /// How the payload of a case holds its nested cases.
  enum Nesting {
    /// The payload is an action (`{ alert: { presented: retry } }`), or a binding's field.
    case value
    /// The payload is `{ id: ID, action: ACTION }`: an element of a collection or a stack.
    case element
  }

  var name: String
  var nesting: Nesting
  /// Nested cases; empty for a case that is counted itself.
  var children: [ActionCase]

  /// The cases of an action type.
  static func tree(of shape: TypeShape, depth: Int = 0) -> [ActionCase] {
    guard depth < 8 else { return [] }
    switch shape {
    case .enumeration(_, let cases):
      return cases.map { item in
        switch item.payload {
        case .none:
          return ActionCase(name: item.name, nesting: .value, children: [])
        case .value(let payload):
          return ActionCase(name: item.name, nesting: .value, children: tree(of: payload, depth: depth + 1))
        case .fields(let fields):
          guard fields.contains(where: { $0.name == "id" }), let action = fields.first(where: { $0.name == "action" })
          else { return ActionCase(name: item.name, nesting: .value, children: []) }
          return ActionCase(name: item.name, nesting: .element, children: tree(of: action.shape, depth: depth + 1))
        }
      }
    case .binding(_, let fields):
      return fields.map { ActionCase(name: $0.name, nesting: .value, children: []) }
    case .optional(let wrapped):
      return tree(of: wrapped, depth: depth)
    default:
      return []
    }
  }

  /// The counted cases, as dotted paths: `todos.element.binding.isComplete`.
  static func leaves(of tree: [ActionCase], prefix: String = "") -> [String] {
    tree.flatMap { item in
      item.children.isEmpty ? [prefix + item.name] : leaves(of: item.children, prefix: prefix + item.name + ".")
    }
  }

  /// The counted case an action (as written, its paths expanded) is in; none when the
  /// action names no case of the tree.
  static func covered(by action: YAMLNode, in tree: [ActionCase], prefix: String = "") -> [String] {
    let name: String
    var payload: YAMLNode?
    if let scalar = action.scalar {
      name = scalar.value
    } else if let mapping = action.mapping, mapping.count == 1, let entry = mapping.entries.first {
      name = entry.name
      payload = entry.value
    } else {
      return []
    }
    guard let item = tree.first(where: { $0.name == name }) else { return [] }
    let path = prefix + name
    if item.children.isEmpty { return [path] }
    guard var payload else { return [] }
    // `{ case: { _0: payload } }` is `{ case: payload }`.
    while let mapping = payload.mapping, mapping.count == 1, let only = mapping.entries.first, only.name == "_0" {
      payload = only.value
    }
    if item.nesting == .element {
      guard let action = payload.mapping?["action"] else { return [] }
      payload = action
    }
    return covered(by: payload, in: item.children, prefix: path + ".")
  }

  /// The counted cases that `receive: .case.path` accepts: every case under the path.
  static func covered(byCasePath path: [String], in tree: [ActionCase]) -> [String] {
    var level = tree
    var prefix = ""
    for (index, name) in path.enumerated() {
      guard let item = level.first(where: { $0.name == name }) else { return [] }
      prefix += name
      if item.children.isEmpty { return index == path.count - 1 ? [prefix] : [] }
      prefix += "."
      level = item.children
    }
    return leaves(of: level, prefix: prefix)
  }
}
