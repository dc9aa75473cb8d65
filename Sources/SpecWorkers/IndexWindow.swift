/// Values by a run's indices (of its scenarios, of its files), which are added about in
/// order and taken out about in order: an array from the lowest index held, so that a look
/// hashes nothing.
///
/// It holds a slot for every index between the lowest and the highest it holds, so it is
/// for indices that are taken out near the order they came in; its holes at the front are
/// dropped as they grow.
package struct IndexWindow<Value> {
  /// The index of `values[0]`.
  private var base = 0
  private var values: [Value?] = []
  /// Which slots hold a value: looking at a slot of `values` copies what it holds.
  private var holds: [Bool] = []
  /// How many slots at the front are empty.
  private var front = 0
  /// How many values are held.
  package private(set) var count = 0

  package var isEmpty: Bool { count == 0 }

  /// How many slots it has, held or empty (for its tests).
  package var slots: Int { values.count }

  package subscript(index: Int) -> Value? {
    get {
      let offset = index - base
      return offset >= 0 && offset < values.count ? values[offset] : nil
    }
    set {
      if newValue == nil { _ = removeValue(forKey: index) } else { insert(newValue, at: index) }
    }
  }

  /// Takes the value at `index` out (moved, not copied); `nil` when there is none.
  package mutating func removeValue(forKey index: Int) -> Value? {
    let offset = index - base
    guard offset >= 0, offset < values.count, holds[offset] else { return nil }
    var value: Value? = nil
    swap(&value, &values[offset])
    holds[offset] = false
    count -= 1
    if count == 0 {
      values.removeAll(keepingCapacity: true)
      holds.removeAll(keepingCapacity: true)
      front = 0
    } else if offset == front {
      while !holds[front] { front += 1 }
      if front >= 32 && front * 2 >= values.count {
        values.removeFirst(front)
        holds.removeFirst(front)
        base += front
        front = 0
      }
    }
    return value
  }

  /// The indices that hold a value, in order.
  package var indices: [Int] { holds.indices.filter { holds[$0] }.map { $0 + base } }

  /// Puts `value` (not `nil`) at `index`, moving it in.
  private mutating func insert(_ value: consuming Value?, at index: Int) {
    if values.isEmpty { base = index }
    if index < base {
      values.insert(contentsOf: repeatElement(nil, count: base - index), at: 0)
      holds.insert(contentsOf: repeatElement(false, count: base - index), at: 0)
      front += base - index
      base = index
    }
    let offset = index - base
    // Most indices come next: appended, rather than a hole appended and filled.
    while values.count < offset {
      values.append(nil)
      holds.append(false)
    }
    if offset == values.count {
      values.append(value)
      holds.append(true)
      count += 1
    } else {
      if !holds[offset] { count += 1 }
      values[offset] = value
      holds[offset] = true
    }
    front = min(front, offset)
  }
}
