/// The whole of a short value, in six words: a document whose root is a scalar, or a mapping
/// of one scalar to a scalar (`increment`, `{ setCount: "12" }`), with texts of 30 bytes at
/// most in all. Two documents have equal keys exactly when their roots have the same texts,
/// tags and scalar styles, wherever they are; a memo of decoded values keys the usual
/// actions by it without making a `String`.
package struct PackedValueKey: Equatable, Sendable {
  /// The tags and styles (bit 63 set for a mapping).
  package var bits: UInt64
  /// The texts' bytes, then zeros; the last two bytes hold the length of all the texts and
  /// that of the first, so that `{ a: "b" }` and `{ ab: "" }` differ.
  package var a: UInt64, b: UInt64, c: UInt64, d: UInt64

  /// `nil` when the root is of another shape, or its texts do not fit.
  package init?(_ document: borrowing YAMLDocument) {
    self.init(document.tape, root: document.tape.root)
  }

  /// The key of the node `root` of a tape, as if it were a document's root.
  package init?(_ tape: borrowing Tape, root: Int) {
    // Borrowed, and read in place: a copy of the tape would retain its four buffers.
    let node = tape.nodes[root]
    switch node.kind {
    case .scalar:
      bits = UInt64(node.tag.rawValue) << 8 | UInt64(node.style.rawValue)
      guard let words = Self.pack(tape, node, nil) else { return nil }
      (a, b, c, d) = words
    case .mapping where node.count == 1:
      let keyNode = tape.nodes[Int(node.first)]
      let valueNode = tape.nodes[Int(keyNode.next)]
      guard keyNode.kind == .scalar, valueNode.kind == .scalar else { return nil }
      bits = 1 << 63 | UInt64(node.tag.rawValue) << 32 | UInt64(keyNode.tag.rawValue) << 24
        | UInt64(keyNode.style.rawValue) << 16 | UInt64(valueNode.tag.rawValue) << 8
        | UInt64(valueNode.style.rawValue)
      guard let words = Self.pack(tape, keyNode, valueNode) else { return nil }
      (a, b, c, d) = words
    default:
      return nil
    }
  }

  private static func pack(
    _ tape: borrowing Tape, _ first: Tape.Node, _ second: Tape.Node?
  ) -> (UInt64, UInt64, UInt64, UInt64)? {
    let firstCount = Int(first.count)
    let secondCount = second.map { Int($0.count) } ?? 0
    guard firstCount + secondCount <= 30 else { return nil }
    var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    tape.text.withUnsafeBytes { text in
      withUnsafeMutableBytes(of: &words) { raw in
        if firstCount > 0 {
          raw.baseAddress!.copyMemory(from: text.baseAddress! + Int(first.first), byteCount: firstCount)
        }
        if let second, secondCount > 0 {
          (raw.baseAddress! + firstCount).copyMemory(from: text.baseAddress! + Int(second.first), byteCount: secondCount)
        }
        raw[30] = UInt8(firstCount + secondCount)
        raw[31] = UInt8(firstCount)
      }
    }
    return words
  }
}

extension PackedValueKey {
  /// All zeros: the key of no document (an empty plain scalar's key has lengths of 0 and
  /// bits of 0 too, so a memo must mark its empty slots apart from the key).
  package static let zero = PackedValueKey(bits: 0, a: 0, b: 0, c: 0, d: 0)

  private init(bits: UInt64, a: UInt64, b: UInt64, c: UInt64, d: UInt64) {
    (self.bits, self.a, self.b, self.c, self.d) = (bits, a, b, c, d)
  }
}

extension PackedValueKey {
  /// The key of a mapping's keys, in order (`{ count: 1, "flag": true }` and `{ count: 2,
  /// flag: false }` have the same): their texts, each after its length, 31 bytes at most in
  /// all. Equal keys mean the same key texts in the same order, so the same state paths.
  /// `nil` when a key is not a scalar, or the texts do not fit.
  package init?(keysOf mapping: Int, in tape: borrowing Tape) {
    let node = tape.nodes[mapping]
    guard node.kind == .mapping else { return nil }
    var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    let fits = withUnsafeMutableBytes(of: &words) { raw -> Bool in
      tape.text.withUnsafeBytes { text -> Bool in
        var at = 0
        var key = node.first
        while key != Tape.none {
          let keyNode = tape.nodes[Int(key)]
          let count = Int(keyNode.count)
          guard keyNode.kind == .scalar, at + 1 + count <= 32 else { return false }
          raw[at] = UInt8(count)
          if count > 0 {
            (raw.baseAddress! + at + 1).copyMemory(from: text.baseAddress! + Int(keyNode.first), byteCount: count)
          }
          at += 1 + count
          key = tape.nodes[Int(keyNode.next)].next
        }
        return true
      }
    }
    guard fits else { return nil }
    // Bit 62 tells a list of keys from a value; the count keeps `{}` apart from the rest.
    bits = 1 << 62 | UInt64(node.count)
    (a, b, c, d) = words
  }
}
