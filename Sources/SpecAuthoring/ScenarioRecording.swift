import Clocks
import Dependencies
import Foundation
import IssueReporting
import SpecRunner
import SpecYAML

/// What one run of a scenario in record mode found: for each step, what its text should
/// say instead (if anything), and the `receive:` steps to insert.
package struct ScenarioRecording {
  /// What a `send:` or `receive:` step's `state:` should become.
  package enum StateChange: Equatable {
    /// The step's `state:` (or its absence) says what happened.
    case keep
    /// The step should say these assignments (a mapping, in order).
    case set(YAMLNode)
    /// Nothing changed: the step should have no `state:`.
    case remove

    package static func == (lhs: Self, rhs: Self) -> Bool {
      switch (lhs, rhs) {
      case (.keep, .keep), (.remove, .remove): true
      case (.set(let a), .set(let b)): a.hasSameContent(as: b)
      default: false
      }
    }
  }

  /// A `receive:` step to write: an action that no step received.
  package struct Received: Equatable {
    package var action: YAMLNode
    /// The assignments of its `state:`, or `nil` when it changed nothing.
    package var state: YAMLNode?

    package init(action: YAMLNode, state: YAMLNode? = nil) {
      self.action = action
      self.state = state
    }

    package static func == (lhs: Self, rhs: Self) -> Bool {
      guard lhs.action.hasSameContent(as: rhs.action) else { return false }
      switch (lhs.state, rhs.state) {
      case (nil, nil): return true
      case (let a?, let b?): return a.hasSameContent(as: b)
      default: return false
      }
    }
  }

  /// Actions that arrived during an `advance:`, before its end, at one time.
  package struct Arrival: Equatable {
    /// How far into the advance they arrived.
    package var elapsed: Duration
    package var received: [Received]

    package init(elapsed: Duration, received: [Received]) {
      self.elapsed = elapsed
      self.received = received
    }
  }

  /// What to change in one step of the file.
  package struct Step: Equatable {
    package var state: StateChange = .keep
    /// For a `receive:` that received another action: the action it received.
    package var action: YAMLNode?
    /// For an `advance:`, the actions that arrived before its end and that no step
    /// received, by time: the advance is split where they arrived (`advance: 300ms`, their
    /// `receive:` steps, `advance: 700ms`).
    package var arrivals: [Arrival] = []
    /// For an `advance:` with ``arrivals``: how far it advances.
    package var advance: Duration?

    package init(state: StateChange = .keep, action: YAMLNode? = nil, arrivals: [Arrival] = [], advance: Duration? = nil) {
      self.state = state
      self.action = action
      self.arrivals = arrivals
      self.advance = arrivals.isEmpty ? nil : advance
    }

    package static func == (lhs: Self, rhs: Self) -> Bool {
      guard lhs.state == rhs.state, lhs.arrivals == rhs.arrivals, lhs.arrivals.isEmpty || lhs.advance == rhs.advance
      else { return false }
      switch (lhs.action, rhs.action) {
      case (nil, nil): return true
      case (let a?, let b?): return a.hasSameContent(as: b)
      default: return false
      }
    }
  }

  /// One entry per step of the scenario, in order.
  package var steps: [Step]
  /// `insertions[p]`: the steps to insert before step `p` (`p == steps.count`: after the last).
  package var insertions: [Int: [Received]] = [:]
  /// Steps that the recording could not settle, with why: they are left as they are.
  package var notes: [(location: FileLocation, message: String)] = []

  package init(steps: [Step], insertions: [Int: [Received]] = [:]) {
    self.steps = steps
    self.insertions = insertions
  }

  package var isEmpty: Bool {
    insertions.values.allSatisfy(\.isEmpty) && steps.allSatisfy { $0 == Step() }
  }
}

/// A bound scenario that can run in record mode.
@MainActor
package protocol RecordableScenario: AnyObject {
  /// `onStep` is called with each step's place before the step runs.
  func record(onStep: (FileLocation) -> Void) async -> ScenarioRecording
}

