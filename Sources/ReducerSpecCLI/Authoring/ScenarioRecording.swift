import Clocks
import Dependencies
import Foundation
import IssueReporting
import ReducerCore
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

  /// What to change in one step of the file.
  package struct Step: Equatable {
    package var state: StateChange = .keep
    /// For a `receive:` that received another action: the action it received.
    package var action: YAMLNode?

    package init(state: StateChange = .keep, action: YAMLNode? = nil) {
      self.state = state
      self.action = action
    }

    package static func == (lhs: Self, rhs: Self) -> Bool {
      guard lhs.state == rhs.state else { return false }
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
  var notes: [(location: FileLocation, message: String)] = []

  package init(steps: [Step], insertions: [Int: [Received]] = [:]) {
    self.steps = steps
    self.insertions = insertions
  }

  var isEmpty: Bool {
    insertions.values.allSatisfy(\.isEmpty) && steps.allSatisfy { $0 == Step() }
  }
}

/// A bound scenario that can run in record mode.
@MainActor
protocol RecordableScenario: AnyObject {
  /// `onStep` is called with each step's place before the step runs.
  func record(onStep: (FileLocation) -> Void) async -> ScenarioRecording
}

extension TypedScenario: RecordableScenario {
  /// Runs the scenario as ``run(collector:onStep:)`` does, but takes whatever happens as
  /// right: each `send:` and `receive:` step's state changes, the actions that effects
  /// sent and that no step received, and the action that a `receive:` really got. No
  /// failure is reported: the store's issues go to a collector that is thrown away.
  func record(onStep: (FileLocation) -> Void) async -> ScenarioRecording {
    let collector = IssueCollector(file: scenario.location.file, source: nil, start: scenario.location)
    var recording = ScenarioRecording(steps: Array(repeating: ScenarioRecording.Step(), count: steps.count))
    await withIssueReporters([collector]) {
      await record(into: &recording, collector: collector, onStep: onStep)
    }
    return recording
  }

  private func record(
    into recording: inout ScenarioRecording, collector: IssueCollector, onStep: (FileLocation) -> Void
  ) async {
    // Stubs were checked when the file was bound; one that fails here is left out.
    let made = makeStore(fileID: #fileID, line: #line, column: #column, stubFailed: { _, _ in })
    let (store, testClock, context) = (made.store, made.testClock, made.context)
    var configured = made.configured
    var tasks: [String: TestStoreTask] = [:]
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

    func received(_ item: (action: Action, before: State, after: State)) -> ScenarioRecording.Received? {
      guard let action = written(item.action) else { return nil }
      let state = item.before == item.after ? nil : changes(before: item.before, after: item.after)
      return ScenarioRecording.Received(action: action, state: state)
    }

    /// Takes the actions received and not yet asserted: they become steps before step `index`.
    func takeUnreceived(before index: Int) {
      let queue = store.receivedActions
      guard !queue.isEmpty else { return }
      recording.insertions[index, default: []] += queue.compactMap(received)
      store.removeReceivedActions(queue.count)
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
      if let match = queue.firstIndex(where: { isMatching($0.action) }) {
        recording.insertions[index, default: []] += queue[..<match].compactMap(received)
        store.removeReceivedActions(match + 1)
        recording.steps[index].state = change(assignments, before: queue[match].before, after: queue[match].after)
      } else {
        store.removeReceivedActions(1)
        recording.steps[index].action = written(queue[0].action)
        recording.steps[index].state = change(assignments, before: queue[0].before, after: queue[0].after)
      }
    }

    for index in steps.indices {
      collector.currentStep = scenario.steps[index].location
      onStep(scenario.steps[index].location)
      let assignments = contexts[index].state
      let timeout = scenario.steps[index].timeout
      switch steps[index] {
      case .send(let action):
        takeUnreceived(before: index)
        let before = store.state
        var after = before
        let task = await store.send(
          action,
          expectation: StateExpectation { _, actual in
            after = actual
            return actual
          })
        recording.steps[index].state = change(assignments, before: before, after: after)
        if let name = scenario.steps[index].taskName { tasks[name] = task }
      case .receive(let action):
        await receive(at: index, matching: { $0 == action }, assignments: assignments, timeout: timeout)
      case .receiveCase(let path):
        await receive(
          at: index, matching: { Self.action($0, isIn: path[...]) }, assignments: assignments, timeout: timeout)
      case .advance(let duration):
        await testClock?.advance(by: duration)
      case .dependencies(let entries):
        for entry in entries {
          if let stub = try? Self.stub(named: entry, in: feature), let ready = try? stub.configure(entry.value, context) {
            ready.install(&store.dependencies)
            configured.append((entry, ready))
          }
        }
      case .skipReceivedActions(let strict):
        await store.skipReceivedActions(strict: strict)
      case .skipInFlightEffects(let strict):
        await store.skipInFlightEffects(strict: strict)
      case .finish:
        await store.finish(timeout: timeout)
      case .finishTask(let name):
        await tasks[name]?.finish(timeout: timeout)
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
    store.completed()
  }
}
