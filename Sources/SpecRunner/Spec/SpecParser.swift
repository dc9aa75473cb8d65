/// Reads a parsed spec file into a ``SpecFile``, checking it against the format: the keys
/// of every mapping, required keys, one kind per step, the types of names, tags, flags
/// and durations, unique scenario names, and outlines (`examples`), which it expands into
/// one scenario per row.
///
/// It reports every problem it finds, not only the first, each at its line and column.
struct SpecParser {
  static let fileKeys = ["feature", "description", "tags", "initialState", "dependencies", "scenarios"]
  static let scenarioKeys = [
    "name", "description", "tags", "skip", "exhaustivity", "initialState", "dependencies", "examples", "steps",
  ]
  static let stepKinds = [
    "send", "receive", "advance", "dependencies", "skipReceivedActions", "skipInFlightEffects", "finish",
  ]
  static let stepModifiers = ["state", "timeout", "note"]
  static let stepKeys = stepKinds + stepModifiers

  let path: String
  private(set) var errors: [YAMLError] = []

  init(path: String) {
    self.path = path
  }

  /// The spec, or `nil` when the file is not even shaped like one; ``errors`` lists the problems.
  mutating func parse(_ root: YAMLNode) -> SpecFile? {
    guard let mapping = root.mapping else {
      fail("a spec file is a mapping with the keys `feature` and `scenarios`, found \(root.foundDescription)", at: root)
      return nil
    }
    checkKeys(mapping, allowed: Self.fileKeys, in: "the file")
    let featureNode = mapping["feature"]
    let feature = featureNode.flatMap { string($0, for: "feature") }
    if featureNode == nil {
      fail("missing key `feature`: name the registered feature this file describes", at: root)
    }
    let description = mapping["description"].flatMap { string($0, for: "description") }
    let tags = mapping["tags"].map { self.tags($0) } ?? []
    let initialState = mapping["initialState"].flatMap { assignments($0, for: "initialState") }
    let dependencies = mapping["dependencies"].map { stubs($0) } ?? []

    var scenarios: [ScenarioSpec] = []
    if let node = mapping["scenarios"] {
      if let list = node.sequence {
        if list.isEmpty {
          fail("`scenarios` is empty: a spec file has at least one scenario", at: node)
        }
        var seen: [String: YAMLNode] = [:]
        for (index, item) in list.enumerated() {
          guard let item = scenarioNode(item) else { continue }
          if let nameNode = item["name"], let name = nameNode.scalar?.value {
            if let first = seen[name] {
              fail("duplicate scenario name `\(name)` (first at \(first.start)); scenario names are unique in a file", at: nameNode)
            } else {
              seen[name] = nameNode
            }
          }
          scenarios += self.scenarios(item, index: index, fileTags: tags)
        }
      } else {
        fail("expected a list of scenarios for `scenarios`, found \(node.foundDescription)", at: node)
      }
    } else {
      fail("missing key `scenarios`: a spec file has at least one scenario", at: root)
    }
    guard let feature, let featureNode else { return nil }
    return SpecFile(
      path: path, feature: feature, featureNode: featureNode, description: description, tags: tags,
      initialState: initialState, dependencies: dependencies, scenarios: scenarios)
  }

  // MARK: - Scenarios

  private mutating func scenarioNode(_ node: YAMLNode) -> YAMLNode? {
    guard let mapping = node.mapping else {
      fail("expected a scenario (a mapping with `name` and `steps`), found \(node.foundDescription)", at: node)
      return nil
    }
    checkKeys(mapping, allowed: Self.scenarioKeys, in: "a scenario")
    return node
  }

  /// The scenario, or one scenario per example row of an outline.
  private mutating func scenarios(_ node: YAMLNode, index: Int, fileTags: [String]) -> [ScenarioSpec] {
    guard let examples = node["examples"] else {
      return scenario(node, id: ScenarioID(file: path, scenario: index), location: node, fileTags: fileTags)
        .map { [$0] } ?? []
    }
    guard let rows = examples.sequence, !rows.isEmpty else {
      fail(
        "expected a list of example rows (mappings of placeholder values) for `examples`, found "
          + (examples.sequence == nil ? examples.foundDescription : "an empty list"),
        at: examples)
      return []
    }
    var template = node
    if var mapping = template.mapping {
      mapping["examples"] = nil
      template.content = .mapping(mapping)
    }
    var outline = Outline(template: template)
    var expanded: [ScenarioSpec] = []
    for (rowIndex, row) in rows.enumerated() {
      guard let values = row.mapping else {
        fail("expected an example row (a mapping of placeholder values), found \(row.foundDescription)", at: row)
        continue
      }
      let filled = outline.fill(with: values, row: row)
      for error in outline.takeErrors() { record(error) }
      guard let filled else { continue }
      let id = ScenarioID(file: path, scenario: index, row: rowIndex)
      if let scenario = scenario(filled, id: id, location: row, fileTags: fileTags) {
        expanded.append(scenario)
      }
    }
    // Rows that fill in the same name get their row number, so every test case has its own name.
    let names = expanded.map(\.name)
    if Set(names).count < names.count {
      for offset in expanded.indices {
        expanded[offset].name += " (example \(expanded[offset].id.row! + 1))"
      }
    }
    return expanded
  }

