/// A unified diff of two texts, as `diff -u` and `git diff` print it: `--- a/PATH`,
/// `+++ b/PATH` (an absolute path without its first `/`, as `a/tmp/x.yaml`, so that
/// `patch -p1` applies it from `/`), then hunks with three lines of context.
package enum UnifiedDiff {
  package static let context = 3

  /// The diff, each line ending with `\n`; empty when the texts are the same.
  package static func diff(old: String, new: String, path: String) -> String {
    guard old != new else { return "" }
    let a = lines(old)
    let b = lines(new)
    let script = editScript(a, b)
    let relative = path.hasPrefix("/") ? String(path.dropFirst()) : path
    var out = "--- a/\(relative)\n+++ b/\(relative)\n"
    // Group the changes into hunks: changes closer than 2 × context lines share one.
    var index = 0
    while index < script.count {
      guard let firstChange = script[index...].firstIndex(where: { $0.kind != .same }) else { break }
      var last = firstChange
      var scan = firstChange
      while scan < script.count {
        if script[scan].kind != .same {
          last = scan
          scan += 1
          continue
        }
        var run = scan
        while run < script.count, script[run].kind == .same { run += 1 }
        if run == script.count || run - scan > 2 * context { break }
        scan = run
      }
      let start = max(index, firstChange - context)
      let end = min(script.count, last + context + 1)
      let hunk = script[start..<end]
      let oldStart = hunk.first!.oldLine
      let newStart = hunk.first!.newLine
      let oldCount = hunk.count { $0.kind != .insert }
      let newCount = hunk.count { $0.kind != .delete }
      out += "@@ -\(range(oldStart, oldCount)) +\(range(newStart, newCount)) @@\n"
      for op in hunk {
        switch op.kind {
        case .same: out += " " + a[op.oldLine - 1] + "\n"
        case .delete: out += "-" + a[op.oldLine - 1] + "\n"
        case .insert: out += "+" + b[op.newLine - 1] + "\n"
        }
      }
      index = end
    }
    return out
  }

  private static func range(_ start: Int, _ count: Int) -> String {
    // An empty range names the line before it, as diff does.
    count == 1 ? "\(start)" : "\(count == 0 ? start - 1 : start),\(count)"
  }

  /// The lines of a text, without their breaks (a `\r` before `\n` is dropped too).
  package static func lines(_ text: String) -> [String] {
    var result = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
    }
    if text.hasSuffix("\n") { result.removeLast() }
    return result
  }

  package struct Op {
    package enum Kind { case same, delete, insert }
    package var kind: Kind
    /// 1-based: the line in the old text (for an insertion, the old line it comes before).
    var oldLine: Int
    /// 1-based: the line in the new text (for a deletion, the new line it comes before).
    var newLine: Int
  }

  // Not the standard library's `difference(from:)`: it cannot be stopped, and its time grows
  // with the square of the edits: 7.2 s on a 16,000-line rewrite, where this stops at 2,000
  // edits in 0.03 s (Benchmarks' diff-benchmark). Its scripts, as short, also differ from these.
  /// An edit script: the lines both texts share at their start and end, and between them
  /// a shortest script by Myers' algorithm (as `git diff` finds it), which takes time and
  /// memory by the size of the change rather than of the file. Past `maxEdits` lines
  /// changed, the middle is written as deleted, then inserted, whole.
  static func editScript(_ a: [String], _ b: [String], maxEdits: Int = 2000) -> [Op] {
    var prefix = 0
    while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] {
      suffix += 1
    }
    let x = a[prefix..<(a.count - suffix)]
    let y = b[prefix..<(b.count - suffix)]
    let middle =
      shortestEdits(Array(x), Array(y), maxEdits: maxEdits)
      ?? Array(repeating: .delete, count: x.count) + Array(repeating: .insert, count: y.count)

    var ops: [Op] = (0..<prefix).map { Op(kind: .same, oldLine: $0 + 1, newLine: $0 + 1) }
    var oldLine = prefix + 1
    var newLine = prefix + 1
    for kind in middle {
      ops.append(Op(kind: kind, oldLine: oldLine, newLine: newLine))
      if kind != .insert { oldLine += 1 }
      if kind != .delete { newLine += 1 }
    }
    for k in 0..<suffix {
      ops.append(Op(kind: .same, oldLine: a.count - suffix + k + 1, newLine: b.count - suffix + k + 1))
    }
    return ops
  }

  /// Myers' greedy algorithm: the moves of a shortest path from `(0, 0)` to the end, each
  /// diagonal (`same`), right (`delete`) or down (`insert`); `nil` past `maxEdits` moves.
  private static func shortestEdits(_ x: [String], _ y: [String], maxEdits: Int) -> [Op.Kind]? {
    let n = x.count
    let m = y.count
    let total = n + m
    if total == 0 { return [] }
    // frontier[k + total]: the furthest x reached on diagonal k = x - y.
    var frontier = [Int](repeating: 0, count: 2 * total + 1)
    // trace[d][k + d]: the frontier after d edits, for k in -d...d.
    var trace: [[Int]] = []
    for d in 0...min(total, maxEdits) {
      for k in stride(from: -d, through: d, by: 2) {
        var i =
          k == -d || (k != d && frontier[k - 1 + total] < frontier[k + 1 + total])
          ? frontier[k + 1 + total] : frontier[k - 1 + total] + 1
        var j = i - k
        while i < n, j < m, x[i] == y[j] {
          i += 1
          j += 1
        }
        frontier[k + total] = i
        if i >= n, j >= m {
          trace.append(Array(frontier[(total - d)...(total + d)]))
          return backtrack(trace, n: n, m: m)
        }
      }
      trace.append(Array(frontier[(total - d)...(total + d)]))
    }
    return nil
  }

  /// The moves of the path that `trace` found, from the end back to the start.
  private static func backtrack(_ trace: [[Int]], n: Int, m: Int) -> [Op.Kind] {
    var kinds: [Op.Kind] = []
    var i = n
    var j = m
    for d in stride(from: trace.count - 1, to: 0, by: -1) {
      let previous = trace[d - 1]
      func reached(_ k: Int) -> Int { previous[k + d - 1] }
      let k = i - j
      let down = k == -d || (k != d && reached(k - 1) < reached(k + 1))
      let previousK = down ? k + 1 : k - 1
      let previousI = reached(previousK)
      let afterMove = down ? previousI : previousI + 1
      while i > afterMove {
        kinds.append(.same)
        i -= 1
        j -= 1
      }
      kinds.append(down ? .insert : .delete)
      i = previousI
      j = previousI - previousK
    }
    while i > 0 {
      kinds.append(.same)
      i -= 1
    }
    return kinds.reversed()
  }
}
