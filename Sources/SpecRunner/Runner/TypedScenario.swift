import Clocks
import ConcurrencyExtras
import Dependencies
import Foundation
import IssueReporting
import SpecYAML

/// A scenario bound to a feature's types: what ``Feature`` builds for each scenario, and
/// what turns its steps into calls on the feature's ``SpecStore``.
@MainActor
package final class TypedScenario<Store: SpecStore>: ScenarioProgram {
  package typealias State = Store.State
  package typealias Action = Store.Action

  /// A bound step; its `state:` assignments and its timeout are in its ``StepContext``.
  package enum Step {
    case send(Action)
    case receive(Action)
    case receiveCase([String])
    case advance(Duration)
    case dependencies([StubEntry])
    case skipReceivedActions(strict: Bool)
    case skipInFlightEffects(strict: Bool)
    case finish
    /// `finish: NAME`: waits for the effects of the named `send`.
    case finishTask(String)
    /// `cancel: NAME`: cancels the effects of the named `send`.
    case cancel(String)
    /// `assert:`: its assignments are the context's `state`.
    case assert
    case emit([Emission])
    /// `close:`: the stream endpoints whose streams end.
    case close([String])
    case exhaustivity(SpecExhaustivity)
  }

  package let scenario: ScenarioSpec
  package let feature: Feature
  /// The state the scenario starts from, as bound.
  let initialState: State
  /// The feature's default state and the scenario's `initialState:` values (the file's,
  /// then its own), from which a run whose state holds shared values makes it anew.
  let defaultState: @Sendable () -> State
  let initialStateValues: [SpecValue]
  /// Whether the state holds shared values (`@Shared`), as binding it showed.
  let holdsSharedValues: Bool
  let newStore: MakeStore<Store>
  /// The steps, bound, in order; `contexts` holds the assignments of each, and the
  /// scenario's `steps` the spec of each, at the same index.
  package let steps: [Step]
  package let contexts: [StepContext]
  /// The scenario's stubs: the file's, with the scenario's over them, key by key.
  let stubEntries: [StubEntry]
  /// The scenario's `shared:` values: the file's, with the scenario's over them, key by key.
  let shared: [SharedSeed]
  let usesImmediateClock: Bool
  package let decoder: YAMLDecoder

  private init(
    scenario: ScenarioSpec, feature: Feature, initialState: State, defaultState: @escaping @Sendable () -> State,
    initialStateValues: [SpecValue], holdsSharedValues: Bool, newStore: @escaping MakeStore<Store>,
    steps: [Step], contexts: [StepContext], stubEntries: [StubEntry], shared: [SharedSeed], usesImmediateClock: Bool,
    decoder: YAMLDecoder
  ) {
    self.scenario = scenario
    self.feature = feature
    self.initialState = initialState
    self.defaultState = defaultState
    self.initialStateValues = initialStateValues
    self.holdsSharedValues = holdsSharedValues
    self.newStore = newStore
    self.steps = steps
    self.contexts = contexts
    self.stubEntries = stubEntries
    self.shared = shared
    self.usesImmediateClock = usesImmediateClock
    self.decoder = decoder
  }

  // MARK: - Binding

  /// Decodes every action and stub of a scenario against the feature's types, reporting
  /// every problem at its line and column.
  static func bind(
    spec: SpecFile, scenario: ScenarioSpec, feature: Feature, initialState: @escaping @Sendable () -> State,
    newStore: @escaping MakeStore<Store>, memo: DecodeMemo = DecodeMemo()
  ) -> BindResult {
    var decoder = YAMLDecoder.spec
    decoder.userInfo = feature.types.userInfo
    var errors: [YAMLError] = []
    func record(_ error: any Error) {
      if let error = error as? YAMLError {
        if !errors.contains(error) { errors.append(error) }
      } else {
        errors.append(YAMLError("\(error)", at: nil))
      }
    }
    func attempt<T>(_ body: () throws -> T) -> T? {
      do {
        return try body()
      } catch {
        record(error)
      }
      return nil
    }

    // The state: the feature's default, then the file's assignments, then the scenario's.
    let initialStateValues = [spec.initialState, scenario.initialState].compactMap { $0 }
    let (state, holdsSharedValues) = SharedStateScope.binding(Store.self) {
      var state = initialState()
      for value in initialStateValues {
        if let assigned = attempt({ try memo.initialState(value, to: state, decoder: decoder) }) { state = assigned }
      }
      return state
    }

    // The stubs: the file's, with the scenario's over them, key by key.
    var entries = spec.dependencies
    for entry in scenario.dependencies {
      if let index = entries.firstIndex(where: { $0.name == entry.name }) {
        entries[index] = entry
      } else {
        entries.append(entry)
      }
    }
    // The shared values: the file's, with the scenario's over them, key by key.
    var shared = spec.shared
    for seed in scenario.shared {
      if let index = shared.firstIndex(where: { $0.storage == seed.storage && $0.key == seed.key }) {
        shared[index] = seed
      } else {
        shared.append(seed)
      }
    }
    if !shared.isEmpty {
      var scratch = DependencyValues()
      scratch.context = .test
      _ = attempt { try Store.seed(shared, into: &scratch, decoder: decoder) }
    }

    var usesImmediateClock = false
    for entry in entries {
      if entry.name == BuiltInStubs.clockKey {
        if let immediate = attempt({ try clockIsImmediate(entry.value) }) { usesImmediateClock = immediate }
      } else {
        _ = attempt { try check(entry, feature: feature, decoder: decoder) }
      }
    }

    var steps: [Step] = []
    var contexts: [StepContext] = []
    steps.reserveCapacity(scenario.steps.count)
    contexts.reserveCapacity(scenario.steps.count)
    // Probed at the first `receive:` by case path: most scenarios have none.
    lazy var caseNames = Self.caseNames(userInfo: feature.types.userInfo)
    // The stubs in force at each step, for `emit:` and `close:`.
    var stubbed = Set(entries.map(\.name))
    // By index: `for spec in` would copy each step (a large struct) to read its fields.
    for index in scenario.steps.indices {
      // A copy of a value retains one object (its file's shared tape).
      var statePaths: [StatePath]?
      if let state = scenario.steps[index].state {
        do {
          statePaths = try memo.paths(of: state)
        } catch {
          record(error)
        }
      }
      var assertAssignments: [StateAssignment]?
      // Each kind appends its step when it binds (and records its errors when not): an
      // action goes straight into its step, with no `Optional` of the generic action between.
      let bound = steps.count
      switch scenario.steps[index].kind {
      case .send(let node):
        do {
          steps.append(.send(try memo.decode(Action.self, from: node, with: decoder)))
        } catch {
          record(error)
        }
      case .receive(let node):
        do {
          steps.append(.receive(try memo.decode(Action.self, from: node, with: decoder)))
        } catch {
          record(error)
        }
      case .receiveCase(let path, let node):
        if let (message, segment) = CasePathCheck.problem(
          in: path, of: Action.self, firstCases: caseNames, userInfo: feature.types.userInfo)
        {
          // At the segment: after the `.` and the segments before it.
          let characters = path[..<segment].reduce(segment == 0 ? 0 : 1) { $0 + $1.unicodeScalars.count + 1 }
          errors.append(node.error(message, characters: characters))
        } else {
          steps.append(.receiveCase(path))
        }
      case .advance(let duration):
        if usesImmediateClock {
          errors.append(
            YAMLError(
              "`advance` moves the test clock, but this scenario uses `clock: immediate`, whose sleeps end at once: "
                + "remove the step, or use the test clock", source: scenario.steps[index].source, mark: scenario.steps[index].start))
        }
        steps.append(.advance(duration))
      case .dependencies(let stepEntries):
        for entry in stepEntries {
          if entry.name == BuiltInStubs.clockKey {
            errors.append(
              YAMLError(
                "`clock` is chosen for the whole scenario: set it in the scenario's or the file's `dependencies`",
                at: entry.key))
          } else {
            _ = attempt { try check(entry, feature: feature, decoder: decoder) }
          }
        }
        steps.append(.dependencies(stepEntries.filter { $0.name != BuiltInStubs.clockKey }))
        stubbed.formUnion(stepEntries.map(\.name))
      case .skipReceivedActions(let strict):
        steps.append(.skipReceivedActions(strict: strict))
      case .skipInFlightEffects(let strict):
        steps.append(.skipInFlightEffects(strict: strict))
      case .finish:
        steps.append(.finish)
      case .finishTask(let name):
        steps.append(.finishTask(name))
      case .cancel(let name):
        steps.append(.cancel(name))
      case .assert(let node):
        assertAssignments = attempt { try memo.assignments(node) }
        if assertAssignments != nil { steps.append(.assert) }
      case .emit(let entries):
        var emissions: [Emission] = []
        for entry in entries {
          guard let stub = attempt({ try streamStub(entry.key, named: entry.name, in: feature, stubbed: stubbed, for: "emit into") }),
            let emission = stub.emission, let value = attempt({ try emission(entry.value, decoder) })
          else { continue }
          emissions.append(Emission(name: entry.name, value: value))
        }
        if emissions.count == entries.count { steps.append(.emit(emissions)) }
      case .close(let nodes):
        let names = nodes.compactMap { node -> String? in
          guard let name = node.scalar?.value,
            attempt({ try streamStub(node, named: name, in: feature, stubbed: stubbed, for: "close") }) != nil
          else { return nil }
          return name
        }
        if names.count == nodes.count { steps.append(.close(names)) }
      case .exhaustivity(let exhaustivity):
        steps.append(.exhaustivity(exhaustivity))
      }
      if steps.count > bound {
        if let statePaths, let state = scenario.steps[index].state {
          contexts.append(StepContext(state: state, statePaths: statePaths))
        } else {
          contexts.append(StepContext(state: assertAssignments))
        }
      }
    }
    guard errors.isEmpty else { return .errors(errors) }
    // A step that does not bind records an error: a program has a context for each step.
    assert(contexts.count == scenario.steps.count, "a bound scenario has a context for each step")
    return .program(
      TypedScenario(
        scenario: scenario, feature: feature, initialState: state, defaultState: initialState,
        initialStateValues: initialStateValues, holdsSharedValues: holdsSharedValues, newStore: newStore,
        steps: steps, contexts: contexts,
        stubEntries: entries.filter { $0.name != BuiltInStubs.clockKey }, shared: shared,
        usesImmediateClock: usesImmediateClock,
        decoder: decoder))
  }

  /// The names of the action's cases, for the first segment of a case path: its
  /// `CodingKeys`', or those of the shape its feature gives it.
  private static func caseNames(userInfo: [CodingUserInfoKey: any Sendable]) -> [String]? {
    guard Action.self is any FeatureDependentShape.Type else { return CodingKeyProbe.keys(of: Action.self) }
    guard case .enumeration(_, let cases) = ShapeProbe().shape(of: Action.self, userInfo: userInfo) else { return nil }
    return cases.map(\.name)
  }

  /// The stub of a stream endpoint that `emit:` or `close:` names, stubbed by the scenario.
  private static func streamStub(
    _ key: YAMLNode, named name: String, in feature: Feature, stubbed: Set<String>, for verb: String
  ) throws -> Stub {
    let streams = feature.allStubs.filter { $0.emission != nil }.map(\.name)
    guard let stub = feature.allStubs.first(where: { $0.name == name }), stub.emission != nil else {
      let known = feature.allStubs.contains { $0.name == name }
      throw YAMLError(
        (known
          ? "cannot \(verb) `\(name)`: it is not a stream (a stream endpoint returns an `AsyncStream`, is registered with `.stream(…)`, and is stubbed `{ stream: open }`)"
          : "unknown stream `\(name)` for \(feature.name)" + Suggestion.hint(for: name, in: streams))
          + (streams.isEmpty
            ? "; \(feature.name) has no stream endpoints"
            : "; the streams of \(feature.name) are " + streams.map { "`\($0)`" }.joined(separator: ", ")),
        at: key)
    }
    guard stubbed.contains(name) else {
      throw YAMLError(
        "cannot \(verb) `\(name)`: the scenario does not stub it; add `\(name): { stream: open }` to its `dependencies:`",
        at: key)
    }
    return stub
  }

  private static func clockIsImmediate(_ node: YAMLNode) throws -> Bool {
    switch node.scalar.map({ ($0.value, $0.style) }) {
    case ("test", .plain)?: return false
    case ("immediate", .plain)?: return true
    default: throw YAMLError("`clock` is `test` (the default) or `immediate`, found \(node.foundDescription)", at: node)
    }
  }

  /// Decodes a stub entry once, for its errors.
  private static func check(_ entry: StubEntry, feature: Feature, decoder: YAMLDecoder) throws {
    let stub = try stub(named: entry, in: feature)
    _ = try stub.configure(entry.value, StubContext(clock: ImmediateClock(), decoder: decoder))
  }

  package static func stub(named entry: StubEntry, in feature: Feature) throws -> Stub {
    if let stub = feature.allStubs.first(where: { $0.name == entry.name }) { return stub }
    let names = feature.allStubs.map(\.name) + [BuiltInStubs.clockKey]
    throw YAMLError(
      "unknown dependency `\(entry.name)` for \(feature.name)" + Suggestion.hint(for: entry.name, in: names)
        + "; it stubs " + names.map { "`\($0)`" }.joined(separator: ", "),
      at: entry.key)
  }

  // MARK: - Running

  /// A fresh store for one run of the scenario, on its clock, with its stubs installed
  /// (and every stub it leaves out installed as unstubbed), and the context to configure
  /// stubs that later steps bring, and the stubs configured (to check their `calls:` at the
  /// end). A stub that cannot be configured goes to `stubFailed`. With `deadlines`, the
  /// test clock's sleeps are recorded there.
  package func makeStore(
    from initialState: State, fileID: StaticString, line: UInt, column: UInt, deadlines: SleepDeadlines? = nil,
    stubFailed: (StubEntry, any Error) -> Void
  ) -> (
    store: Store, testClock: TestClock<Duration>?, context: StubContext,
    configured: [(entry: StubEntry, stub: ConfiguredStub)]
  ) {
    let clock: any Clock<Duration>
    let testClock: TestClock<Duration>?
    if usesImmediateClock {
      clock = ImmediateClock()
      testClock = nil
    } else {
      let test = TestClock()
      clock = deadlines.map { DeadlineRecordingClock(base: test, deadlines: $0) } ?? test
      testClock = test
    }
    let context = StubContext(clock: clock, decoder: decoder)
    var configured: [(entry: StubEntry, stub: ConfiguredStub)] = []
    for entry in stubEntries {
      do {
        let stub = try Self.stub(named: entry, in: feature)
        configured.append((entry, try stub.configure(entry.value, context)))
      } catch {
        stubFailed(entry, error)
      }
    }
    let stubbed = Set(stubEntries.map(\.name))
    let store = newStore(
      initialState,
      { [feature, configured] dependencies in
        dependencies.continuousClock = clock
        dependencies.suspendingClock = clock
        for stub in feature.allStubs where !stubbed.contains(stub.name) {
          stub.installUnstubbed?(&dependencies, context)
        }
        for (_, stub) in configured { stub.install(&dependencies) }
      },
      StepLocation(fileID: fileID, line: line, column: column))
    return (store, testClock, context, configured)
  }

  /// Whether the scenario's states hold shared values: its own showed it when it was bound,
  /// or another state of the type did since.
  package var statesHoldSharedValues: Bool {
    holdsSharedValues || SharedStateScope.holdsSharedValues(State.self)
  }

  /// Runs `body` with the state that one run of the scenario starts from. A state that
  /// holds shared values is made anew for the run, in storages of its own seeded with the
  /// scenario's `shared:` (``SharedStateScope``), and `body` runs in them: the store made
  /// there and the states decoded for its steps hold references into them.
  package func withStartState<R>(_ body: @MainActor (State) async -> R) async -> R {
    guard statesHoldSharedValues || !shared.isEmpty else {
      return await body(initialState)
    }
    var values = SharedStateScope.fresh(Store.self)
    if !shared.isEmpty {
      // Checked when the scenario was bound: a failure here is still reported.
      do {
        try Store.seed(shared, into: &values, decoder: decoder)
      } catch {
        reportIssue("\(error)")
      }
    }
    return await withDependencies { $0 = values } operation: {
      var state = defaultState()
      let memo = DecodeMemo()
      for value in initialStateValues {
        if let assigned = try? memo.initialState(value, to: state, decoder: decoder) { state = assigned }
      }
      return await body(state)
    }
  }

  @discardableResult
  package func run(collector: IssueCollector, onStep: (FileLocation) -> Void) async -> [String: Int] {
    await withStartState { await run(from: $0, collector: collector, onStep: onStep) }
  }

  private func run(from initialState: State, collector: IssueCollector, onStep: (FileLocation) -> Void) async
    -> [String: Int]
  {
    let location = scenario.location
    let fileID = IssueCollector.specFileID
    // Bound already, so configuring a stub cannot fail here; a failure would still be
    // reported. Actions left unreceived at the end are reported at the scenario.
    let made = makeStore(
      from: initialState, fileID: fileID, line: UInt(location.line), column: UInt(location.column)
    ) { entry, error in
      collector.record("\(error)", at: entry.key.location ?? location)
    }
    let (store, testClock, context) = (made.store, made.testClock, made.context)
    var configured = made.configured
    store.exhaustivity = scenario.exhaustivity
    collector.messages = { Store.messageForSpecs($0, sentAction: $1) }
    let check = StateCheck<State>(decoder: decoder, keepsEncodings: !statesHoldSharedValues)
    // The tasks that `as:` named, for `cancel:` and `finish:`.
    var tasks: [String: Store.SentTask] = [:]
    func expecting(_ assignments: [StateAssignment]?) -> ExpectedState<State>? {
      guard let assignments else { return nil }
      // With exhaustivity off, a store may apply the expectation to the state after the
      // action (what it checks), then, to show skipped assertions, to the state before it.
      var calls = 0
      return { [store] start, actual in
        calls += 1
        do {
          return try check.expected(start: start, actual: actual, assignments: assignments)
        } catch let error as YAMLError {
          if case .off = store.exhaustivity, calls > 1 {
            // A path that the state before the action does not have (a field of a
            // destination that the action presents): that assertion is skipped, as a
            // TCA closure's optional chain would skip it, and the store notes the
            // difference with the state before.
            throw error
          }
          // An assignment that cannot apply to this state (an index out of range, an id
          // that is not there) fails at the assignment, not at its step; the state is then
          // taken as it is, since what was expected cannot be said.
          collector.record(error.message, at: error.location ?? collector.currentStep)
          return actual
        }
      }
    }

    for index in steps.indices {
      // Fields read where needed: a copy of the whole context would copy its spec too.
      let at = scenario.steps[index].location
      collector.currentStep = at
      onStep(at)
      let location = StepLocation(fileID: fileID, line: UInt(at.line), column: UInt(at.column))
      switch steps[index] {
      case .send(let action):
        collector.sentAction = action
        let task = await store.send(action, expecting: expecting(contexts[index].state), at: location)
        collector.sentAction = nil
        if let name = scenario.steps[index].taskName { tasks[name] = task }
      case .receive(let action):
        await store.receive(
          action, timeout: scenario.steps[index].timeout, expecting: expecting(contexts[index].state), at: location)
      case .receiveCase(let path):
        await store.receive(
          matching: { Self.action($0, isIn: path[...]) }, description: "an action in the case .\(path.joined(separator: "."))",
          timeout: scenario.steps[index].timeout, expecting: expecting(contexts[index].state), at: location)
      case .advance(let duration):
        await testClock?.advance(by: duration)
      case .dependencies(let entries):
        for entry in entries {
          do {
            let stub = try Self.stub(named: entry, in: feature)
            let configuredStub = try stub.configure(entry.value, context)
            configuredStub.install(&store.dependencies)
            configured.append((entry, configuredStub))
          } catch {
            collector.record("\(error)", at: at)
          }
        }
      case .skipReceivedActions(let strict):
        await store.skipReceivedActions(strict: strict, at: location)
      case .skipInFlightEffects(let strict):
        await store.skipInFlightEffects(strict: strict, at: location)
      case .finish:
        await store.finish(timeout: scenario.steps[index].timeout, at: location)
      case .finishTask(let name):
        await tasks[name]?.finish(timeout: scenario.steps[index].timeout, at: location)
      case .cancel(let name):
        await tasks[name]?.cancel()
      case .assert:
        let assignments = contexts[index].state ?? []
        store.assert(
          { [store] state in
            do {
              state = try check.expected(start: state, actual: store.state, assignments: assignments)
            } catch let error as YAMLError {
              collector.record(error.message, at: error.location ?? at)
              state = store.state
            }
          }, at: location)
      case .emit, .close:
        performStreamStep(steps[index], configured: configured)
        await Task.megaYield()
      case .exhaustivity(let exhaustivity):
        store.exhaustivity = exhaustivity
      }
    }
    // The end of the scenario: actions left unreceived, effects still running.
    collector.currentStep = location
    await store.completed()
    var uses: [String: Int] = [:]
    for (entry, stub) in configured {
      for failure in stub.finish() {
        collector.record(failure.message, at: failure.node.location ?? entry.key.location ?? location)
      }
      // A stub that a step stubs again counts the uses of both.
      if let count = stub.uses?() { uses[entry.name, default: 0] += count }
    }
    return uses
  }

  /// `emit:` and `close:`: yields into (or finishes) the open streams of the stubs the step
  /// names, as configured last.
  package func performStreamStep(_ step: Step, configured: [(entry: StubEntry, stub: ConfiguredStub)]) {
    switch step {
    case .emit(let emissions):
      for emission in emissions {
        configured.last(where: { $0.entry.name == emission.name })?.stub.emit?(emission.value)
      }
    case .close(let names):
      for name in names { configured.last(where: { $0.entry.name == name })?.stub.close?() }
    default:
      break
    }
  }

  /// Whether an action is in the case a case path names, whatever its payload:
  /// `.fetchRepositoriesResponse.success`.
  package static func action(_ action: Action, isIn path: ArraySlice<String>) -> Bool {
    guard let node = try? YAMLEncoder().encode(action) else { return false }
    return node.isInCase(path)
  }
}

