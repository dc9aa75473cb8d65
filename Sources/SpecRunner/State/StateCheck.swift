#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import SpecYAML

/// Works out the state that a `state:` step expects, for one scenario: the state the step
/// starts from, encoded, with the step's assignments applied.
///
/// The plain way decodes that node into a state for `TestStore` to compare. Two things make
/// the usual step cheaper, without changing any verdict:
///
/// - **A match is seen on the nodes.** The state after the action is encoded too; when the
///   assigned node holds exactly the same scalars, styles and tags as that encoding, the
///   expected state is the actual one (decoding the node would give it back), and no state
///   is decoded. Anything else (a mismatch, a dictionary in another order, `0.10` written
///   for `0.1`) takes the plain way, which also makes the diff of a failure.
/// - **A state is encoded once.** A step starts from the state the step before it left,
///   which was encoded for that step's check, and steps often come back to a state they
///   left (a flag set and cleared, a count up and down): the last few states encoded are
///   kept with their encodings, and a state that is one of them (the same bytes) reuses
///   its encoding.
///
/// Like the rest of the runner, this takes a state to be a value: encoding it twice gives
/// the same node. A state that holds shared values (`@Shared`) is not: its references are
/// the same bytes before and after a step that changes what they hold, so for it nothing is
/// kept (`keepsEncodings: false`) and each state is encoded when it is checked.
@MainActor
final class StateCheck<State: Codable & Equatable> {
  private let decoder: YAMLDecoder
  private let encoder = YAMLEncoder()
  /// The encodings of the last states encoded, oldest first until the list is full, then
  /// replaced in turn from ``nextReplaced``.
  ///
  /// `@exclusivity(unchecked)`, as the memo's: every access to a class's `var` pays for a
  /// dynamic exclusivity check otherwise, and a check makes several. Its accesses never
  /// overlap: they are made on the main actor, and none lasts across a call out.
  @exclusivity(unchecked) private var recentNodes: [YAMLNode] = []
  /// Those states, as many initialized as there are ``recentNodes``. A buffer rather than an
  /// array of optional states (or tuples): a test of a generic optional or tuple asks for
  /// its type's metadata, at every step. Keeping a state keeps its storage, so that no other
  /// value can take its place at the same address.
  private nonisolated(unsafe) let recentStates = UnsafeMutablePointer<State>.allocate(capacity: recentLimit)
  @exclusivity(unchecked) private var nextReplaced = 0
  private nonisolated static var recentLimit: Int { 4 }
  /// How many states were encoded (for tests).
  private(set) var encodings = 0
  /// Whether a state's encoding may be reused for a state of the same bytes.
  private let keepsEncodings: Bool

  init(decoder: YAMLDecoder, keepsEncodings: Bool = true) {
    self.decoder = decoder
    self.keepsEncodings = keepsEncodings
  }

  deinit {
    recentStates.deinitialize(count: recentNodes.count)
    recentStates.deallocate()
  }

  /// The state expected after a step that starts from `start` and makes `assignments`,
  /// given the `actual` state after it.
  ///
  /// - Throws: The `YAMLError` of an assignment that cannot be applied, or of a node that
  ///   does not decode.
  func expected(start: State, actual: State, assignments: [StateAssignment]) throws -> State {
    let startNode = try node(of: start)
    let actualNode = keepsEncodings && Self.isSameValue(start, actual) ? startNode : try node(of: actual)
    // `actual == actual` keeps a state that is not equal to itself (a NaN) on the plain
    // way, where TestStore reports it as TCA's does.
    if Self.fieldsMatch(assignments, start: startNode, actual: actualNode), actual == actual { return actual }
    let assigned = try StateAssignment.apply(assignments, to: startNode)
    if assigned.hasSameContent(as: actualNode), actual == actual { return actual }
    return try decoder.decode(State.self, from: assigned)
  }

  /// Whether `actual` has the same content as `start` with the assignments applied, told
  /// without applying them, for the usual step: a state encoded as a mapping (not an enum
  /// case), and assignments that each replace a field it has. Each entry of `actual` is
  /// then compared with the value assigned to its field (the last one, as applying them in
  /// order leaves it), or with the same entry of `start`. `false` for any other step, which
  /// the plain way decides.
  private nonisolated static func fieldsMatch(
    _ assignments: [StateAssignment], start: YAMLNode, actual: YAMLNode
  ) -> Bool {
    guard !start.isEnumCase, start.tag == actual.tag, case .mapping(let before) = start.content,
      case .mapping(let after) = actual.content, before.count == after.count
    else { return false }
    // By index, as `apply` does: a `for … in` would copy each assignment first.
    for index in assignments.indices {
      guard assignments[index].path.components.count == 1,
        case .field(let name) = assignments[index].path.components[0], before.position(of: name) != nil
      else { return false }
    }
    return before.entries.withUnsafeBufferPointer { before in
      after.entries.withUnsafeBufferPointer { after in
        for position in before.indices {
          let (old, new) = (before.baseAddress! + position, after.baseAddress! + position)
          guard YAMLNode.haveSameContent(YAMLNode.key(of: old), YAMLNode.key(of: new)) else { return false }
          let name = old.pointee.name
          let assigned = assignments.lastIndex { assignment in
            if case .field(name) = assignment.path.components[0] { return true }
            return false
          }
          let same =
            if let assigned {
              withUnsafePointer(to: assignments[assigned].value) { YAMLNode.haveSameContent($0, YAMLNode.value(of: new)) }
            } else {
              YAMLNode.haveSameContent(YAMLNode.value(of: old), YAMLNode.value(of: new))
            }
          guard same else { return false }
        }
        return true
      }
    }
  }

