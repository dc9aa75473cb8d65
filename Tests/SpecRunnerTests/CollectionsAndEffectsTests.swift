import Foundation
import SpecFixtures
import TestSupport
import Testing
@testable import SpecRunner

/// `[id=ID]` in state paths, action paths in `send:` and `receive:`, and the steps for
/// long-living effects: `as:`, `cancel:`, `finish: NAME`, `assert:`, `emit:`, `close:` and
/// `exhaustivity:` as a step.
@Suite struct IdentifiedPathTests {
  /// The flow form of an encoded state with the assignments of `text` applied.
  func applied(_ text: String, to state: String) throws -> String {
    let node = try YAMLParser.parse(state, path: "state.yaml")
    let assignments = try StateAssignment.parse(try YAMLParser.parse(text, path: "spec.yaml"))
    return YAMLEmitter.flow(try StateAssignment.apply(assignments, to: node))
  }

  func failure(_ text: String, on state: String) -> String {
    do {
      return "no error: \(try applied(text, to: state))"
    } catch {
      return "\(error)"
    }
  }

  static let todos = """
    todos:
      - { id: 00000000-0000-0000-0000-000000000000, title: Milk, isComplete: false }
      - { id: 00000000-0000-0000-0000-000000000001, title: Eggs, isComplete: false }
    """

  @Test func parsesIdSegments() throws {
    #expect(
      try StatePath(parsing: "todos[id=0].isComplete").components == [.field("todos"), .id("0"), .field("isComplete")])
    #expect(try StatePath(parsing: "path[id=\"a b\"]").components == [.field("path"), .id("a b")])
    #expect(try StatePath(parsing: "todos[id=0]").prefix(2) == "todos[id=0]")
    #expect(try StatePath(parsing: "todos[id=0].title").offsets == [0, 5, 12])
  }

  @Test func badIdSegmentsSayWhatIsWrong() {
    func failure(_ text: String) -> String {
      do {
        _ = try StatePath(parsing: text)
        return "no error"
      } catch {
        return "\(error.offset): \(error.message)"
      }
    }
    #expect(failure("todos[id=]") == "9: invalid state path `todos[id=]`: expected an id after `[id=`, such as `[id=0]`")
    #expect(failure("todos[id=0") == "10: invalid state path `todos[id=0`: expected `]` after the id")
    #expect(failure("todos[id=\"0]") == "9: invalid state path `todos[id=\"0]`: the id's quote is not closed")
  }

  @Test func anIntegerIdIsTheUUIDOfThatNumber() throws {
    #expect(
      try applied("todos[id=1].isComplete: true", to: Self.todos)
        == "{ todos: [{ id: 00000000-0000-0000-0000-000000000000, title: Milk, isComplete: false }, "
        + "{ id: 00000000-0000-0000-0000-000000000001, title: Eggs, isComplete: true }] }")
    #expect(
      try applied("todos[id=00000000-0000-0000-0000-000000000000].title: Oat milk", to: Self.todos)
        .contains("title: Oat milk"))
    #expect(UUID.fromInteger("10")?.uuidString == "00000000-0000-0000-0000-00000000000A")
    #expect(UUID.fromInteger("-1") == nil)
  }

  @Test func aWholeElementIsReplaced() throws {
    #expect(
      try applied("todos[id=0]: { id: 0, title: Bread, isComplete: true }", to: Self.todos)
        == "{ todos: [{ id: 0, title: Bread, isComplete: true }, "
        + "{ id: 00000000-0000-0000-0000-000000000001, title: Eggs, isComplete: false }] }")
  }

  @Test func aPathThroughAMissingIdNamesTheIdsThereAre() {
    #expect(
      failure("todos[id=3].isComplete: true", on: Self.todos)
        == "spec.yaml:1:6: error: cannot set `todos[id=3].isComplete`: `todos` has no element with id 3; its ids are 0, 1")
    #expect(
      failure("todos[id=3]: { id: 3, title: Jam }", on: Self.todos)
        == "spec.yaml:1:6: error: cannot set `todos[id=3]`: `todos` has no element with id 3; its ids are 0, 1 "
        + "(to add an element, assign the whole `todos`)")
    #expect(
      failure("todos[id=3].title: Jam", on: "todos: []")
        == "spec.yaml:1:6: error: cannot set `todos[id=3].title`: `todos` has no element with id 3: it is empty")
    #expect(
      failure("title[id=3].x: 1", on: "title: Jam")
        == "spec.yaml:1:6: error: cannot set `title[id=3].x`: `title` is the string \"Jam\", not a list of identified elements")
    #expect(
      failure("todos[id=abc].x: 1", on: Self.todos)
        == "spec.yaml:1:6: error: cannot set `todos[id=abc].x`: `todos` has no element with id abc; its ids are "
        + "00000000-0000-0000-0000-000000000000, 00000000-0000-0000-0000-000000000001")
  }

  static let stack = """
    path:
      - { id: 0, state: { contact: { name: Blob } } }
      - { id: 1, state: { contact: { name: Blob Jr } } }
    """

  @Test func aStackOfPairsGoesOnInsideTheState() throws {
    #expect(
      try applied("path[id=1].contact.name: Blob Sr", to: Self.stack)
        == "{ path: [{ id: 0, state: { contact: { name: Blob } } }, { id: 1, state: { contact: { name: Blob Sr } } }] }")
    #expect(
      try applied("path[id=0]: { detail: { name: Blob } }", to: Self.stack)
        .hasPrefix("{ path: [{ id: 0, state: { detail: { name: Blob } } }, "))
  }

  @Test func assigningAtANewIdOfAStackAppendsIt() throws {
    #expect(
      try applied("path[id=2]: { contact: { name: Blob III } }", to: Self.stack)
        .hasSuffix("{ id: 2, state: { contact: { name: Blob III } } }] }"))
    #expect(try applied("path[id=0]: { contact: { name: Blob } }", to: "path: []") == "{ path: [{ id: 0, state: { contact: { name: Blob } } }] }")
    #expect(
      failure("path[id=5].contact.name: Blob", on: Self.stack)
        == "spec.yaml:1:5: error: cannot set `path[id=5].contact.name`: `path` has no element with id 5; its ids are 0, 1")
  }
}

