import SpecRunner
import SpecYAML

/// What the specs of a run cover of their features' behaviour, for `reducer-spec coverage`:
/// per feature, every action case (nested cases too) and whether a step sends or receives
/// it, every state field (nested fields too) and whether a `state:` or `assert:` step checks
/// it, and every registered stub, whether a spec stubs it and whether the run called it.
/// The actions, fields and stubs are read from the specs as written, of the scenarios that
/// ran (skipped ones are left out); the calls come from the run's results.
package struct BehaviourCoverage {
  /// One thing a feature can do or has: an action case, a state field, a stub.
  package struct Item: Equatable {
    /// `alert.presented.retry`, `detail.note`, `searchClient.search`.
    package var name: String
    /// How many steps send (actions), check (fields) or stub (stubs) it.
    var hits: Int = 0
    /// How many steps receive it (actions only).
    package var received: Int = 0
    /// How many times the scenarios that ran called it (stubs only); `nil` for a stub whose
    /// uses cannot be counted (a value installed as it is), and for actions and fields.
    package var called: Int?
    /// Sent or received, checked, or stubbed and (when its calls are counted) called.
    package var isCovered: Bool { hits + received > 0 && called != 0 }
    /// A dashboard's hits for the item: how many steps send or receive it or check it; for a
    /// stub, how many times it was called (how many specs stub it, when calls are not counted).
    var lineHits: Int { called ?? (hits + received) }
  }

  package enum Kind: String, CaseIterable {
    case actions, fields, stubs
  }

  package struct FeatureCoverage {
    package var name: String
    /// The spec files of the feature that were read.
    package var files: [String] = []
    package var actions: [Item] = []
    package var fields: [Item] = []
    package var stubs: [Item] = []

    package func items(_ kind: Kind) -> [Item] {
      switch kind {
      case .actions: actions
      case .fields: fields
      case .stubs: stubs
      }
    }

    /// The covered share of a kind, in percent; `nil` when the feature has none of it.
    package func percent(_ kind: Kind) -> Double? {
      let items = items(kind)
      guard !items.isEmpty else { return nil }
      return Double(items.filter(\.isCovered).count) * 100 / Double(items.count)
    }
  }

  /// The features that the specs name, sorted by name.
  package var features: [FeatureCoverage]
  /// The files that could not be read or bound (`reducer-spec check` says why): not counted.
  package var failedFiles: [String]

  /// The coverage of the features that these spec files name, counting the scenarios that
  /// `result` reports as run (not skipped).
  @MainActor
  package init(files: [String], engine: SpecEngine, result: RunResult) {
    var ran: Set<ScenarioID> = []
    var calls: [String: [String: Int]] = [:]
    for suite in result.suites {
      for scenario in suite.scenarios where scenario.outcome != .skipped {
        ran.insert(scenario.id)
        guard let feature = suite.feature else { continue }
        for (stub, count) in scenario.stubCalls ?? [:] { calls[feature, default: [:]][stub, default: 0] += count }
      }
    }
    var byName: [String: (feature: Feature, coverage: FeatureCoverage, tree: [ActionCase])] = [:]
    var failed: [String] = []
    let probe = ShapeProbe()
    // Each file while the engine still has it: its specs are not read again.
    engine.load(files: files) { loaded in
      guard loaded.errors.isEmpty, let name = loaded.feature, let feature = engine.features[name] else {
        failed.append(loaded.file)
        return
      }
      if byName[name] == nil {
        let tree = ActionCase.tree(of: probe.shape(of: feature.types.action.type, userInfo: feature.types.userInfo))
        var coverage = FeatureCoverage(name: name)
        coverage.actions = ActionCase.leaves(of: tree).map { Item(name: $0) }
        coverage.fields = Self.fieldNames(of: probe.shape(of: feature.types.state.type)).map { Item(name: $0) }
        coverage.stubs = feature.stubs.map { Item(name: $0.name, called: $0.usesAreCounted ? 0 : nil) }
        byName[name] = (feature, coverage, tree)
      }
      var entry = byName[name]!
      entry.coverage.files.append(loaded.file)
      let scenarios = engine.identifiedScenarioSpecs(of: loaded.file).filter { ran.contains($0.id) }
      var stubbed = scenarios.isEmpty ? [] : engine.fileStubNames(of: loaded.file)
      var sent: [String] = []
      var received: [String] = []
      var asserted: [[String]] = []
      for (_, scenario) in scenarios {
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
        let field = Self.components(of: entry.coverage.fields[index].name)
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
    for (name, stubCalls) in calls {
      guard var entry = byName[name] else { continue }
      for index in entry.coverage.stubs.indices where entry.coverage.stubs[index].called != nil {
        entry.coverage.stubs[index].called! += stubCalls[entry.coverage.stubs[index].name] ?? 0
      }
      byName[name] = entry
    }
    features = byName.values.map(\.coverage).sorted { $0.name < $1.name }
    failedFiles = failed
  }

  // MARK: - State fields

  /// The state's fields, and what they hold, in the order the state's `init(from:)` reads
  /// them: the fields of a struct (`detail.note`), of an element of a list, an identified
  /// collection or a stack (`todos[].title`; `[]` is any element), and of each case of an
  /// enum whose payload has fields (`destination.addContact.contact.name`). Optionals and
  /// presented children (`@Presents`) are their wrapped value. Dictionaries, scalars, enums
  /// without payloads, alerts and confirmation dialogs are counted whole.
  package static func fieldNames(of shape: TypeShape) -> [String] {
    var names: [String] = []
    func walk(_ shape: TypeShape, _ prefix: String, depth: Int) {
      guard depth < 8 else { return }
      switch shape {
      case .record(let named, let fields) where named.role == .plain:
        for field in fields {
          let name = prefix + field.name
          names.append(name)
          walk(field.shape, name + ".", depth: depth + 1)
        }
      case .optional(let wrapped) where depth > 0, .presented(let wrapped) where depth > 0:
        walk(wrapped, prefix, depth: depth)
      case .list(let element) where depth > 0, .identified(let element) where depth > 0,
        .stack(let element) where depth > 0:
        // `todos.` becomes `todos[].`: the fields of any element.
        walk(element, String(prefix.dropLast()) + "[].", depth: depth + 1)
      case .enumeration(_, let cases) where depth > 0:
        for item in cases {
          guard case .value(let payload) = item.payload, Self.hasFields(payload) else { continue }
          let name = prefix + item.name
          names.append(name)
          walk(payload, name + ".", depth: depth + 1)
        }
      default:
        break
      }
    }
    walk(shape, "", depth: 0)
    return names
  }

  /// Whether a payload holds fields of its own (a struct, or one behind an optional).
  private static func hasFields(_ shape: TypeShape) -> Bool {
    switch shape {
    case .record(_, let fields): !fields.isEmpty
    case .optional(let wrapped), .presented(let wrapped): hasFields(wrapped)
    default: false
    }
  }

  /// The fields that a mapping of assignments checks, as the components of ``fieldNames(of:)``:
  /// `todos[id=0].title` checks `todos`, `todos[]` and `todos[].title`; `self` is every
  /// field (the empty path).
  static func assertedPaths(in assignments: YAMLNode) -> [[String]] {
    guard let mapping = assignments.mapping else { return [] }
    return mapping.entries.compactMap { entry in
      guard let key = entry.key.scalar?.value, let path = try? StatePath(parsing: key) else { return nil }
      var fields: [String] = []
      for component in path.components {
        switch component {
        case .field(let name): fields.append(name)
        case .index, .id: fields.append("[]")
        case .key: return fields
        }
      }
      return fields
    }
  }

  /// The components of a field's name: `todos[].title` is `todos`, `[]`, `title`.
  package static func components(of field: String) -> [String] {
    field.split(separator: ".").flatMap { part -> [String] in
      part.hasSuffix("[]") ? [String(part.dropLast(2)), "[]"] : [String(part)]
    }
  }
}

/// An action case of a feature, with the cases nested in its payload: the action cases of
/// a child feature (`alert`, `destination`), a presentation's `presented` and `dismiss`, an
/// element of a collection or a stack, a binding's fields.
package struct ActionCase {
  /// How the payload of a case holds its nested cases.
  package enum Nesting {
    /// The payload is an action (`{ alert: { presented: retry } }`), or a binding's field.
    case value
    /// The payload is `{ id: ID, action: ACTION }`: an element of a collection or a stack.
    case element
  }

  package var name: String
  package var nesting: Nesting
  /// Nested cases; empty for a case that is counted itself.
  package var children: [ActionCase]

  /// The cases of an action type.
  package static func tree(of shape: TypeShape, depth: Int = 0) -> [ActionCase] {
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
  package static func leaves(of tree: [ActionCase], prefix: String = "") -> [String] {
    tree.flatMap { item in
      item.children.isEmpty ? [prefix + item.name] : leaves(of: item.children, prefix: prefix + item.name + ".")
    }
  }

  /// The counted case an action (as written, its paths expanded) is in; none when the
  /// action names no case of the tree.
  package static func covered(by action: YAMLNode, in tree: [ActionCase], prefix: String = "") -> [String] {
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
  package static func covered(byCasePath path: [String], in tree: [ActionCase]) -> [String] {
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
