/// Picks the closest of a list of names to a misspelt one, for "did you mean" hints.
package enum Suggestion {
  /// The candidate nearest to `name`, if it is near enough to be a likely typo.
  static func closest(to name: String, in candidates: some Sequence<String>) -> String? {
    let target = Array(name.lowercased().unicodeScalars)
    var best: (name: String, distance: Int)?
    for candidate in candidates where candidate != name {
      let lowered = Array(candidate.lowercased().unicodeScalars)
      let distance = editDistance(target, lowered)
      let allowed = max(1, min(3, max(target.count, lowered.count) / 3))
      guard distance <= allowed else { continue }
      if best == nil || distance < best!.distance { best = (candidate, distance) }
    }
    return best?.name
  }

  /// `; did you mean `x`?` or nothing.
  package static func hint(for name: String, in candidates: some Sequence<String>) -> String {
    closest(to: name, in: candidates).map { "; did you mean `\($0)`?" } ?? ""
  }

  /// Edits (insertions, deletions, substitutions, swaps of neighbours) that turn `a` into `b`.
  static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previousPrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          value = min(value, previousPrevious[j - 2] + 1)
        }
        current[j] = value
      }
      (previousPrevious, previous, current) = (previous, current, previousPrevious)
    }
    return previous[b.count]
  }
}
