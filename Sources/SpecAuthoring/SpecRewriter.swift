import Foundation
import SpecRunner
import SpecYAML

/// A change to a file's bytes: the bytes in `range` become `text`.
package struct TextEdit: Equatable {
  package var range: Range<Int>
  package var text: String
}

/// Rewrites a spec file's text from recordings: it replaces, inserts or removes the
/// `state:` of steps, rewrites the action of a `receive:` that received another one, and
/// inserts `receive:` steps, by editing byte ranges that the parser's marks give. Every
/// other byte (comments, blank lines, key order, quoting) stays as it was.
package struct SpecRewriter {
  /// The widest line that a flow value (`state: { count: 1 }`) may make; past it, block style.
  static let flowWidth = 100

  package let source: SourceFile
  package let root: YAMLNode
  /// The file's line break: `\r\n` when the file uses it, else `\n`.
  let newline: String
  package private(set) var edits: [TextEdit] = []
  package private(set) var notes: [(location: FileLocation, message: String)] = []
  private var bytes: [UInt8] { source.bytes }

  package init(source: SourceFile, root: YAMLNode) {
    self.source = source
    self.root = root
    let crlf: [UInt8] = [0x0D, 0x0A]
    newline = source.bytes.indices.dropLast().contains { source.bytes[$0] == crlf[0] && source.bytes[$0 + 1] == crlf[1] }
      ? "\r\n" : "\n"
  }

  /// The file with the edits made.
  package var rewritten: [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var position = 0
    for edit in edits {
      out += bytes[position..<edit.range.lowerBound]
      out += Array(edit.text.utf8)
      position = edit.range.upperBound
    }
    out += bytes[position...]
    return out
  }

  private func location(_ node: YAMLNode) -> FileLocation {
    FileLocation(file: source.path, line: node.start.line, column: node.start.column)
  }

  private mutating func note(_ node: YAMLNode, _ message: String) {
    notes.append((location(node), message))
  }

  /// Applies the recordings of one scenario of the file (one per example row of an outline).
  package mutating func apply(_ recordings: [ScenarioRecording], scenario index: Int) {
    guard let first = recordings.first,
      let scenario = root["scenarios"]?.sequence.flatMap({ index < $0.count ? $0[index] : nil }),
      let stepsNode = scenario["steps"], let steps = stepsNode.sequence, steps.count == first.steps.count
    else { return }
    let isOutline = scenario["examples"] != nil
    if recordings.dropFirst().contains(where: { !$0.hasSameChanges(as: first) }) {
      note(scenario, "the example rows of this outline record different expectations; it is left as it is")
      return
    }
    for (location, message) in first.notes where !notes.contains(where: { $0.location == location }) {
      notes.append((location, message))
    }
    guard !first.isEmpty else { return }
    if isFlow(stepsNode) {
      note(stepsNode, "steps written in flow style (`[…]`) are not rewritten; this scenario is left as it is")
      return
    }
    var planned: [TextEdit] = []
    // An `advance:` that cannot be split (a flow-style step) keeps its value, and the actions
    // that arrived during it go after it.
    var insertions = first.insertions
    var splittable = Set<Int>()
    for position in steps.indices where !first.steps[position].arrivals.isEmpty {
      let step = steps[position]
      if dashPrefix(step) != nil, step["advance"]?.scalar != nil, !isFlow(step) {
        splittable.insert(position)
      } else {
        insertions[position + 1] = first.steps[position].arrivals.flatMap(\.received) + (insertions[position + 1] ?? [])
      }
    }
    for position in 0...steps.count {
      if let inserted = insertions[position], !inserted.isEmpty {
        let anchor = steps[min(position, steps.count - 1)]
        guard let prefix = dashPrefix(anchor) else {
          note(anchor, "cannot tell this step's indentation; the received actions before it are not inserted")
          continue
        }
        let lines = inserted.map { stepText($0, prefix: prefix) }
        if position == 0 {
          planned.append(insertion(at: lineStart(anchor.start.offset), lines.joined() ))
        } else {
          let at = lineEnd(contentEnd(steps[position - 1]))
          planned.append(insertion(at: at, lines.map { newline + $0.dropLast(newline.count) }.joined()))
        }
      }
      guard position < steps.count else { break }
      let step = steps[position]
      let change = first.steps[position]
      guard change != ScenarioRecording.Step() else { continue }
      if isOutline, hasPlaceholders(step) {
        note(step, "this step has <placeholders>; it is left as it is")
        continue
      }
      planned += edits(for: step, change)
      if splittable.contains(position), let total = change.advance, let prefix = dashPrefix(step), let value = step["advance"] {
        planned += split(advance: value, after: step, total: total, arrivals: change.arrivals, prefix: prefix)
      }
    }
    // In order, and stable: a step's new `state:` goes before the steps inserted after it.
    edits = (edits + planned).enumerated().sorted {
      ($0.element.range.lowerBound, $0.offset) < ($1.element.range.lowerBound, $1.offset)
    }.map(\.element)
  }

  // MARK: - One step

  private mutating func edits(for step: YAMLNode, _ change: ScenarioRecording.Step) -> [TextEdit] {
    guard let mapping = step.mapping else { return [] }
    // An alias (`*name`) has its anchor's place: rewriting it there would change every use.
    let end = contentEnd(step)
    for entry in mapping.entries where isAlias(entry.value) || contentEnd(entry.value) > end {
      note(step, "this step uses an alias (`*name`); it is left as it is")
      return []
    }
    // An anchor (`&name`) in what would be replaced: the aliases elsewhere that use it
    // would be left without it.
    let replaced = [
      change.action == nil ? nil : mapping["receive"],
      change.state == .keep ? nil : mapping["state"],
    ]
    for case let value? in replaced where definesAnchor(value, within: value.start.offset..<contentEnd(value)) {
      note(value, "this value defines an anchor (`&name`) that aliases may use; the step is left as it is")
      return []
    }
    var result: [TextEdit] = []
    let flowStep = isFlow(step)
    if let action = change.action, let value = mapping["receive"] {
      // An empty value (`receive:` then nothing, or a comment) starts right after its colon.
      // (Found by the `rewrite` fuzz target: `receive:{ … }` did not parse.)
      let range = value.start.offset..<contentEnd(value)
      let separator = range.isEmpty && range.lowerBound > 0 && bytes[range.lowerBound - 1] == UInt8(ascii: ":") ? " " : ""
      result.append(TextEdit(range: range, text: separator + YAMLEmitter.flow(action)))
    }
    let stateEntry = mapping.entries.first { $0.name == "state" }
    switch change.state {
    case .keep:
      break
    case .set(let assignments):
      if let entry = stateEntry {
        let colon = colonOffset(after: entry.key)
        let keepFlow = flowStep || isFlow(entry.value)
        let indent = keepFlow ? entry.key.start.column - 1 + 2 : entry.value.start.column - 1
        let text = stateValueText(
          assignments, keyColumn: entry.key.start.column, entryIndent: indent, flowOnly: flowStep,
          preferBlock: !keepFlow)
        result.append(TextEdit(range: colon..<contentEnd(entry.value), text: ":" + text))
      } else if let last = mapping.entries.last {
        if flowStep {
          result.append(
            insertion(at: contentEnd(last.value), ", state: " + YAMLEmitter.flow(assignments)))
        } else {
          let column = mapping.entries[0].key.start.column
          let text = stateValueText(
            assignments, keyColumn: column, entryIndent: column - 1 + 2, flowOnly: false, preferBlock: false)
          result.append(
            insertion(
              at: lineEnd(contentEnd(last.value)),
              newline + String(repeating: " ", count: column - 1) + "state:" + text))
        }
      }
    case .remove:
      guard let entry = stateEntry, let index = mapping.entries.firstIndex(where: { $0.name == "state" }) else { break }
      if index == 0 {
        guard mapping.count > 1 else { break }
        result.append(TextEdit(range: entry.key.start.offset..<mapping.entries[1].key.start.offset, text: ""))
      } else if flowStep {
        var comma = entry.key.start.offset - 1
        while comma > step.start.offset, bytes[comma] != UInt8(ascii: ",") { comma -= 1 }
        result.append(TextEdit(range: comma..<contentEnd(entry.value), text: ""))
      } else {
        var start = lineStart(entry.key.start.offset) - 1
        if start > 0, bytes[start - 1] == 0x0D { start -= 1 }
        result.append(TextEdit(range: start..<lineEnd(contentEnd(entry.value)), text: ""))
      }
    }
    return result
  }

  /// An `advance:` split where actions that no step received arrived: its value becomes
  /// the time until the first arrived, and after the step come their `receive:` steps and
  /// an `advance:` to the next time, up to the whole duration.
  private func split(
    advance value: YAMLNode, after step: YAMLNode, total: Duration, arrivals: [ScenarioRecording.Arrival], prefix: String
  ) -> [TextEdit] {
    var result = [TextEdit(range: value.start.offset..<contentEnd(value), text: DurationText.format(arrivals[0].elapsed))]
    var text = ""
    for (index, arrival) in arrivals.enumerated() {
      for received in arrival.received {
        text += newline + stepText(received, prefix: prefix).dropLast(newline.count)
      }
      let until = index + 1 < arrivals.count ? arrivals[index + 1].elapsed : total
      text += newline + prefix + "advance: " + DurationText.format(until - arrival.elapsed)
    }
    result.append(insertion(at: lineEnd(contentEnd(step)), text))
    return result
  }

  /// Whether a node, or a node inside it, starts with an anchor (`&name`) written within
  /// `range` (an alias's copy of a node has its anchor's place, elsewhere).
  private func definesAnchor(_ node: YAMLNode, within range: Range<Int>, depth: Int = 0) -> Bool {
    let offset = node.start.offset
    if range.contains(offset), offset < bytes.count, bytes[offset] == UInt8(ascii: "&") { return true }
    guard depth < 64 else { return false }
    if let mapping = node.mapping {
      return mapping.entries.contains { entry in
        definesAnchor(entry.key, within: range, depth: depth + 1) || definesAnchor(entry.value, within: range, depth: depth + 1)
      }
    }
    if let sequence = node.sequence {
      return sequence.contains { definesAnchor($0, within: range, depth: depth + 1) }
    }
    return false
  }

  /// A new `receive:` step, its lines each ending with the file's line break.
  private func stepText(_ received: ScenarioRecording.Received, prefix: String) -> String {
    let pad = String(repeating: " ", count: prefix.count)
    var text: String
    if let (path, value) = RecordedValues.actionPath(received.action) {
      // An action that nests three cases or more, as an action path in block style (a key
      // with `[id=…]` cannot be written in flow style unquoted, and a quoted key is no path).
      text = prefix + "receive:" + newline + pad + "  " + path + ":"
      let flow = YAMLEmitter.flow(value)
      if value.scalar != nil || pad.count + 2 + path.count + 2 + flow.count <= Self.flowWidth {
        text += " " + flow + newline
      } else {
        text += newline
        for line in YAMLEmitter.block(value).split(separator: "\n") where !line.isEmpty {
          text += pad + "    " + line + newline
        }
      }
    } else {
      text = prefix + "receive: " + YAMLEmitter.flow(received.action) + newline
    }
    if let state = received.state {
      text += pad + "state:"
        + stateValueText(
          state, keyColumn: prefix.count + 1, entryIndent: prefix.count + 2, flowOnly: false, preferBlock: false)
        + newline
    }
    return text
  }

  /// What follows `state:`: ` { a: 1 }`, or a line break and one assignment per line.
  func stateValueText(
    _ assignments: YAMLNode, keyColumn: Int, entryIndent: Int, flowOnly: Bool, preferBlock: Bool
  ) -> String {
    let flow = YAMLEmitter.flow(assignments)
    if flowOnly || (!preferBlock && keyColumn - 1 + "state: ".count + flow.count <= Self.flowWidth) {
      return " " + flow
    }
    let pad = String(repeating: " ", count: entryIndent)
    var lines: [String] = []
    for entry in assignments.mapping?.entries ?? [] {
      let key = YAMLEmitter.keyNeedsQuotes(entry.name) ? YAMLEmitter.doubleQuoted(entry.name) : entry.name
      let value = YAMLEmitter.flow(entry.value)
      if entry.value.scalar != nil || entryIndent + key.count + 2 + value.count <= Self.flowWidth {
        lines.append(pad + key + ": " + value)
      } else {
        lines.append(pad + key + ":")
        let block = YAMLEmitter.block(entry.value).split(separator: "\n", omittingEmptySubsequences: false)
        for line in block where !line.isEmpty { lines.append(pad + "  " + line) }
      }
    }
    return newline + lines.joined(separator: newline)
  }

  // MARK: - Places in the text

  private func insertion(at offset: Int, _ text: String) -> TextEdit {
    TextEdit(range: offset..<offset, text: text)
  }

  /// Whether a collection is written in flow style (`{…}`, `[…]`).
  private func isFlow(_ node: YAMLNode) -> Bool {
    let end = node.end.offset
    guard end > 0, end <= bytes.count, bytes[end - 1] == UInt8(ascii: "}") || bytes[end - 1] == UInt8(ascii: "]")
    else { return false }
    switch node.content {
    case .scalar: return false
    case .sequence(let elements): return elements.last.map { contentEnd($0) < end } ?? true
    case .mapping(let mapping): return mapping.entries.last.map { contentEnd($0.value) < end } ?? true
    }
  }

  /// Just past a node's last character: a block collection's end mark is where the next
  /// token starts, past comments and blank lines, so it ends with its last value instead.
  func contentEnd(_ node: YAMLNode) -> Int {
    // An alias ends where `*name` does: its children are its anchor's, elsewhere. (Found by
    // the `rewrite` fuzz target: a `receive:` inserted after a step that ends with an alias
    // went where the anchor is.)
    if isAlias(node) { return node.end.offset }
    switch node.content {
    case .scalar(let scalar):
      var end = node.end.offset
      if scalar.style == .literal || scalar.style == .folded {
        while end > node.start.offset, [0x0A, 0x0D, 0x20].contains(bytes[end - 1]) { end -= 1 }
      }
      return end
    case .sequence(let elements):
      if isFlow(node) { return node.end.offset }
      return elements.last.map(contentEnd) ?? node.end.offset
    case .mapping(let mapping):
      if isFlow(node) { return node.end.offset }
      return mapping.entries.last.map { contentEnd($0.value) } ?? node.end.offset
    }
  }

  /// Whether a node is an alias (`*name`): it starts where the alias is written, and its
  /// children are its anchor's, elsewhere in the file.
  private func isAlias(_ node: YAMLNode) -> Bool {
    node.start.offset < bytes.count && bytes[node.start.offset] == UInt8(ascii: "*")
  }

  private func lineStart(_ offset: Int) -> Int {
    var start = offset
    while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
    return start
  }

  private func lineEnd(_ offset: Int) -> Int {
    var end = offset
    while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
    return end
  }

  /// The offset of the `:` after a key.
  private func colonOffset(after key: YAMLNode) -> Int {
    var offset = key.end.offset
    while offset < bytes.count, bytes[offset] != UInt8(ascii: ":") { offset += 1 }
    return offset
  }

  /// `      - ` for a step written `      - send: …`: what a new step's first line starts with.
  private func dashPrefix(_ step: YAMLNode) -> String? {
    let start = lineStart(step.start.offset)
    let prefix = String(decoding: bytes[start..<step.start.offset], as: UTF8.self)
    let trimmed = prefix.trimmingCharacters(in: [" "])
    guard trimmed == "-" else { return nil }
    // A step with no content (`- # …`, null) starts right after its dash. (Found by the
    // `rewrite` fuzz target: `-receive:` was inserted after it.)
    return prefix.hasSuffix("-") ? prefix + " " : prefix
  }

  private func hasPlaceholders(_ step: YAMLNode) -> Bool {
    let text = String(decoding: bytes[step.start.offset..<contentEnd(step)], as: UTF8.self)
    return !Outline.placeholders(in: text).isEmpty
  }
}

extension ScenarioRecording {
  /// Whether two recordings (of two example rows) change the file alike.
  func hasSameChanges(as other: ScenarioRecording) -> Bool {
    steps == other.steps && insertions.filter { !$0.value.isEmpty } == other.insertions.filter { !$0.value.isEmpty }
  }
}
