import SpecAuthoring
import SpecRunner
import SpecYAML

/// The `rewrite` target: reads the input as YAML, rewrites every scenario it has with
/// changes chosen from the input's own bytes (what `reducer-spec record` could write: a new
/// `state:`, none, another received action, `receive:` steps inserted), and checks that the
/// rewritten text parses and keeps every comment line that is not inside a replaced value.
@MainActor
enum FuzzRewrite {
  /// Values that the changes write: plain, nested, and ones that need quoting.
  static let values: [YAMLNode] = ([
    "{ count: 1 }",
    "{ 'todos[id=0].title': 'a: b', isLoading: false }",
    "{ text: '# not a comment', list: [1, 2, { id: 3 }] }",
    "{ 'quoted key': \"line\\nbreak\", empty: '', nothing: null }",
    "{ deep: { a: { b: { c: [x, y] } } } }",
  ] as [String]).map { try! YAMLParser.parse($0) }

  static let actions: [YAMLNode] = ([
    "increment",
    "{ response: { success: 42 } }",
    "{ todos: { element: { id: 0, action: { binding: { title: 'x #y' } } } } }",
    "{ destination: { presented: { alert: confirm } } }",
  ] as [String]).map { try! YAMLParser.parse($0) }

  static func check(_ bytes: [UInt8]) -> [String] {
    guard let root = try? YAMLParser().parse(bytes: bytes, path: FuzzTarget.path),
      let scenarios = root["scenarios"]?.sequence, let source = root.source
    else { return [] }
    // The changes: a small generator seeded by the input.
    var seed = bytes.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
    func next(_ bound: Int) -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((seed >> 33) % UInt64(max(bound, 1)))
    }
    var rewriter = SpecRewriter(source: source, root: root)
    for (index, scenario) in scenarios.enumerated() {
      guard let steps = scenario["steps"]?.sequence else { continue }
      var recording = ScenarioRecording(steps: steps.map { _ in
        switch next(4) {
        case 0: ScenarioRecording.Step(state: .set(values[next(values.count)]))
        case 1: ScenarioRecording.Step(state: .remove)
        case 2: ScenarioRecording.Step(action: actions[next(actions.count)])
        default: ScenarioRecording.Step()
        }
      })
      if next(3) == 0 {
        let state: YAMLNode? = next(2) == 0 ? values[next(values.count)] : nil
        recording.insertions[next(steps.count + 1)] = [
          ScenarioRecording.Received(action: actions[next(actions.count)], state: state)
        ]
      }
      rewriter.apply([recording], scenario: index)
    }
    let rewritten = rewriter.rewritten
    var violations: [String] = []
    do {
      _ = try YAMLParser().parse(bytes: rewritten, path: FuzzTarget.path)
    } catch {
      violations.append(
        "the rewritten text does not parse: \(error)\n--- rewritten ---\n\(String(decoding: rewritten, as: UTF8.self))")
    }
    // Every comment line outside the replaced ranges is still there, in order.
    let replaced = rewriter.edits.map(\.range).filter { !$0.isEmpty }
    var remaining = String(decoding: rewritten, as: UTF8.self)[...]
    for (start, line) in lines(bytes) where isComment(line) {
      let end = start + line.count
      guard !replaced.contains(where: { $0.overlaps(start..<end) }) else { continue }
      let text = String(decoding: line, as: UTF8.self)
      guard let found = remaining.range(of: text) else {
        violations.append("the comment line `\(text)` is gone")
        break
      }
      remaining = remaining[found.upperBound...]
    }
    return violations
  }

  /// The lines of `bytes`, each with the offset where it starts, without line breaks.
  static func lines(_ bytes: [UInt8]) -> [(start: Int, line: ArraySlice<UInt8>)] {
    var result: [(Int, ArraySlice<UInt8>)] = []
    var start = 0
    for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
      var end = index
      if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
      result.append((start, bytes[start..<end]))
      start = index + 1
    }
    if start < bytes.count { result.append((start, bytes[start...])) }
    return result
  }

  /// A line whose first character other than a space or a tab is `#`.
  static func isComment(_ line: ArraySlice<UInt8>) -> Bool {
    line.first { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") } == UInt8(ascii: "#")
  }
}