  private mutating func scenario(
    _ node: YAMLNode, id: ScenarioID, location: YAMLNode, fileTags: [String]
  ) -> ScenarioSpec? {
    guard let mapping = node.mapping else { return nil }
    let name = mapping["name"].flatMap { string($0, for: "name") }
    if mapping["name"] == nil {
      fail("missing key `name` in this scenario", at: node)
    }
    var tags = fileTags
    for tag in mapping["tags"].map({ self.tags($0) }) ?? [] where !tags.contains(tag) { tags.append(tag) }
    let skip = mapping["skip"].flatMap { string($0, for: "skip") }
    var isExhaustive = true
    if let node = mapping["exhaustivity"] {
      switch node.scalar.map({ ($0.value, $0.style) }) {
      case ("on", .plain)?: isExhaustive = true
      case ("off", .plain)?: isExhaustive = false
      default: fail("`exhaustivity` is `on` or `off`, found \(node.foundDescription)", at: node)
      }
    }
    _ = mapping["description"].flatMap { string($0, for: "description") }
    let initialState = mapping["initialState"].flatMap { assignments($0, for: "initialState") }
    let dependencies = mapping["dependencies"].map { stubs($0) } ?? []
    var steps: [StepSpec] = []
    if let stepsNode = mapping["steps"] {
      if let list = stepsNode.sequence {
        steps = list.compactMap { step($0) }
      } else {
        fail("expected a list of steps for `steps`, found \(stepsNode.foundDescription)", at: stepsNode)
      }
    } else if name != nil {
      fail("missing key `steps` in scenario `\(name!)`", at: node)
    }
    guard let name else { return nil }
    return ScenarioSpec(
      id: id, name: name,
      location: location.location ?? FileLocation(file: path, line: 0, column: 0),
      tags: tags, skip: skip, isExhaustive: isExhaustive, initialState: initialState,
      dependencies: dependencies, steps: steps)
  }

  // MARK: - Steps

  private mutating func step(_ node: YAMLNode) -> StepSpec? {
    guard let mapping = node.mapping else {
      fail(
        "expected a step (a mapping such as `send: ACTION`), found \(node.foundDescription)", at: node)
      return nil
    }
    // One pass over the keys: unknown ones are reported in order (as `checkKeys` does), and
    // the kind and the modifiers are found without a lookup each.
    let entries = mapping.entries
    var kindIndex = -1
    var kindCount = 0
    var stateIndex = -1
    var timeoutIndex = -1
    var noteIndex = -1
    for offset in entries.indices {
      let name = entries[offset].name
      switch name {
      case "state": stateIndex = offset
      case "timeout": timeoutIndex = offset
      case "note": noteIndex = offset
      default:
        if Self.stepKinds.contains(name) {
          if kindIndex < 0 { kindIndex = offset }
          kindCount += 1
        } else {
          fail(
            "unknown key `\(name)` in a step" + Suggestion.hint(for: name, in: Self.stepKeys), at: entries[offset].key)
        }
      }
    }
    guard kindIndex >= 0 else {
      let written = mapping.entries.filter { Self.stepModifiers.contains($0.name) }.map { "`\($0.name)`" }
      fail(
        (written.isEmpty ? "this step has no kind" : "this step has \(written.joined(separator: ", ")) but no kind")
          + ": write one of " + Self.stepKinds.map { "`\($0)`" }.joined(separator: ", "),
        at: node)
      return nil
    }
    if kindCount > 1 {
      let kinds = mapping.entries.filter { Self.stepKinds.contains($0.name) }
      fail(
        "a step has one kind, but this one has \(kinds.count): "
          + kinds.map { "`\($0.name)`" }.joined(separator: ", ") + "; write one step for each",
        at: kinds[1].key)
      return nil
    }
    let kindEntry = entries[kindIndex]
    let value = kindEntry.value
    let kind: StepKind
    switch kindEntry.name {
    case "send":
      kind = .send(value)
    case "receive":
      if let scalar = value.scalar, scalar.style == .plain, scalar.value.hasPrefix(".") {
        let components = scalar.value.dropFirst().split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard components.allSatisfy({ !$0.isEmpty }) else {
          fail("invalid case path `\(scalar.value)`: write cases separated by dots, e.g. `.response.success`", at: value)
          return nil
        }
        kind = .receiveCase(components, value)
      } else {
        kind = .receive(value)
      }
    case "advance":
      guard let duration = duration(value, for: "advance") else { return nil }
      kind = .advance(duration)
    case "dependencies":
      kind = .dependencies(stubs(value))
    case "skipReceivedActions", "skipInFlightEffects":
      guard let strict = flag(value, for: kindEntry.name) else { return nil }
      kind = kindEntry.name == "skipReceivedActions" ? .skipReceivedActions(strict: strict) : .skipInFlightEffects(strict: strict)
    default:
      if !(value.isNull || (value.scalar?.value == "true" && value.scalar?.style == .plain)) {
        fail("`finish` takes no value (write `finish: true`, with `timeout:` beside it if needed), found \(value.foundDescription)", at: value)
      }
      kind = .finish
    }
    var state: YAMLNode?
    if stateIndex >= 0 {
      let entry = entries[stateIndex]
      if case .send = kind {
        state = assignments(entry.value, for: "state")
      } else if kindEntry.name == "receive" {
        state = assignments(entry.value, for: "state")
      } else {
        fail("`state` goes with `send` or `receive`, not with `\(kindEntry.name)`", at: entry.key)
      }
    }
    var timeout: Duration?
    if timeoutIndex >= 0 {
      let entry = entries[timeoutIndex]
      if kindEntry.name == "receive" || kindEntry.name == "finish" {
        timeout = duration(entry.value, for: "timeout")
      } else {
        fail("`timeout` goes with `receive` or `finish`, not with `\(kindEntry.name)`", at: entry.key)
      }
    }
    let note = noteIndex >= 0 ? string(entries[noteIndex].value, for: "note") : nil
    return StepSpec(node: node, kind: kind, state: state, timeout: timeout, note: note)
  }

