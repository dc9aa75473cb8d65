import SpecYAML

/// Reads a parsed spec file into a ``SpecFile``, checking it against the format: the keys
/// of every mapping, required keys, one kind per step, the types of names, tags, flags
/// and durations, unique scenario names, and outlines (`examples`), which it expands into
/// one scenario per row.
///
/// It reads the flat ``Tape`` of the file and builds ``YAMLNode``s only for the values a
/// ``SpecFile`` keeps (actions, state assignments, stubs). It reports every problem it
/// finds, not only the first, each at its line and column.
package struct SpecParser {
  static let fileKeys = ["feature", "description", "tags", "initialState", "shared", "dependencies", "scenarios"]
  static let scenarioKeys = [
    "name", "description", "tags", "skip", "exhaustivity", "initialState", "shared", "dependencies", "examples",
    "steps",
  ]
  package static let stepKinds = [
    "send", "receive", "advance", "dependencies", "skipReceivedActions", "skipInFlightEffects", "finish", "assert",
    "cancel", "emit", "close", "exhaustivity",
  ]
  static let stepKindSet = Set(stepKinds)
  static let stepModifiers = ["state", "as", "timeout", "note"]
  static let stepKeys = stepKinds + stepModifiers
  let path: String
  private(set) var errors: [YAMLError] = []
  /// The tape that the values read last share: the file's, or an outline row's.
  private var sharedTape: SpecValue.SharedTape?

  init(path: String) {
    self.path = path
  }

  /// The spec of a parsed document.
  mutating func parse(_ document: YAMLDocument) -> SpecFile? {
    parse(document.tape)
  }

  /// The spec, or `nil` when the file is not even shaped like one; ``errors`` lists the problems.
  mutating func parse(_ t: Tape) -> SpecFile? {
    let root = t.root
    guard t.kind(root) == .mapping else {
      fail("a spec file is a mapping with the keys `feature` and `scenarios`, found \(t.foundDescription(root))", t, root)
      return nil
    }
    checkKeys(t, root, allowed: Self.fileKeys, in: "the file")
    let featureRef = t.lookup("feature", in: root)?.value
    let feature = featureRef.flatMap { string(t, $0, for: "feature") }
    if featureRef == nil {
      fail("missing key `feature`: name the registered feature this file describes", t, root)
    }
    let description = t.lookup("description", in: root).flatMap { string(t, $0.value, for: "description") }
    let tags = t.lookup("tags", in: root).map { self.tags(t, $0.value) } ?? []
    let initialState = t.lookup("initialState", in: root).flatMap { assignmentsValue(t, $0.value, for: "initialState") }
    let dependencies = t.lookup("dependencies", in: root).map { stubs(t, $0.value) } ?? []
    let shared = t.lookup("shared", in: root).map { self.shared(t, $0.value) } ?? []

    var scenarios: [ScenarioSpec] = []
    if let node = t.lookup("scenarios", in: root)?.value {
      if t.kind(node) == .sequence {
        if t.nodes[node].first == Tape.none {
          fail("`scenarios` is empty: a spec file has at least one scenario", t, node)
        }
        var seen: [String: Mark] = [:]
        var index = 0
        var item = t.nodes[node].first
        while item != Tape.none {
          let ref = Int(item)
          defer {
            item = t.nodes[ref].next
            index += 1
          }
          guard isScenario(t, ref) else { continue }
          if let nameRef = t.lookup("name", in: ref)?.value, t.kind(nameRef) == .scalar {
            let name = t.string(nameRef)
            if let first = seen[name] {
              fail(
                "duplicate scenario name `\(name)` (first at \(first)); scenario names are unique in a file", t,
                nameRef)
            } else {
              seen[name] = t.mark(nameRef)
            }
          }
          scenarios += self.scenarios(t, ref, index: index, fileTags: tags)
        }
      } else {
        fail("expected a list of scenarios for `scenarios`, found \(t.foundDescription(node))", t, node)
      }
    } else {
      fail("missing key `scenarios`: a spec file has at least one scenario", t, root)
    }
    guard let feature, let featureRef else { return nil }
    return SpecFile(
      path: path, feature: feature, featureNode: t.node(at: featureRef), description: description, tags: tags,
      initialState: initialState, shared: shared, dependencies: dependencies, scenarios: scenarios)
  }

  // MARK: - Scenarios

  private mutating func isScenario(_ t: Tape, _ ref: Int) -> Bool {
    guard t.kind(ref) == .mapping else {
      fail("expected a scenario (a mapping with `name` and `steps`), found \(t.foundDescription(ref))", t, ref)
      return false
    }
    checkKeys(t, ref, allowed: Self.scenarioKeys, in: "a scenario")
    return true
  }

  /// The scenario, or one scenario per example row of an outline.
  private mutating func scenarios(_ t: Tape, _ ref: Int, index: Int, fileTags: [String]) -> [ScenarioSpec] {
    guard let examplesRef = t.lookup("examples", in: ref)?.value else {
      return scenario(
        t, ref, id: ScenarioID(file: path, scenario: index), location: location(t, ref), fileTags: fileTags)
        .map { [$0] } ?? []
    }
    // Outlines are filled in on node trees; each filled scenario is read from its own tape.
    let node = t.node(at: ref)
    let examples = t.node(at: examplesRef)
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
      let tape = Tape(flattening: filled)
      if let scenario = scenario(tape, tape.root, id: id, location: row.location, fileTags: fileTags) {
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
    _ t: Tape, _ ref: Int, id: ScenarioID, location: FileLocation?, fileTags: [String]
  ) -> ScenarioSpec? {
    guard t.kind(ref) == .mapping else { return nil }
    let nameRef = t.lookup("name", in: ref)?.value
    let name = nameRef.flatMap { string(t, $0, for: "name") }
    if nameRef == nil {
      fail("missing key `name` in this scenario", t, ref)
    }
    var tags = fileTags
    for tag in t.lookup("tags", in: ref).map({ self.tags(t, $0.value) }) ?? [] where !tags.contains(tag) {
      tags.append(tag)
    }
    let skip = t.lookup("skip", in: ref).flatMap { string(t, $0.value, for: "skip") }
    var exhaustivity = SpecExhaustivity.on
    if let node = t.lookup("exhaustivity", in: ref)?.value, let value = self.exhaustivity(t, node) {
      exhaustivity = value
    }
    _ = t.lookup("description", in: ref).flatMap { string(t, $0.value, for: "description") }
    let initialState = t.lookup("initialState", in: ref).flatMap { assignmentsValue(t, $0.value, for: "initialState") }
    let dependencies = t.lookup("dependencies", in: ref).map { stubs(t, $0.value) } ?? []
    let shared = t.lookup("shared", in: ref).map { self.shared(t, $0.value) } ?? []
    var steps: [StepSpec] = []
    if let stepsRef = t.lookup("steps", in: ref)?.value {
      if t.kind(stepsRef) == .sequence {
        steps.reserveCapacity(Int(t.nodes[stepsRef].count))
        var child = t.nodes[stepsRef].first
        while child != Tape.none {
          step(t, Int(child), into: &steps)
          child = t.nodes[Int(child)].next
        }
      } else {
        fail("expected a list of steps for `steps`, found \(t.foundDescription(stepsRef))", t, stepsRef)
      }
    } else if name != nil {
      fail("missing key `steps` in scenario `\(name!)`", t, ref)
    }
    checkTaskNames(steps)
    guard let name else { return nil }
    return ScenarioSpec(
      id: id, name: name,
      location: location ?? FileLocation(file: path, line: 0, column: 0),
      tags: tags, skip: skip, exhaustivity: exhaustivity, initialState: initialState, shared: shared,
      dependencies: dependencies, steps: steps)
  }

  /// Where a node starts, as ``YAMLNode/location`` gives it.
  private func location(_ t: Tape, _ ref: Int) -> FileLocation? {
    t.source(ref).map { FileLocation(file: $0.path, line: t.nodes[ref].start.line, column: t.nodes[ref].start.column) }
  }

  // MARK: - Steps

  /// Appends the step at `ref` to `steps`, or records why it cannot be read.
  private mutating func step(_ t: Tape, _ ref: Int, into steps: inout [StepSpec]) {
    guard t.kind(ref) == .mapping else {
      fail("expected a step (a mapping such as `send: ACTION`), found \(t.foundDescription(ref))", t, ref)
      return
    }
    // One pass over the keys: unknown ones are reported in order (as `checkKeys` does), and
    // the kind and the modifiers are found without a lookup each.
    var kindKey = -1
    var kindName = ""
    var kindCount = 0
    var stateKey = -1
    var timeoutKey = -1
    var noteKey = -1
    var asKey = -1
    var key = t.nodes[ref].first
    while key != Tape.none {
      let keyRef = Int(key)
      key = t.nodes[Int(t.nodes[keyRef].next)].next
      let name = t.string(keyRef)
      switch name {
      case "state": stateKey = keyRef
      case "timeout": timeoutKey = keyRef
      case "note": noteKey = keyRef
      case "as": asKey = keyRef
      case _ where Self.stepKindSet.contains(name):
        if kindKey < 0 { (kindKey, kindName) = (keyRef, name) }
        kindCount += 1
      default:
        fail("unknown key `\(name)` in a step" + Suggestion.hint(for: name, in: Self.stepKeys), t, keyRef)
      }
    }
    guard kindKey >= 0 else {
      let written = entryNames(t, ref).filter { Self.stepModifiers.contains($0.name) }.map { "`\($0.name)`" }
      fail(
        (written.isEmpty ? "this step has no kind" : "this step has \(written.joined(separator: ", ")) but no kind")
          + ": write one of " + Self.stepKinds.map { "`\($0)`" }.joined(separator: ", "),
        t, ref)
      return
    }
    if kindCount > 1 {
      let kinds = entryNames(t, ref).filter { Self.stepKinds.contains($0.name) }
      fail(
        "a step has one kind, but this one has \(kinds.count): "
          + kinds.map { "`\($0.name)`" }.joined(separator: ", ") + "; write one step for each",
        t, kinds[1].key)
      return
    }
    let value = Int(t.nodes[kindKey].next)
    let kind: StepKind
    switch kindName {
    case "send":
      guard let action = action(t, value) else { return }
      kind = .send(action)
    case "receive":
      if t.kind(value) == .scalar, t.nodes[value].style == .plain, case let text = t.string(value),
        text.hasPrefix(".")
      {
        let components = text.dropFirst().split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard components.allSatisfy({ !$0.isEmpty }) else {
          fail("invalid case path `\(text)`: write cases separated by dots, e.g. `.response.success`", t, value)
          return
        }
        kind = .receiveCase(components, self.value(t, value))
      } else {
        guard let action = action(t, value) else { return }
        kind = .receive(action)
      }
    case "advance":
      guard let duration = duration(t, value, for: "advance") else { return }
      kind = .advance(duration)
    case "dependencies":
      kind = .dependencies(stubs(t, value))
    case "skipReceivedActions", "skipInFlightEffects":
      guard let strict = flag(t, value, for: kindName) else { return }
      kind = kindName == "skipReceivedActions" ? .skipReceivedActions(strict: strict) : .skipInFlightEffects(strict: strict)
    case "cancel":
      guard let name = taskName(t, value, for: "cancel") else { return }
      kind = .cancel(name)
    case "assert":
      guard let assignments = assignments(t, value, for: "assert") else { return }
      kind = .assert(assignments)
    case "emit":
      guard t.kind(value) == .mapping, t.nodes[value].count > 0 else {
        fail(
          "`emit` takes a mapping of stream endpoints to the values they yield (`emit: { ENDPOINT: VALUE }`), found "
            + t.foundDescription(value), t, value)
        return
      }
      kind = .emit(stubs(t, value))
    case "close":
      var names: [YAMLNode] = []
      if t.kind(value) == .sequence, t.nodes[value].count > 0 {
        names = t.node(at: value).sequence ?? []
      } else {
        names = [t.node(at: value)]
      }
      for name in names where name.scalar == nil || name.isNull {
        fail(
          "`close` takes the name of a stream endpoint (or a list of them), found \(name.foundDescription)", at: name)
        return
      }
      kind = .close(names)
    case "exhaustivity":
      guard let exhaustivity = exhaustivity(t, value) else { return }
      kind = .exhaustivity(exhaustivity)
    default:
      let isTrue = t.kind(value) == .scalar && t.nodes[value].style == .plain && t.scalar(value, equals: "true")
      if t.isNull(value) || isTrue {
        kind = .finish
      } else if t.kind(value) == .scalar, t.nodes[value].style == .plain, !t.scalar(value, equals: "false") {
        guard let name = taskName(t, value, for: "finish") else { return }
        kind = .finishTask(name)
      } else {
        fail(
          "`finish` takes `true` (every effect) or the name that `as:` gave a `send` (write `finish: true`, with `timeout:` beside it if needed), found \(t.foundDescription(value))",
          t, value)
        return
      }
    }
    var state: SpecValue?
    if stateKey >= 0 {
      if case .send = kind {
        state = assignmentsValue(t, Int(t.nodes[stateKey].next), for: "state")
      } else if kindName == "receive" {
        state = assignmentsValue(t, Int(t.nodes[stateKey].next), for: "state")
      } else {
        fail("`state` goes with `send` or `receive`, not with `\(kindName)`", t, stateKey)
      }
    }
    var timeout: Duration?
    if timeoutKey >= 0 {
      if kindName == "receive" || kindName == "finish" {
        timeout = duration(t, Int(t.nodes[timeoutKey].next), for: "timeout")
      } else {
        fail("`timeout` goes with `receive` or `finish`, not with `\(kindName)`", t, timeoutKey)
      }
    }
    let note = noteKey >= 0 ? string(t, Int(t.nodes[noteKey].next), for: "note") : nil
    var taskName: String?
    if asKey >= 0 {
      if kindName == "send" {
        taskName = self.taskName(t, Int(t.nodes[asKey].next), for: "as")
      } else {
        fail("`as` goes with `send` (it names the effects the send starts), not with `\(kindName)`", t, asKey)
      }
    }
    let taskNameNode: YAMLNode?
    switch kind {
    case .finishTask, .cancel: taskNameNode = t.node(at: value)
    default: taskNameNode = nil
    }
    steps.append(
      StepSpec(
        source: t.source(ref), start: t.nodes[ref].start, kind: kind, state: state, timeout: timeout, note: note,
        taskName: taskName, taskNameNode: taskNameNode))
  }

  /// An action of `send:` or `receive:`, with its path keys expanded (``ActionPath``).
  private mutating func action(_ t: Tape, _ ref: Int) -> SpecValue? {
    guard ActionPath.needsExpansion(t, ref) else { return value(t, ref) }
    do {
      let expanded = Tape(flattening: try ActionPath.expand(t.node(at: ref)))
      return SpecValue(expanded, expanded.root)
    } catch let error as YAMLError {
      record(error)
      return nil
    } catch {
      fail("\(error)", t, ref)
      return nil
    }
  }

  /// The name of a task, for `as`, `cancel` and `finish`: a word.
  private mutating func taskName(_ t: Tape, _ ref: Int, for key: String) -> String? {
    guard t.kind(ref) == .scalar, !t.isNull(ref), case let name = t.string(ref), !name.isEmpty,
      !name.contains(where: { $0.isWhitespace })
    else {
      fail(
        "expected a name for `\(key)` (a word, such as `timer`, that `as:` gives a `send`), found \(t.foundDescription(ref))",
        t, ref)
      return nil
    }
    return name
  }

  /// `on`, `off`, or `{ off: { showSkippedAssertions: BOOL } }`.
  private mutating func exhaustivity(_ t: Tape, _ node: Int) -> SpecExhaustivity? {
    func isPlain(_ ref: Int) -> Bool { t.kind(ref) == .scalar && t.nodes[ref].style == .plain }
    if isPlain(node), t.scalar(node, equals: "on") { return .on }
    if isPlain(node), t.scalar(node, equals: "off") { return .off(showSkippedAssertions: false) }
    if t.kind(node) == .mapping, t.nodes[node].count == 1, let off = t.lookup("off", in: node)?.value,
      t.kind(off) == .mapping, t.nodes[off].count == 1,
      let show = t.lookup("showSkippedAssertions", in: off)?.value, isPlain(show),
      t.scalar(show, equals: "true") || t.scalar(show, equals: "false")
    {
      return .off(showSkippedAssertions: t.scalar(show, equals: "true"))
    }
    fail(
      "`exhaustivity` is `on`, `off` or `{ off: { showSkippedAssertions: true } }`, found \(t.foundDescription(node))",
      t, node)
    return nil
  }

  /// `cancel: NAME` and `finish: NAME` name a task that an earlier `send` named with `as:`.
  private mutating func checkTaskNames(_ steps: [StepSpec]) {
    var given: [String] = []
    // By index: a `for … in` would copy each step (its nodes and texts) to look at its kind.
    for index in steps.indices {
      let used: (key: String, name: String)?
      switch steps[index].kind {
      case .cancel(let name): used = ("cancel", name)
      case .finishTask(let name): used = ("finish", name)
      default: used = nil
      }
      if let used, !given.contains(used.name), let node = steps[index].taskNameNode {
        fail(
          "`\(used.key): \(used.name)` names no task: no earlier `send` has `as: \(used.name)`"
            + (given.isEmpty ? "" : Suggestion.hint(for: used.name, in: given)),
          at: node)
      }
      if let name = steps[index].taskName, !given.contains(name) { given.append(name) }
    }
  }

  /// The key nodes of a mapping with their texts, in order.
  private func entryNames(_ t: Tape, _ ref: Int) -> [(name: String, key: Int)] {
    t.keys(ref).map { (t.string($0), $0) }
  }

  // MARK: - Values

  private mutating func string(_ t: Tape, _ ref: Int, for key: String) -> String? {
    guard t.kind(ref) == .scalar, !t.isNull(ref) else {
      fail("expected text for `\(key)`, found \(t.foundDescription(ref))", t, ref)
      return nil
    }
    return t.string(ref)
  }

  private mutating func tags(_ t: Tape, _ ref: Int) -> [String] {
    if t.kind(ref) == .scalar, !t.isNull(ref) { return [t.string(ref)] }
    guard t.kind(ref) == .sequence else {
      fail("expected a list of tags for `tags`, found \(t.foundDescription(ref))", t, ref)
      return []
    }
    var result: [String] = []
    var item = t.nodes[ref].first
    while item != Tape.none {
      let itemRef = Int(item)
      item = t.nodes[itemRef].next
      guard t.kind(itemRef) == .scalar, !t.isNull(itemRef) else {
        fail("expected a tag (a word) in `tags`, found \(t.foundDescription(itemRef))", t, itemRef)
        continue
      }
      result.append(t.string(itemRef))
    }
    return result
  }

  private mutating func assignments(_ t: Tape, _ ref: Int, for key: String) -> YAMLNode? {
    assignmentsValue(t, ref, for: key)?.node
  }

  /// The same, kept on the file's tape: a step's `state:` builds no node tree until its
  /// step runs (``StepContext/state``).
  private mutating func assignmentsValue(_ t: Tape, _ ref: Int, for key: String) -> SpecValue? {
    guard t.kind(ref) == .mapping else {
      fail(
        "expected a mapping of state assignments (`field: value`) for `\(key)`, found \(t.foundDescription(ref))",
        t, ref)
      return nil
    }
    return value(t, ref)
  }

  /// A value of the tape `t`, which shares the tape with the values read before it from `t`.
  private mutating func value(_ t: Tape, _ ref: Int) -> SpecValue {
    // The same tape as before when it has the same buffers (an empty tape has no values).
    if let sharedTape, !t.nodes.isEmpty, sharedTape.identity == t.bufferIdentity { return SpecValue(sharedTape, ref) }
    let shared = SpecValue.SharedTape(t)
    sharedTape = shared
    return SpecValue(shared, ref)
  }

  private mutating func stubs(_ t: Tape, _ ref: Int) -> [StubEntry] {
    guard t.kind(ref) == .mapping else {
      fail(
        "expected a mapping of stubs (`name: value`) for `dependencies`, found \(t.foundDescription(ref))", t, ref)
      return []
    }
    return t.keys(ref).map { key in
      StubEntry(name: t.string(key), key: t.node(at: key), value: t.node(at: Int(t.nodes[key].next)))
    }
  }

  /// `shared:`: a mapping of storages to mappings of keys to values.
  private mutating func shared(_ t: Tape, _ ref: Int) -> [SharedSeed] {
    let storages = SharedSeed.Storage.allCases.map(\.rawValue)
    guard t.kind(ref) == .mapping else {
      fail(
        "expected a mapping of storages (" + storages.map { "`\($0)`" }.joined(separator: ", ")
          + ") to the values they hold for `shared`, found \(t.foundDescription(ref))", t, ref)
      return []
    }
    var seeds: [SharedSeed] = []
    for storageKey in t.keys(ref) {
      let name = t.string(storageKey)
      let values = Int(t.nodes[storageKey].next)
      guard let storage = SharedSeed.Storage(rawValue: name) else {
        fail(
          "unknown storage `\(name)` in `shared`" + Suggestion.hint(for: name, in: storages) + "; `shared` seeds "
            + storages.map { "`\($0)`" }.joined(separator: ", "), t, storageKey)
        continue
      }
      guard t.kind(values) == .mapping else {
        fail(
          "expected a mapping of keys to values for `shared.\(name)` (`\(storage.example)`), found \(t.foundDescription(values))",
          t, values)
        continue
      }
      for key in t.keys(values) {
        seeds.append(
          SharedSeed(
            storage: storage, key: t.string(key), keyNode: t.node(at: key), value: t.node(at: Int(t.nodes[key].next))))
      }
    }
    return seeds
  }

  private mutating func duration(_ t: Tape, _ ref: Int, for key: String) -> Duration? {
    guard t.kind(ref) == .scalar, !t.isStringOnly(ref), let duration = DurationText.parse(t.string(ref)) else {
      fail(
        "expected a duration (`300ms`, `1.5s`, `2m`, or a number of seconds) for `\(key)`, found \(t.foundDescription(ref))",
        t, ref)
      return nil
    }
    return duration
  }

  /// `true`, or `{ strict: BOOL }`.
  private mutating func flag(_ t: Tape, _ ref: Int, for key: String) -> Bool? {
    func isPlain(_ ref: Int) -> Bool { t.kind(ref) == .scalar && t.nodes[ref].style == .plain }
    if isPlain(ref), t.scalar(ref, equals: "true") { return true }
    if t.kind(ref) == .mapping, t.nodes[ref].count == 1, let strict = t.lookup("strict", in: ref)?.value,
      isPlain(strict), t.scalar(strict, equals: "true") || t.scalar(strict, equals: "false")
    {
      return t.scalar(strict, equals: "true")
    }
    fail(
      "`\(key)` takes `true` (or `{ strict: false }` to allow nothing to skip), found \(t.foundDescription(ref))", t,
      ref)
    return nil
  }

  // MARK: - Errors

  private mutating func checkKeys(_ t: Tape, _ ref: Int, allowed: [String], in context: String) {
    var key = t.nodes[ref].first
    while key != Tape.none {
      let keyRef = Int(key)
      key = t.nodes[Int(t.nodes[keyRef].next)].next
      let name = t.string(keyRef)
      if !allowed.contains(name) {
        fail("unknown key `\(name)` in \(context)" + Suggestion.hint(for: name, in: allowed), t, keyRef)
      }
    }
  }

  private mutating func fail(_ message: String, _ t: Tape, _ ref: Int) {
    record(t.error(message, at: ref))
  }

  private mutating func fail(_ message: String, at node: YAMLNode) {
    record(YAMLError(message, at: node))
  }

  private mutating func record(_ error: YAMLError) {
    if !errors.contains(error) { errors.append(error) }
  }
}
