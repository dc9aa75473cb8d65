import Foundation
import TestSupport
import Testing
@testable import SpecAuthoring
@testable import SpecRunner

/// The text rewriting of `reducer-spec record`: recordings made by hand, applied to spec
/// texts; every byte that no recording changes stays.
@Suite struct SpecRewriterTests {
  func rewrite(_ text: String, _ recordings: [Int: ScenarioRecording]) throws -> (text: String, notes: [String]) {
    let bytes = Array(text.utf8)
    let root = try YAMLParser().parse(bytes: bytes, path: "spec.yaml")
    var rewriter = SpecRewriter(source: root.source!, root: root)
    for index in recordings.keys.sorted() { rewriter.apply([recordings[index]!], scenario: index) }
    return (String(decoding: rewriter.rewritten, as: UTF8.self), rewriter.notes.map { "\($0.location): \($0.message)" })
  }

  func node(_ text: String) throws -> YAMLNode {
    var node = try YAMLParser.parse(text, path: "value.yaml")
    node.strip()
    return node
  }

  func recording(_ steps: [ScenarioRecording.Step], insertions: [Int: [ScenarioRecording.Received]] = [:])
    -> ScenarioRecording
  {
    ScenarioRecording(steps: steps, insertions: insertions)
  }

  @Test func replacesAFlowStateAndKeepsTheCommentAfterIt() throws {
    let text = """
      feature: Tally
      scenarios:
        - name: Up
          steps:
            - send: increment
              state: { count: 2 }   # a guess
            - send: increment  # two

      """
    let result = try rewrite(text, [0: recording([.init(state: .set(node("{ count: 1 }"))), .init()])])
    #expect(
      result.text == """
        feature: Tally
        scenarios:
          - name: Up
            steps:
              - send: increment
                state: { count: 1 }   # a guess
              - send: increment  # two

        """)
    #expect(result.notes.isEmpty)
  }

  @Test func replacesABlockStateInBlockStyle() throws {
    let text = """
      scenarios:
        - name: Up
          steps:
            - send: increment
              state:
                count: 2
                # what else?
                query: x   # wrong
            # next
            - send: increment

      """
    let result = try rewrite(
      text, [0: recording([.init(state: .set(node("{ count: 1, isLoading: true }"))), .init()])])
    #expect(
      result.text == """
        scenarios:
          - name: Up
            steps:
              - send: increment
                state:
                  count: 1
                  isLoading: true   # wrong
              # next
              - send: increment

        """)
  }

  @Test func insertsAStateAfterTheStepsLastLine() throws {
    let text = """
      scenarios:
          - name: Up
            steps:
                - send: increment   # once
                  note: first
                - send: increment
      """
    let result = try rewrite(
      text,
      [0: recording([.init(state: .set(node("{ count: 1 }"))), .init(state: .set(node("{ count: 2 }")))])])
    #expect(
      result.text == """
        scenarios:
            - name: Up
              steps:
                  - send: increment   # once
                    note: first
                    state: { count: 1 }
                  - send: increment
                    state: { count: 2 }
        """)
  }

  @Test func insertsReceiveStepsWithTheFilesIndentation() throws {
    let text = """
      scenarios:
          - name: Search
            steps:
                -   send: { search: swift }
                    state: { query: swift, isLoading: true }
                # Then the answer.
                -   send: increment
      """
    let received = ScenarioRecording.Received(
      action: try node("{ response: { success: [a] } }"), state: try node("{ isLoading: false, results: [a] }"))
    let logged = ScenarioRecording.Received(action: try node("logged"), state: nil)
    let result = try rewrite(
      text, [0: recording([.init(), .init()], insertions: [1: [received], 2: [logged]])])
    #expect(
      result.text == """
        scenarios:
            - name: Search
              steps:
                  -   send: { search: swift }
                      state: { query: swift, isLoading: true }
                  -   receive: { response: { success: [a] } }
                      state: { isLoading: false, results: [a] }
                  # Then the answer.
                  -   send: increment
                  -   receive: logged
        """)
  }

  @Test func removesAStateThatChangesNothing() throws {
    let text = """
      scenarios:
        - name: A
          steps:
            - send: decrement
              state: { count: 0 }   # nothing
              note: kept
            - { send: increment, state: { count: 3 }, note: flow }
            - state: { count: 9 }
              send: increment

      """
    let result = try rewrite(
      text, [0: recording([.init(state: .remove), .init(state: .remove), .init(state: .remove)])])
    #expect(
      result.text == """
        scenarios:
          - name: A
            steps:
              - send: decrement
                note: kept
              - { send: increment, note: flow }
              - send: increment

        """)
  }

  @Test func rewritesTheActionOfAReceive() throws {
    let text = """
      scenarios:
        - name: A
          steps:
            - receive: .response.failure   # hoped
              state: { isLoading: false }

      """
    let result = try rewrite(text, [0: recording([.init(action: try node("{ response: { success: [] } }"))])])
    #expect(
      result.text == """
        scenarios:
          - name: A
            steps:
              - receive: { response: { success: [] } }   # hoped
                state: { isLoading: false }

        """)
  }

  @Test func keepsCRLFLineBreaks() throws {
    let text = "scenarios:\r\n  - name: A\r\n    steps:\r\n      - send: increment\r\n"
    let result = try rewrite(
      text,
      [0: recording([.init(state: .set(node("{ count: 1 }")))], insertions: [1: [.init(action: try node("logged"))]])])
    #expect(
      result.text
        == "scenarios:\r\n  - name: A\r\n    steps:\r\n      - send: increment\r\n        state: { count: 1 }\r\n      - receive: logged\r\n")
  }

  @Test func leavesOutlineStepsWithPlaceholdersAlone() throws {
    let text = """
      scenarios:
        - name: Set <text>
          examples:
            - { text: "7" }
          steps:
            - send: { setCount: <text> }
              state: { count: 0 }

      """
    let result = try rewrite(text, [0: recording([.init(state: .set(node("{ count: 7 }")))])])
    #expect(result.text == text)
    #expect(result.notes == ["spec.yaml:6:9: this step has <placeholders>; it is left as it is"])
  }

  @Test func writesLongStatesInBlockStyle() throws {
    let text = """
      scenarios:
        - name: A
          steps:
            - send: load

      """
    let long = try node(
      "{ results: [alpha, beta, gamma, delta, epsilon, zeta, eta, theta, iota, kappa, lambda, mu, nu, xi], isLoading: false }")
    let result = try rewrite(text, [0: recording([.init(state: .set(long))])])
    #expect(
      result.text == """
        scenarios:
          - name: A
            steps:
              - send: load
                state:
                  results:
                    - alpha
                    - beta
                    - gamma
                    - delta
                    - epsilon
                    - zeta
                    - eta
                    - theta
                    - iota
                    - kappa
                    - lambda
                    - mu
                    - nu
                    - xi
                  isLoading: false

        """)
  }

  @Test func anAbsolutePathIsNamedWithoutItsFirstSlash() {
    #expect(UnifiedDiff.diff(old: "a\n", new: "b\n", path: "/tmp/specs/x.yaml").hasPrefix(
      "--- a/tmp/specs/x.yaml\n+++ b/tmp/specs/x.yaml\n@@ -1 +1 @@\n"))
  }

  @Test func diffsLikeDiffU() {
    let old = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n"
    let new = "a\nb\nc\nd\nE\nf\ng\nh\ni\nj\nk\n"
    #expect(
      UnifiedDiff.diff(old: old, new: new, path: "x.yaml") == """
        --- a/x.yaml
        +++ b/x.yaml
        @@ -2,9 +2,10 @@
         b
         c
         d
        -e
        +E
         f
         g
         h
         i
         j
        +k

        """)
    #expect(UnifiedDiff.diff(old: old, new: old, path: "x.yaml") == "")
  }

  /// The old lines the script keeps or deletes, and the new ones it keeps or inserts.
  static func replay(_ script: [UnifiedDiff.Op], _ a: [String], _ b: [String]) -> (old: [String], new: [String]) {
    var old: [String] = []
    var new: [String] = []
    for op in script {
      switch op.kind {
      case .same:
        #expect(a[op.oldLine - 1] == b[op.newLine - 1])
        old.append(a[op.oldLine - 1])
        new.append(b[op.newLine - 1])
      case .delete: old.append(a[op.oldLine - 1])
      case .insert: new.append(b[op.newLine - 1])
      }
    }
    return (old, new)
  }

  /// The length of a longest common subsequence, the slow way.
  static func commonLength(_ a: [String], _ b: [String]) -> Int {
    var row = [Int](repeating: 0, count: b.count + 1)
    for i in a.indices.reversed() {
      var next = row
      for j in b.indices.reversed() {
        next[j] = a[i] == b[j] ? row[j + 1] + 1 : max(row[j], next[j + 1])
      }
      row = next
    }
    return row[0]
  }

  @Test func theEditScriptIsAShortestOne() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<300 {
      let a = (0..<Int.random(in: 0...12, using: &generator)).map { _ in ["a", "b", "c"].randomElement()! }
      let b = (0..<Int.random(in: 0...12, using: &generator)).map { _ in ["a", "b", "c"].randomElement()! }
      let script = UnifiedDiff.editScript(a, b)
      let replayed = Self.replay(script, a, b)
      #expect(replayed.old == a && replayed.new == b, "\(a) → \(b)")
      let edits = script.count { $0.kind != .same }
      #expect(edits == a.count + b.count - 2 * Self.commonLength(a, b), "\(a) → \(b)")
    }
  }

  @Test func aLargeFileWithChangesFarApartIsDiffedByItsChanges() {
    // 40,000 lines: a table of every pair of lines would not fit in memory.
    let a = (0..<40_000).map { "line \($0)" }
    var b = a
    b[3] = "changed"
    b.insert("new", at: 39_000)
    let script = UnifiedDiff.editScript(a, b)
    #expect(script.count { $0.kind == .delete } == 1)
    #expect(script.count { $0.kind == .insert } == 2)
    let replayed = Self.replay(script, a, b)
    #expect(replayed.old == a && replayed.new == b)
  }

  @Test func pastTheLimitTheMiddleIsReplacedWhole() {
    let a = ["same", "x1", "y", "x2", "end"]
    let b = ["same", "z1", "y", "z2", "end"]
    let script = UnifiedDiff.editScript(a, b, maxEdits: 2)
    #expect(script.map(\.kind) == [.same, .delete, .delete, .delete, .insert, .insert, .insert, .same])
    let replayed = Self.replay(script, a, b)
    #expect(replayed.old == a && replayed.new == b)
    #expect(UnifiedDiff.editScript(a, b).map(\.kind) == [.same, .delete, .insert, .same, .delete, .insert, .same])
  }
}

