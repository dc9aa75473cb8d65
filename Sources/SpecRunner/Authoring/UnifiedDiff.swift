/// A unified diff of two texts, as `diff -u` and `git diff` print it: `--- a/PATH`,
/// `+++ b/PATH` (an absolute path without its first `/`, as `a/tmp/x.yaml`, so that
/// `patch -p1` applies it from `/`), then hunks with three lines of context.
enum UnifiedDiff {
  static let context = 3

  /// The diff, each line ending with `\n`; empty when the texts are the same.
  static func diff(old: String, new: String, path: String) -> String {
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
  static func lines(_ text: String) -> [String] {
    var result = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
    }
    if text.hasSuffix("\n") { result.removeLast() }
    return result
  }

  struct Op {
    enum Kind { case same, delete, insert }
    var kind: Kind
    /// 1-based: the line in the old text (for an insertion, the old line it comes before).
    var oldLine: Int
    /// 1-based: the line in the new text (for a deletion, the new line it comes before).
    var newLine: Int
  }

  /// A shortest edit script by the longest common subsequence (spec files are small).
  static func editScript(_ a: [String], _ b: [String]) -> [Op] {
    var prefix = 0
    while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] {
      suffix += 1
    }
    let x = Array(a[prefix..<(a.count - suffix)])
    let y = Array(b[prefix..<(b.count - suffix)])
    // lcs[i][j]: the LCS length of x[i...] and y[j...].
    var lcs = Array(repeating: Array(repeating: 0, count: y.count + 1), count: x.count + 1)
    for i in stride(from: x.count - 1, through: 0, by: -1) {
      for j in stride(from: y.count - 1, through: 0, by: -1) {
        lcs[i][j] = x[i] == y[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
      }
    }
    var ops: [Op] = (0..<prefix).map { Op(kind: .same, oldLine: $0 + 1, newLine: $0 + 1) }
    var i = 0
    var j = 0
    while i < x.count || j < y.count {
      if i < x.count, j < y.count, x[i] == y[j] {
        ops.append(Op(kind: .same, oldLine: prefix + i + 1, newLine: prefix + j + 1))
        i += 1
        j += 1
      } else if i < x.count, j == y.count || lcs[i + 1][j] >= lcs[i][j + 1] {
        ops.append(Op(kind: .delete, oldLine: prefix + i + 1, newLine: prefix + j + 1))
        i += 1
      } else {
        ops.append(Op(kind: .insert, oldLine: prefix + i + 1, newLine: prefix + j + 1))
        j += 1
      }
    }
    for k in 0..<suffix {
      ops.append(Op(kind: .same, oldLine: a.count - suffix + k + 1, newLine: b.count - suffix + k + 1))
    }
    return ops
  }
}