  /// The state's encoding: one kept, or a new one, then kept.
  private func node(of state: State) throws -> YAMLNode {
    guard keepsEncodings else {
      encodings += 1
      return try encoder.encode(state)
    }
    let count = recentNodes.count
    let newest = count < Self.recentLimit ? count - 1 : (nextReplaced + count - 1) % count
    if let index = Self.position(of: state, in: recentStates, count: count, newest: newest) {
      return recentNodes[index]
    }
    let node = try encoder.encode(state)
    encodings += 1
    if recentNodes.count < Self.recentLimit {
      (recentStates + recentNodes.count).initialize(to: state)
      recentNodes.append(node)
    } else {
      recentStates[nextReplaced] = state
      recentNodes[nextReplaced] = node
      nextReplaced = (nextReplaced + 1) % Self.recentLimit
    }
    return node
  }

  /// Whether two states are the same value: the same bytes (for a state that holds arrays
  /// or strings, the same storage, which a value never changes in place).
  ///
  /// `nonisolated`: its closures would otherwise check, on every call, that they run on the
  /// main actor. ``DecodeMemo`` asks it too, to reuse a kept encoding.
  nonisolated static func isSameValue(_ a: State, _ b: State) -> Bool {
    withUnsafePointer(to: a) { position(of: b, in: $0, count: 1, newest: 0) != nil }
  }

  /// Where `state` is among the `count` states at `states` (the same value, as
  /// ``isSameValue(_:_:)`` says), looking from the one at `newest` back: a step usually
  /// starts from the state that the step before it left.
  private nonisolated static func position(
    of state: State, in states: UnsafePointer<State>, count: Int, newest: Int
  ) -> Int? {
    guard count > 0 else { return nil }
    let size = MemoryLayout<State>.size
    return withUnsafePointer(to: state) { state in
      var index = newest
      for _ in 0..<count {
        if size == 0 || memcmp(states + index, state, size) == 0 { return index }
        index = index == 0 ? count - 1 : index - 1
      }
      return nil
    }
  }
}

extension YAMLNode {
  /// Whether two nodes decode alike: the same scalars with the same styles, the same tags,
  /// the same keys in the same order, whatever their places in a file.
  package func hasSameContent(as other: YAMLNode) -> Bool {
    withUnsafePointer(to: self) { node in
      withUnsafePointer(to: other) { other in Self.haveSameContent(node, other) }
    }
  }

  /// The same, on nodes where they are: reading a node through a pointer copies no node,
  /// where a call on an element of an array copies it (and destroys the copy) first.
  fileprivate static func haveSameContent(_ a: UnsafePointer<YAMLNode>, _ b: UnsafePointer<YAMLNode>) -> Bool {
    guard a.pointee.tag == b.pointee.tag else { return false }
    switch a.pointee.content {
    case .scalar(let left):
      guard case .scalar(let right) = b.pointee.content else { return false }
      return left == right
    case .sequence(let left):
      guard case .sequence(let right) = b.pointee.content, left.count == right.count else { return false }
      return left.withUnsafeBufferPointer { left in
        right.withUnsafeBufferPointer { right in
          for index in left.indices where !haveSameContent(left.baseAddress! + index, right.baseAddress! + index) {
            return false
          }
          return true
        }
      }
    case .mapping(let left):
      guard case .mapping(let right) = b.pointee.content, left.count == right.count else { return false }
      return left.entries.withUnsafeBufferPointer { left in
        right.entries.withUnsafeBufferPointer { right in
          for index in left.indices {
            let (a, b) = (left.baseAddress! + index, right.baseAddress! + index)
            guard haveSameContent(key(of: a), key(of: b)), haveSameContent(value(of: a), value(of: b)) else {
              return false
            }
          }
          return true
        }
      }
    }
  }

  private static let keyOffset = MemoryLayout<Mapping.Entry>.offset(of: \.key)!
  private static let valueOffset = MemoryLayout<Mapping.Entry>.offset(of: \.value)!

  fileprivate static func key(of entry: UnsafePointer<Mapping.Entry>) -> UnsafePointer<YAMLNode> {
    (UnsafeRawPointer(entry) + keyOffset).assumingMemoryBound(to: YAMLNode.self)
  }

  fileprivate static func value(of entry: UnsafePointer<Mapping.Entry>) -> UnsafePointer<YAMLNode> {
    (UnsafeRawPointer(entry) + valueOffset).assumingMemoryBound(to: YAMLNode.self)
  }
}
