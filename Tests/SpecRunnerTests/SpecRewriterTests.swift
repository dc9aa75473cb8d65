import Foundation
import Testing
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
}