extension YAMLNode {
  /// Whether an encoded enum value is in the case that a path of case names gives.
  func isInCase(_ path: ArraySlice<String>) -> Bool {
    guard let name = path.first else { return true }
    switch content {
    case .scalar(let scalar):
      return path.count == 1 && scalar.value == name
    case .mapping(let mapping):
      guard mapping.count == 1, let entry = mapping.entries.first, entry.name == name else { return false }
      return entry.value.isInCase(path.dropFirst())
    case .sequence:
      return false
    }
  }
}

/// A value for `emit:`, decoded for its stream endpoint.
package struct Emission: @unchecked Sendable {
  package var name: String
  package var value: any Sendable
}

/// What a bound step needs besides its action and its spec (its location, its timeout: the
/// step of the same index in the scenario's `steps`): its `state:` assignments. Not nested
/// in the generic ``TypedScenario``, so not generic itself; without a copy of the spec, so
/// that binding and dropping a step retains and releases its fields once, not twice.
package struct StepContext {
  /// The step's `state:` mapping, as its file's tape holds it.
  private let stateValue: SpecValue?
  /// The step's assignments, built when it was bound (`assert:`'s).
  private let built: [StateAssignment]?
  /// The paths of the keys of the step's `state:` (kept on its file's tape), parsed when the
  /// step was bound: the assignments' nodes are built when the step runs, so that checking a
  /// file (which binds every step and runs none) builds none.
  ///
  /// Two optionals rather than one enum of the two: an enum of two arrays keeps its case in
  /// the spare bits of the array's pointer, which LeakSanitizer then does not recognise, and
  /// reports the array as leaked when a process exits with the step still alive.
  private let statePaths: [StatePath]?

  init(state: [StateAssignment]?) {
    stateValue = nil
    built = state
    statePaths = nil
  }

  /// A step whose `state:` has these paths.
  init(state: SpecValue, statePaths: [StatePath]) {
    stateValue = state
    built = nil
    self.statePaths = statePaths
  }

  /// The step's assignments (`state:`, or `assert:`'s), in the order of the file.
  package var state: [StateAssignment]? {
    if let built { return built }
    guard let statePaths, let state = stateValue else { return nil }
    return StateAssignment.onTape(state, paths: statePaths)
  }
}

