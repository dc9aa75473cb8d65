import SpecYAML

/// What a scenario exercises of its feature, as written: the actions its steps send and
/// receive, the state its `state:` and `assert:` steps check, and the stubs it names. What
/// `reducer-spec coverage` counts; nothing here runs.
package struct ScenarioBehaviour: Sendable {
  /// The actions of `send:` steps, with their action paths expanded
  /// (`todos[id=0].toggle` is `{ todos: { element: { id: 0, action: toggle } } }`).
  package var sent: [YAMLNode] = []
  /// The actions of `receive: ACTION` steps, expanded the same way.
  package var received: [YAMLNode] = []
  /// The case paths of `receive: .case.path` steps (`["response", "success"]`).
  package var receivedCasePaths: [[String]] = []
  /// The assignments (`path: value` mappings) of `state:` and `assert:` steps. An
  /// `initialState:` assigns, and is not here.
  package var assertions: [YAMLNode] = []
  /// The stubs named under the scenario's `dependencies:` and its `dependencies:` steps.
  package var stubbed: [String] = []
}

extension ScenarioSpec {
  /// What the scenario exercises of its feature.
  package var behaviour: ScenarioBehaviour {
    var behaviour = ScenarioBehaviour()
    behaviour.stubbed = dependencies.map(\.name)
    for step in steps {
      if let state = step.state { behaviour.assertions.append(state.node) }
      switch step.kind {
      case .send(let value):
        behaviour.sent.append((try? ActionPath.expand(value.node)) ?? value.node)
      case .receive(let value):
        behaviour.received.append((try? ActionPath.expand(value.node)) ?? value.node)
      case .receiveCase(let path, _):
        behaviour.receivedCasePaths.append(path)
      case .assert(let node):
        behaviour.assertions.append(node)
      case .dependencies(let stubs):
        behaviour.stubbed += stubs.map(\.name)
      case .advance, .skipReceivedActions, .skipInFlightEffects, .finish, .finishTask, .cancel, .emit, .close,
        .exhaustivity:
        break
      }
    }
    return behaviour
  }
}