@Suite struct ActionPathTests {
  func expanded(_ text: String) throws -> String {
    let node = try YAMLParser.parse(text, path: "spec.yaml")
    return YAMLEmitter.flow(try ActionPath.expand(node))
  }

  @Test func pathKeysAreTheNestedActions() throws {
    #expect(
      try expanded("todos[id=0].binding.isComplete: true")
        == "{ todos: { element: { id: 0, action: { binding: { isComplete: true } } } } }")
    #expect(try expanded("path[id=1]: { contact: save }") == "{ path: { element: { id: 1, action: { contact: save } } } }")
    #expect(
      try expanded("destination.presented.addContact.saveButtonTapped")
        == "{ destination: { presented: { addContact: saveButtonTapped } } }")
    #expect(
      try expanded("destination.presented.addContact.setName: Blob")
        == "{ destination: { presented: { addContact: { setName: Blob } } } }")
    #expect(
      try expanded("todos[id=0]: { rename.title: Milk }")
        == "{ todos: { element: { id: 0, action: { rename: { title: Milk } } } } }")
  }

  @Test func otherActionsAreLeftAlone() throws {
    #expect(try expanded("increment") == "increment")
    #expect(try expanded("{ setCount: \"1.5\" }") == "{ setCount: \"1.5\" }")
    let quoted = try ActionPath.expand(try YAMLParser.parse("{ \"a.b\": 1 }", path: "spec.yaml"))
    #expect(quoted.mapping?.entries.map(\.name) == ["a.b"])
    #expect(try expanded("1.5") == "1.5")
  }

  @Test func badPathsAreLocatedErrors() {
    func failure(_ text: String) -> String {
      do {
        return "no error: \(try expanded(text))"
      } catch {
        return "\(error)"
      }
    }
    #expect(
      failure("todos[0].toggle: true")
        == "spec.yaml:1:6: error: invalid action path `todos[0].toggle`: an action path is case names separated by dots, with `[id=ID]` for an element")
    #expect(failure("todos[id=].toggle: true") == "spec.yaml:1:10: error: invalid action path `todos[id=].toggle`: expected an id after `[id=`, such as `[id=0]`")
    #expect(failure("path.list[id=1]") == "spec.yaml:1:10: error: `path.list[id=1]` needs an action for the element: write `path.list[id=1]: ACTION`")
  }
}