extension YAMLNode {
  /// The node without its places in a file, as an encoder makes it.
  mutating func strip() {
    start = .none
    end = .none
    source = nil
    switch content {
    case .scalar: break
    case .sequence(var elements):
      for index in elements.indices { elements[index].strip() }
      content = .sequence(elements)
    case .mapping(let mapping):
      var stripped = Mapping()
      for entry in mapping.entries {
        var key = entry.key
        var value = entry.value
        key.strip()
        value.strip()
        stripped.set(key: key, value: value)
      }
      content = .mapping(stripped)
    }
  }
}

extension SpecRewriterTests {
  @Test func leavesAStepWithAnAliasAlone() throws {
    let text = """
      initialState: &one { count: 1 }
      scenarios:
        - name: A
          steps:
            - send: increment
              state: *one

      """
    let result = try rewrite(text, [0: recording([.init(state: .set(node("{ count: 2 }")))])])
    #expect(result.text == text)
    #expect(result.notes == ["spec.yaml:5:9: this step uses an alias (`*name`); it is left as it is"])
  }

  /// Found by the `rewrite` fuzz target on specs/repository-search.yaml: replacing (or
  /// removing) a `state:` that defines an anchor left the later `*alert` without it.
  @Test func leavesAStepThatDefinesAnAnchorAlone() throws {
    let text = """
      scenarios:
        - name: A
          steps:
            - send: increment
              state: { alert: &alert { title: Oops }, count: 1 }
            - receive: { response: &answer { success: 1 } }
            - send: increment
              state: { alert: *alert }
            - receive: *answer

      """
    for change in [ScenarioRecording.StateChange.set(try node("{ count: 2 }")), .remove] {
      let result = try rewrite(text, [0: recording([.init(state: change), .init(action: try node("other")), .init(), .init()])])
      #expect(result.text == text)
      #expect(result.notes == [
        "spec.yaml:5:16: this value defines an anchor (`&name`) that aliases may use; the step is left as it is",
        "spec.yaml:6:18: this value defines an anchor (`&name`) that aliases may use; the step is left as it is",
      ])
    }
    // A value that only uses an alias is rewritten: the anchor stays where it is.
    let uses = try rewrite(text, [0: recording([.init(), .init(), .init(state: .set(try node("{ count: 2 }"))), .init()])])
    #expect(uses.text.contains("state: { count: 2 }"))
    #expect(uses.notes.isEmpty)
  }

  /// Found by the `rewrite` fuzz target on specs/weather-search.yaml: a `receive:` inserted
  /// after a step that ends with an alias went where the alias's anchor is.
  @Test func insertsAfterAStepThatEndsWithAnAlias() throws {
    let text = """
      dependencies:
        weatherClient.weather: { returns: &london { id: 1 } }
      scenarios:
        - name: A
          steps:
            - send: tap
              state:
                weather: *london
            # The next tap.
            - send: tap
            - send: tap
              state:
                list:
                  - *london

      """
    let received = [ScenarioRecording.Received(action: try node("loaded"))]
    let result = try rewrite(text, [0: recording([.init(), .init(), .init()], insertions: [1: received, 3: received])])
    #expect(result.notes.isEmpty)
    #expect(result.text == """
      dependencies:
        weatherClient.weather: { returns: &london { id: 1 } }
      scenarios:
        - name: A
          steps:
            - send: tap
              state:
                weather: *london
            - receive: loaded
            # The next tap.
            - send: tap
            - send: tap
              state:
                list:
                  - *london
            - receive: loaded

      """)
  }

  /// Found by the `rewrite` fuzz target: a step with no content (`- # …`) starts right
  /// after its dash, and a step inserted before it began `-receive:`.
  @Test func insertsBeforeAStepWithNoContent() throws {
    let text = """
      scenarios:
        - name: A
          steps:
            - # nothing yet

      """
    let received = [ScenarioRecording.Received(action: try node("loaded"))]
    let result = try rewrite(text, [0: recording([.init()], insertions: [0: received])])
    #expect(result.text == """
      scenarios:
        - name: A
          steps:
            - receive: loaded
            - # nothing yet

      """)
  }

  /// Found by the `rewrite` fuzz target: an empty `receive:` (a comment after it) starts
  /// right after its colon, and its new action was written `receive:{ … }`.
  @Test func rewritesAnEmptyReceive() throws {
    let text = """
      scenarios:
        - name: A
          steps:
            - receive: # what arrives?

      """
    let result = try rewrite(text, [0: recording([.init(action: try node("{ response: 42 }"))])])
    #expect(result.text.contains("- receive: { response: 42 }"))
    #expect(try YAMLParser.parse(result.text)["scenarios"] != nil)
  }
}
