#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

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
/// - **The start is encoded once.** A step starts from the state the step before it left,
///   which was encoded for that step's check: when the starting state is that very value
///   (the same bytes), its encoding is reused.
///
/// Like the rest of the runner, this takes a state to be a value: encoding it twice gives
/// the same node. (A class instance in a state, changed in place, is not a value.)
@MainActor
final class StateCheck<State: Codable & Equatable> {
  private let decoder: YAMLDecoder
  private let encoder = YAMLEncoder()
  /// The encoding of the state the last check saw after its action; `nil` before the first check.
  private var lastNode: YAMLNode?
  /// That state, initialized once `lastNode` is set. A pointer rather than an optional state
  /// (or a tuple): a test of a generic optional or tuple asks for its type's metadata, at
  /// every step.
  private nonisolated(unsafe) let lastState = UnsafeMutablePointer<State>.allocate(capacity: 1)

  init(decoder: YAMLDecoder) {
    self.decoder = decoder
  }

  deinit {
    if lastNode != nil { lastState.deinitialize(count: 1) }
    lastState.deallocate()
  }

  /// The state expected after a step that starts from `start` and makes `assignments`,
  /// given the `actual` state after it.
  ///
  /// - Throws: The `YAMLError` of an assignment that cannot be applied, or of a node that
  ///   does not decode.
  func expected(start: State, actual: State, assignments: [StateAssignment]) throws -> State {
    let startNode = try node(of: start)
    let assigned = try StateAssignment.apply(assignments, to: startNode)
    let actualNode = Self.isSameValue(start, actual) ? startNode : try encoder.encode(actual)
    if lastNode == nil {
      lastState.initialize(to: actual)
    } else {
      lastState.pointee = actual
    }
    lastNode = actualNode
    // `actual == actual` keeps a state that is not equal to itself (a NaN) on the plain
    // way, where TestStore reports it as TCA's does.
    if assigned.hasSameContent(as: actualNode), actual == actual { return actual }
    return try decoder.decode(State.self, from: assigned)
  }

  private func node(of state: State) throws -> YAMLNode {
    if let lastNode, Self.isSameValue(UnsafePointer(lastState), state) { return lastNode }
    return try encoder.encode(state)
  }

  /// Whether two states are the same value: the same bytes (for a state that holds arrays
  /// or strings, the same storage, which a value never changes in place).
  private static func isSameValue(_ a: State, _ b: State) -> Bool {
    withUnsafePointer(to: a) { isSameValue($0, b) }
  }

  private static func isSameValue(_ a: UnsafePointer<State>, _ b: State) -> Bool {
    let size = MemoryLayout<State>.size
    if size == 0 { return true }
    return withUnsafePointer(to: b) { memcmp(a, $0, size) == 0 }
  }
}

extension YAMLNode {
  /// Whether two nodes decode alike: the same scalars with the same styles, the same tags,
  /// the same keys in the same order, whatever their places in a file.
  func hasSameContent(as other: YAMLNode) -> Bool {
    guard tag == other.tag else { return false }
    switch (content, other.content) {
    case (.scalar(let a), .scalar(let b)):
      return a == b
    case (.sequence(let a), .sequence(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { $0.hasSameContent(as: $1) }
    case (.mapping(let a), .mapping(let b)):
      return a.entries.count == b.entries.count
        && zip(a.entries, b.entries).allSatisfy {
          $0.key.hasSameContent(as: $1.key) && $0.value.hasSameContent(as: $1.value)
        }
    default:
      return false
    }
  }
}