  // MARK: - Values

  private mutating func string(_ node: YAMLNode, for key: String) -> String? {
    guard let scalar = node.scalar, !node.isNull else {
      fail("expected text for `\(key)`, found \(node.foundDescription)", at: node)
      return nil
    }
    return scalar.value
  }

  private mutating func tags(_ node: YAMLNode) -> [String] {
    if let scalar = node.scalar, !node.isNull { return [scalar.value] }
    guard let list = node.sequence else {
      fail("expected a list of tags for `tags`, found \(node.foundDescription)", at: node)
      return []
    }
    return list.compactMap { item in
      guard let scalar = item.scalar, !item.isNull else {
        fail("expected a tag (a word) in `tags`, found \(item.foundDescription)", at: item)
        return nil
      }
      return scalar.value
    }
  }

  private mutating func assignments(_ node: YAMLNode, for key: String) -> YAMLNode? {
    guard node.mapping != nil else {
      fail(
        "expected a mapping of state assignments (`field: value`) for `\(key)`, found \(node.foundDescription)",
        at: node)
      return nil
    }
    return node
  }

  private mutating func stubs(_ node: YAMLNode) -> [StubEntry] {
    guard let mapping = node.mapping else {
      fail(
        "expected a mapping of stubs (`name: value`) for `dependencies`, found \(node.foundDescription)", at: node)
      return []
    }
    return mapping.entries.map { StubEntry(name: $0.name, key: $0.key, value: $0.value) }
  }

  private mutating func duration(_ node: YAMLNode, for key: String) -> Duration? {
    guard let scalar = node.scalar, !node.isStringOnly, let duration = DurationText.parse(scalar.value) else {
      fail(
        "expected a duration (`300ms`, `1.5s`, `2m`, or a number of seconds) for `\(key)`, found \(node.foundDescription)",
        at: node)
      return nil
    }
    return duration
  }

  /// `true`, or `{ strict: BOOL }`.
  private mutating func flag(_ node: YAMLNode, for key: String) -> Bool? {
    if let scalar = node.scalar, scalar.style == .plain, scalar.value == "true" { return true }
    if let mapping = node.mapping, mapping.count == 1, let strict = mapping["strict"]?.scalar, strict.style == .plain,
      strict.value == "true" || strict.value == "false"
    {
      return strict.value == "true"
    }
    fail("`\(key)` takes `true` (or `{ strict: false }` to allow nothing to skip), found \(node.foundDescription)", at: node)
    return nil
  }

  // MARK: - Errors

  private mutating func checkKeys(_ mapping: YAMLNode.Mapping, allowed: [String], in context: String) {
    for entry in mapping.entries where !allowed.contains(entry.name) {
      fail("unknown key `\(entry.name)` in \(context)" + Suggestion.hint(for: entry.name, in: allowed), at: entry.key)
    }
  }

  private mutating func fail(_ message: String, at node: YAMLNode) {
    record(YAMLError(message, at: node))
  }

  private mutating func record(_ error: YAMLError) {
    if !errors.contains(error) { errors.append(error) }
  }
}