extension TypedScenario: RecordableScenario {
  /// Runs the scenario as ``run(collector:onStep:)`` does, but takes whatever happens as
  /// right: each `send:` and `receive:` step's state changes, the actions that effects
  /// sent and that no step received, and the action that a `receive:` really got. No
  /// failure is reported: the store's issues go to a collector that is thrown away.
  package func record(onStep: (FileLocation) -> Void) async -> ScenarioRecording {
    let collector = IssueCollector(file: scenario.location.file, source: nil, start: scenario.location)
    var recording = ScenarioRecording(steps: Array(repeating: ScenarioRecording.Step(), count: steps.count))
    await withIssueReporters([collector]) {
      await withStartState { initialState in
        await record(from: initialState, into: &recording, collector: collector, onStep: onStep)
      }
    }
    return recording
  }

  private func record(
    from initialState: State, into recording: inout ScenarioRecording, collector: IssueCollector,
    onStep: (FileLocation) -> Void
  ) async {
    // Stubs were checked when the file was bound; one that fails here is left out.
    let deadlines = SleepDeadlines()
    let made = makeStore(
      from: initialState, fileID: #fileID, line: #line, column: #column, deadlines: deadlines, stubFailed: { _, _ in })
    let (store, testClock, context) = (made.store, made.testClock, made.context)
    var configured = made.configured
    var tasks: [String: Store.SentTask] = [:]
    let here = StepLocation(fileID: #fileID, line: #line, column: #column)
    let encoder = YAMLEncoder()
    let decoder = self.decoder

    /// What a step's `state:` should say, given the states around it.
    func change(_ assignments: [StateAssignment]?, before: State, after: State) -> ScenarioRecording.StateChange {
      if let assignments {
        if let beforeNode = try? encoder.encode(before),
          let assigned = try? StateAssignment.apply(assignments, to: beforeNode)
        {
          if let afterNode = try? encoder.encode(after), assigned.hasSameContent(as: afterNode), before != after {
            return .keep
          }
          if let expected = try? decoder.decode(State.self, from: assigned), expected == after, before != after {
            return .keep
          }
        }
        return before == after ? .remove : changes(before: before, after: after).map { .set($0) } ?? .keep
      }
      return before == after ? .keep : changes(before: before, after: after).map { .set($0) } ?? .keep
    }

    /// What a step's `state:` should say, from the encodings of the states around it alone:
    /// for a state that holds shared values, which is never decoded here.
    func change(_ assignments: [StateAssignment]?, before: YAMLNode, after: YAMLNode) -> ScenarioRecording.StateChange {
      let unchanged = before.hasSameContent(as: after)
      if let assignments {
        if let assigned = try? StateAssignment.apply(assignments, to: before), assigned.hasSameContent(as: after) {
          return unchanged ? .remove : .keep
        }
        return unchanged ? .remove : fieldChanges(before: before, after: after).map { .set($0) } ?? .keep
      }
      return unchanged ? .keep : fieldChanges(before: before, after: after).map { .set($0) } ?? .keep
    }

    /// The fields that only read their key (`@SharedReader`): their values follow the keys',
    /// and a step's `state:` leaves them out.
    let readers = Set(Store.sharedFields(of: store.state).filter(\.readsOnly).map(\.name))

    /// Each top-level field that changed from `before` to `after`, whole, with UUIDs as
    /// integers; `self:` when the state is not a mapping.
    func fieldChanges(before: YAMLNode, after: YAMLNode) -> YAMLNode? {
      guard let old = before.mapping, let new = after.mapping else { return .mapping([("self", after)]) }
      var pairs: [(String, YAMLNode)] = []
      for entry in new.entries where !readers.contains(entry.name) {
        if let previous = old[entry.name], previous.hasSameContent(as: entry.value) { continue }
        pairs.append((entry.name, entry.value))
      }
      for entry in old.entries where new[entry.name] == nil {
        pairs.append((entry.name, .null))
      }
      return pairs.isEmpty ? nil : RecordedValues.integerUUIDs(.mapping(pairs))
    }

    /// The assignments that take `before` to `after`: each top-level field that changed,
    /// whole; `self:` when the state is not a mapping or the fields do not say it.
    func changes(before: State, after: State) -> YAMLNode? {
      guard let beforeNode = try? encoder.encode(before), let afterNode = try? encoder.encode(after) else {
        return nil
      }
      if let old = beforeNode.mapping, let new = afterNode.mapping {
        var pairs: [(String, YAMLNode)] = []
        for entry in new.entries {
          if let previous = old[entry.name], previous.hasSameContent(as: entry.value) { continue }
          pairs.append((entry.name, entry.value))
        }
        for entry in old.entries where new[entry.name] == nil {
          pairs.append((entry.name, .null))
        }
        let node = YAMLNode.mapping(pairs)
        func says(_ node: YAMLNode) -> Bool {
          guard let assignments = try? StateAssignment.parse(node),
            let assigned = try? StateAssignment.apply(assignments, to: beforeNode),
            let expected = try? decoder.decode(State.self, from: assigned)
          else { return false }
          return expected == after
        }
        if !pairs.isEmpty, says(node) {
          // UUIDs as integers (`id: 0`) where that reads back the same.
          let short = RecordedValues.integerUUIDs(node)
          return says(short) ? short : node
        }
      }
      return .mapping([("self", afterNode)])
    }

    /// An action as YAML, with UUIDs as integers where that reads back the same.
    func written(_ action: Action) -> YAMLNode? {
      guard let node = try? encoder.encode(action) else { return nil }
      let short = RecordedValues.integerUUIDs(node)
      if let decoded = try? decoder.decode(Action.self, from: short), decoded == action { return short }
      return node
    }

    /// For a state that holds shared values, the encodings of a received action's states as
    /// its `receive:` is checked: the shared values as they were before the changes no step
    /// has asserted yet (which are then taken as asserted), and as they are now.
    func sharedNodes(_ item: (action: Action, before: State, after: State)) -> (before: YAMLNode, after: YAMLNode)? {
      guard statesHoldSharedValues, let after = try? encoder.encode(item.after),
        let before = store.readingSharedValuesBeforeUnassertedChanges({ try? encoder.encode(item.before) })
      else { return nil }
      return (before, after)
    }

    func received(_ item: (action: Action, before: State, after: State)) -> ScenarioRecording.Received? {
      guard let action = written(item.action) else { return nil }
      let state =
        if let nodes = sharedNodes(item) {
          fieldChanges(before: nodes.before, after: nodes.after)
        } else {
          item.before == item.after ? nil : changes(before: item.before, after: item.after)
        }
      return ScenarioRecording.Received(action: action, state: state)
    }

    // Actions are numbered in the order they arrived: `removed` were taken off the queue.
    var removed = 0
    func remove(_ count: Int) {
      let taken = min(count, store.receivedActions.count)
      store.removeReceivedActions(taken)
      removed += taken
    }
    /// The number of the action that arrives next.
    func arrivals() -> Int { removed + store.receivedActions.count }
    /// By number, the actions that arrived during an `advance:` (its step), before its end.
    var arrivedDuring: [Int: (step: Int, elapsed: Duration)] = [:]
    /// By `advance:` step, the number of the first action that arrived after it began.
    var firstArrival: [Int: Int] = [:]

    /// Writes the first `count` actions of the queue as steps before step `index`, where
    /// they arrived: after an `advance:` step, those that arrived during it go into it (the
    /// advance is split), and those that arrived before it go before it.
    func insert(first count: Int, before index: Int) {
      let queue = store.receivedActions
      for position in 0..<min(count, queue.count) {
        guard let step = received(queue[position]) else { continue }
        let number = removed + position
        if index > 0, case .advance = steps[index - 1], let first = firstArrival[index - 1] {
          if let during = arrivedDuring[number], during.step == index - 1 {
            if let last = recording.steps[index - 1].arrivals.last, last.elapsed == during.elapsed {
              recording.steps[index - 1].arrivals[recording.steps[index - 1].arrivals.count - 1].received.append(step)
            } else {
              recording.steps[index - 1].arrivals.append(.init(elapsed: during.elapsed, received: [step]))
            }
            continue
          }
          if number < first {
            recording.insertions[index - 1, default: []].append(step)
            continue
          }
        }
        recording.insertions[index, default: []].append(step)
      }
    }

    /// Takes the actions received and not yet asserted: they become steps before step `index`.
    func takeUnreceived(before index: Int) {
      let count = store.receivedActions.count
      guard count > 0 else { return }
      insert(first: count, before: index)
      remove(count)
    }

    func receive(
      at index: Int, matching isMatching: (Action) -> Bool, assignments: [StateAssignment]?, timeout: Duration?
    ) async {
      await store.waitForReceivedActions(timeout: timeout)
      let queue = store.receivedActions
      guard !queue.isEmpty else {
        recording.notes.append(
          (scenario.steps[index].location, "nothing was received for this step; it is left as it is"))
        return
      }
      // A loop, not `firstIndex(where:)`: a closure around `isMatching` is isolated to the
      // main actor, and an optimized build rejects sending the parameter into it.
      var firstMatch: Int?
      for position in queue.indices where isMatching(queue[position].action) {
        firstMatch = position
        break
      }
      let taken: Int
      if let match = firstMatch {
        insert(first: match, before: index)
        taken = match
      } else {
        taken = 0
        recording.steps[index].action = written(queue[0].action)
      }
      remove(taken + 1)
      if let nodes = sharedNodes(queue[taken]) {
        recording.steps[index].state = change(assignments, before: nodes.before, after: nodes.after)
      } else {
        recording.steps[index].state = change(assignments, before: queue[taken].before, after: queue[taken].after)
      }
    }

    for index in steps.indices {
      collector.currentStep = scenario.steps[index].location
      onStep(scenario.steps[index].location)
      let assignments = contexts[index].state
      let timeout = scenario.steps[index].timeout
      switch steps[index] {
      case .send(let action):
        await store.waitForEffectsBeforeRecordedSend(timeout: nil)
        takeUnreceived(before: index)
        let before = store.state
        var after = before
        // A state holding shared values is read as the step's check reads it, and encoded,
        // never decoded (decoding would write through its keys): the state before the step
        // with the shared values it had then, and the state after it with their values now.
        var nodes: (before: YAMLNode, after: YAMLNode)?
        let holdsSharedValues = statesHoldSharedValues
        let task = await store.send(
          action,
          expecting: { _, actual in
            after = actual
            if holdsSharedValues, let beforeNode = try? encoder.encode(before),
              let afterNode = store.readingCurrentSharedValues({ try? encoder.encode(actual) })
            {
              nodes = (beforeNode, afterNode)
            }
            return actual
          }, at: here)
        if let nodes {
          recording.steps[index].state = change(assignments, before: nodes.before, after: nodes.after)
        } else {
          recording.steps[index].state = change(assignments, before: before, after: after)
        }
        if let name = scenario.steps[index].taskName { tasks[name] = task }
      case .receive(let action):
        await receive(at: index, matching: { $0 == action }, assignments: assignments, timeout: timeout)
      case .receiveCase(let path):
        await receive(
          at: index, matching: { Self.action($0, isIn: path[...]) }, assignments: assignments, timeout: timeout)
      case .advance(let duration):
        guard let testClock else { break }
        // From one sleep's deadline to the next, to see when each action arrived.
        firstArrival[index] = arrivals()
        let start = testClock.now
        let end = start.advanced(by: duration)
        while let next = deadlines.next(after: testClock.now, upTo: end), next < end {
          let before = arrivals()
          await testClock.advance(to: next)
          await store.waitForReceivedActions(timeout: .zero)
          for number in before..<arrivals() { arrivedDuring[number] = (index, start.duration(to: next)) }
        }
        await testClock.advance(to: end)
        recording.steps[index].advance = duration
      case .dependencies(let entries):
        for entry in entries {
          if let stub = try? Self.stub(named: entry, in: feature), let ready = try? stub.configure(entry.value, context) {
            ready.install(&store.dependencies)
            configured.append((entry, ready))
          }
        }
      case .skipReceivedActions(let strict):
        let before = store.receivedActions.count
        await store.skipReceivedActions(strict: strict, at: here)
        removed += before - store.receivedActions.count
      case .skipInFlightEffects(let strict):
        await store.skipInFlightEffects(strict: strict, at: here)
      case .finish:
        await store.finish(timeout: timeout, at: here)
      case .finishTask(let name):
        await tasks[name]?.finish(timeout: timeout, at: here)
      case .cancel(let name):
        await tasks[name]?.cancel()
      case .emit, .close:
        performStreamStep(steps[index], configured: configured)
        for _ in 0..<20 { await Task.yield() }
      case .assert, .exhaustivity:
        break
      }
    }
    takeUnreceived(before: steps.count)
    await store.completed()
  }
}