@MainActor @Suite struct CollectionsAndEffectsEngineTests {
  func failures(_ result: ScenarioResult, in file: String) -> [String] {
    result.failures.map {
      "\($0.location)".replacingOccurrences(of: file, with: "spec.yaml") + ": " + $0.message
    }
  }

  func errors(_ loaded: LoadedFile) -> [String] {
    loaded.errors.map { $0.description.replacingOccurrences(of: loaded.file, with: "spec.yaml") }
  }

  let features = [tallyFeature, checklistFeature]

  @Test func theStepsRunAsTheirTestStoreCalls() async throws {
    let run = try await runSpec(
      """
      feature: Checklist
      dependencies:
        uuid: incrementing
        screen.screenshots: { stream: open }
        screen.messages: { stream: open }
      scenarios:
        - name: items
          steps:
            - send: { add: Milk }
              state: { items: [{ id: 0, title: Milk, isDone: false }] }
            - send:
                items[id=0].toggle:
              state:
                items[id=0].isDone: true
            - assert:
                items[id=0].title: Milk
        - name: streams
          steps:
            - send: onAppear
              as: screen
            - emit: { screen.messages: hi, screen.screenshots: null }
            - receive: { messageReceived: hi }
              state: { messages: [hi] }
            - receive: screenshotTaken
              state: { screenshots: 1 }
            - cancel: screen
        - name: a wrong assert
          steps:
            - send: { add: Milk }
              state: { items: [{ id: 0, title: Milk, isDone: false }] }
            - assert:
                items[id=0].isDone: true
        - name: timers
          exhaustivity: off
          steps:
            - send: startTimer
              as: timer
            - advance: 1s
            - skipReceivedActions: true
            - assert: { seconds: 1 }
            - exhaustivity: on
            - cancel: timer
        - name: a task left running
          steps:
            - send: startTimer
              as: timer
            - send: stopTimer
            - send: startTimer
      """, features: features)
    #expect(run.loaded.errors.isEmpty)
    #expect(run.results.map(\.outcome) == [.passed, .passed, .failed, .passed, .failed])
    #expect(failures(run.results[2], in: run.file)[0].hasPrefix("spec.yaml:31:9: A state change does not match expectation."))
    #expect(failures(run.results[4], in: run.file).count == 1)
    #expect(
      failures(run.results[4], in: run.file)[0].hasPrefix(
        "spec.yaml:48:9: An effect returned for this action is still running."))
  }

  @Test func everyMisuseIsALocatedError() async throws {
    let run = try await runSpec(
      """
      feature: Tally
      dependencies:
        searchClient.search: { returns: [] }
      scenarios:
        - name: misuses
          exhaustivity: sometimes
          steps:
            - send: increment
              as: [a]
            - receive: increment
              as: b
            - cancel: c
            - finish: false
            - emit: { searchClient.search: [a] }
            - emit: []
            - close: { a: 1 }
            - exhaustivity: { off: { showSkipped: true } }
            - send: { search: swift }
              as: search
            - finish: serch
            - assert: count
            - send: increment
              sate: { count: 1 }
      """, features: features)
    #expect(
      errors(run.loaded) == [
        "spec.yaml:6:19: error: `exhaustivity` is `on`, `off` or `{ off: { showSkippedAssertions: true } }`, found the string \"sometimes\"",
        "spec.yaml:9:13: error: expected a name for `as` (a word, such as `timer`, that `as:` gives a `send`), found a sequence",
        "spec.yaml:11:9: error: `as` goes with `send` (it names the effects the send starts), not with `receive`",
        "spec.yaml:12:17: error: `cancel: c` names no task: no earlier `send` has `as: c`",
        "spec.yaml:13:17: error: `finish` takes `true` (every effect) or the name that `as:` gave a `send` (write `finish: true`, with `timeout:` beside it if needed), found the string \"false\"",
        "spec.yaml:14:17: error: cannot emit into `searchClient.search`: it is not a stream (a stream endpoint returns an `AsyncStream`, is registered with `.stream(…)`, and is stubbed `{ stream: open }`); Tally has no stream endpoints",
        "spec.yaml:15:15: error: `emit` takes a mapping of stream endpoints to the values they yield (`emit: { ENDPOINT: VALUE }`), found a sequence",
        "spec.yaml:16:16: error: `close` takes the name of a stream endpoint (or a list of them), found a mapping",
        "spec.yaml:17:23: error: `exhaustivity` is `on`, `off` or `{ off: { showSkippedAssertions: true } }`, found a mapping",
        "spec.yaml:20:17: error: `finish: serch` names no task: no earlier `send` has `as: serch`; did you mean `search`?",
        "spec.yaml:21:17: error: expected a mapping of state assignments (`field: value`) for `assert`, found the string \"count\"",
        "spec.yaml:23:9: error: unknown key `sate` in a step; did you mean `state`?",
      ])
  }

  @Test func streamStepsNameStreamsThatTheScenarioStubs() async throws {
    let run = try await runSpec(
      """
      feature: Checklist
      scenarios:
        - name: streams
          dependencies:
            screen.messages: { stream: open }
          steps:
            - emit: { screen.screenshots: null }
            - emit: { screen.mesages: hi }
            - emit: { screen.messages: [hi] }
            - close: uuid
            - dependencies:
                screen.screenshots: { stream: opened }
        - name: not a stream
          dependencies:
            screen.messages: { returns: [] }
          steps:
            - send: onAppear
      """, features: features)
    #expect(
      errors(run.loaded) == [
        "spec.yaml:7:17: error: cannot emit into `screen.screenshots`: the scenario does not stub it; add `screen.screenshots: { stream: open }` to its `dependencies:`",
        "spec.yaml:8:17: error: unknown stream `screen.mesages` for Checklist; did you mean `screen.messages`?; the streams of Checklist are `screen.screenshots`, `screen.messages`",
        "spec.yaml:9:34: error: expected String for `screen.messages`, found a sequence",
        "spec.yaml:10:16: error: cannot close `uuid`: it is not a stream (a stream endpoint returns an `AsyncStream`, is registered with `.stream(…)`, and is stubbed `{ stream: open }`); the streams of Checklist are `screen.screenshots`, `screen.messages`",
        "spec.yaml:12:31: error: `screen.screenshots` returns a stream: stub it `{ stream: open }`, found a mapping",
        "spec.yaml:15:26: error: unknown key `returns` in the stub of `screen.messages`; a stream is stubbed `{ stream: open }`",
      ])
  }

  @Test func receiveTakesActionPathsToo() async throws {
    let run = try await runSpec(
      """
      feature: Tally
      dependencies:
        searchClient.search: { returns: [a] }
        searchClient.log: { returns: null }
      scenarios:
        - name: a dotted path with a payload
          steps:
            - send: { search: swift }
              state: { query: swift, isLoading: true }
            - receive:
                response.success: [a]
              state: { isLoading: false, results: [a] }
            - receive: logged
        - name: a wrong payload
          steps:
            - send: { search: swift }
              state: { query: swift, isLoading: true }
            - receive:
                response.success: [b]
              state: { isLoading: false, results: [a] }
            - receive: logged
      """)
    #expect(run.loaded.errors.isEmpty)
    #expect(run.results.map(\.outcome) == [.passed, .failed])
    #expect(failures(run.results[1], in: run.file)[0].hasPrefix("spec.yaml:18:9: Received unexpected action:"))
  }

  @Test func actionPathsDecodeWithErrorsAtTheirSegments() async throws {
    let run = try await runSpec(
      """
      feature: Checklist
      scenarios:
        - name: paths
          steps:
            - send:
                items[id=0].toggel:
            - send:
                itms[id=0].toggle:
      """, features: features)
    #expect(
      errors(run.loaded) == [
        "spec.yaml:6:23: error: unknown case `toggel` for Checklist.Action.items.element.action; did you mean `toggle`?",
        "spec.yaml:8:11: error: unknown case `itms` for Checklist.Action; did you mean `items`?",
      ])
  }
}
