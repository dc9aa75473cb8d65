import Foundation

/// Decodes `Decodable` values from ``YAMLNode`` trees, with errors at the line and
/// column of the value that caused them.
///
/// Scalars are read as the Swift type asks: `no` is `false` for a `Bool` and the
/// string "no" for a `String`, while a quoted scalar is only ever a string. Enums
/// with associated values read in short forms as well as in their synthesized
/// `Codable` form:
///
/// | YAML | Swift |
/// | --- | --- |
/// | `increment` | `.increment` |
/// | `{ setCount: "42" }` | `.setCount("42")` |
/// | `{ move: { row: 1, column: 2 } }` | `.move(row: 1, column: 2)` |
/// | `{ setCount: { _0: "42" } }` | `.setCount("42")` |
///
/// A key that the type does not read is an error (a typo must not pass silently),
/// unless ``unknownKeys`` is `.ignore`.
///
/// ```swift
/// let node = try YAMLParser.parse("count: 1\nsecret: 4", path: "state.yaml")
/// let state = try YAMLDecoder().decode(Counter.State.self, from: node)
/// ```
public struct YAMLDecoder: Sendable {
  /// What to do with a mapping key that the decoded type never reads.
  public enum UnknownKeyStrategy: Sendable {
    /// Fail, naming the key and the closest key the type reads.
    case error
    /// Ignore it, as `JSONDecoder` does.
    case ignore
  }

  public var unknownKeys: UnknownKeyStrategy = .error
  /// Values handed to the types being decoded through `Decoder.userInfo`.
  public nonisolated(unsafe) var userInfo: [CodingUserInfoKey: Any] = [:]
  /// The case names of an enum type, for "did you mean" hints on an unknown case.
  /// `CaseIterable` enums and enums with a synthesized `Codable` conformance are listed
  /// without it.
  public var caseNames: (@Sendable (Any.Type) -> [String]?)?
  /// The keys a type takes that its coding keys do not list (the bindable fields of a
  /// binding action), for the message of a key that its `init(from:)` rejects as not found.
  public var keyNames: (@Sendable (Any.Type) -> KeyNames?)?

  /// The keys a type takes, and what messages call them.
  public struct KeyNames: Sendable {
    /// What one key is, in a message: `bindable field`.
    public var noun: String
    /// Whose keys they are, in a message: `Todo.State`.
    public var owner: String
    /// The keys, in order.
    public var names: [String]

    public init(noun: String, owner: String, names: [String]) {
      self.noun = noun
      self.owner = owner
      self.names = names
    }
  }
  /// The limits of the parser, for the methods that parse.
  public var limits: YAMLParser.Limits = .default
  /// How messages name the value being decoded (`` `generateRandom` ``); the type's name
  /// when `nil`.
  public var rootName: String?

  public init() {}

  /// Decodes a value of the given type from a parsed document.
  ///
  /// - Complexity: O(*n*) in the size of the document.
  public func decode<T: Decodable>(_ type: T.Type, from document: YAMLDocument) throws -> T {
    let decoder = DecoderImpl(options: self, rootType: T.self, tape: document.tape)
    return try decoder.unbox(document.tape.root, as: T.self, step: nil)
  }

  /// Decodes a value of the given type from a parsed document, in the buffers of `scratch`
  /// when no other decode holds them (see ``DecodingScratch``).
  package func decode<T: Decodable>(
    _ type: T.Type, from document: YAMLDocument, reusing scratch: DecodingScratch
  ) throws -> T {
    let decoder = DecoderImpl(options: self, rootType: T.self, tape: document.tape, scratch: scratch)
    return try decoder.unbox(document.tape.root, as: T.self, step: nil)
  }

  /// Decodes a value of the given type from a node.
  ///
  /// - Complexity: O(*n*) in the size of the node.
  public func decode<T: Decodable>(_ type: T.Type, from node: YAMLNode) throws -> T {
    try decode(type, from: YAMLDocument(node))
  }

  /// Parses YAML text and decodes a value from it.
  public func decode<T: Decodable>(_ type: T.Type, from text: String, path: String = "<string>") throws -> T {
    try decode(type, from: YAMLParser(limits: limits).parseDocument(bytes: Array(text.utf8), path: path))
  }

  /// Parses the bytes of a YAML file and decodes a value from it, naming the file `path` in errors.
  public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8], path: String) throws -> T {
    try decode(type, from: YAMLParser(limits: limits).parseDocument(bytes: bytes, path: path))
  }

  /// Reads and parses a YAML file and decodes a value from it.
  public func decode<T: Decodable>(_ type: T.Type, fromContentsOf path: String) throws -> T {
    try decode(type, from: YAMLParser(limits: limits).parseDocument(contentsOf: path))
  }
}

// MARK: - Paths in messages

/// One step of the path to a value: a key or an index.
enum PathStep {
  case key(String)
  case index(Int)

  var codingKey: any CodingKey {
    switch self {
    case .key(let name): return AnyCodingKey(stringValue: name)
    case .index(let index): return AnyCodingKey(intValue: index)
    }
  }

  /// `.name`, `["odd key"]` or `[3]`.
  func render(into out: inout String) {
    switch self {
    case .index(let index): out += "[\(index)]"
    case .key(let name):
      if name == "_0" { return }
      if isIdentifier(name) {
        out += "." + name
      } else {
        out += "[" + quotedForMessage(name) + "]"
      }
    }
  }
}

/// A path from a decoder's frame to a container nested in it: its last step, after the path
/// at `parent` (an index into the decoder's paths). The empty path has no step.
struct NestedPath {
  var parent: Int32
  var step: PathStep?

  static let empty = NestedPath(parent: 0, step: nil)
}

func isIdentifier(_ name: String) -> Bool {
  guard let first = name.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
  return name.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
}

struct AnyCodingKey: CodingKey {
  var stringValue: String
  var intValue: Int?
  init(stringValue: String) {
    self.stringValue = stringValue
    self.intValue = Int(stringValue)
  }
  init(intValue: Int) {
    self.stringValue = String(intValue)
    self.intValue = intValue
  }
}

// MARK: - The decoder

/// One decoder for a whole document; a stack of frames stands for the values being decoded.
/// Nodes are references into the document's ``Tape``.
///
/// The decoder runs for every value of a document, so what only error messages need (paths,
/// type names) is kept as small numbers and spelled out when a message is written, and the
/// frames and trackers are plain data, which costs no reference counting to push and pop.
final class DecoderImpl: Decoder {
  struct Frame {
    var node: Int
    /// The path from the frame below to the container that read this value, as an index
    /// into ``State/nestedPaths`` (0 is the empty path): usually empty.
    var nested: Int
    var step: PathStep?
    /// Trackers of this frame's keyed containers start here.
    var firstTracker: Int
    /// The tracker of a keyed container over this frame's own node, or -1.
    var ownTracker: Int
    /// Missing keys recorded in this frame start here.
    var firstMissing: Int
  }

  /// Which keys of a mapping the decoded type has read, for unknown-key errors.
  struct Tracker {
    package var mapping: Int
    var count: Int
    var depth: Int
    /// The path from the frame to the mapping, as an index into ``State/nestedPaths``.
    var nested: Int
    /// The entries read: bits of `low` in a mapping of up to 64 entries; in a larger one,
    /// `count` flags of ``State/largeConsumed`` from `largeStart`.
    var low: UInt64 = 0
    var largeStart: Int
    var consumed = 0
    /// The entry found last (its position and key node), where the next lookup starts; -1 for none.
    var lastOrdinal = -1
    var lastKey = -1

    /// Marks an entry of a mapping of up to 64 entries read.
    mutating func consumeSmall(_ position: Int) {
      let bit: UInt64 = 1 << UInt64(position)
      if low & bit == 0 {
        low |= bit
        consumed += 1
      }
    }

    /// A lookup in a mapping of up to 64 entries found this entry: marks it read, and the
    /// next lookup starts after it.
    mutating func found(_ ordinal: Int, key: Int) {
      consumeSmall(ordinal)
      lastOrdinal = ordinal
      lastKey = key
    }
  }

  /// A stack that keeps its storage when it shrinks: the decoder pushes and pops trackers and
  /// missing keys for every value, and moving a count costs less than truncating an array.
  struct Stack<Element> {
    private var storage: [Element] = []
    private(set) var count = 0

    mutating func push(_ element: Element) {
      if count < storage.count {
        storage[count] = element
      } else {
        storage.append(element)
      }
      count += 1
    }

    /// Drops the elements from `index` on; later pushes overwrite them.
    mutating func removeAll(from index: Int) {
      if index < count { count = index }
    }

    subscript(index: Int) -> Element {
      get {
        precondition(index < count, "index out of range")
        return storage[index]
      }
      set {
        precondition(index < count, "index out of range")
        storage[index] = newValue
      }
    }

    /// Changes the element at `index` in place (a `get` and a `set` would copy it twice).
    mutating func update(_ index: Int, _ change: (inout Element) -> Void) {
      precondition(index < count, "index out of range")
      change(&storage[index])
    }

    /// The elements, bottom first.
    var elements: ArraySlice<Element> { storage[..<count] }
  }

  /// How ``unbox(_:as:step:nested:)`` reads a type.
  enum TypeKind {
    /// Through the type's `init(from:)`.
    case decodable
    /// A Foundation type read from its YAML form (see ``specialTypes``).
    case special
    case intArray, stringArray, boolArray, doubleArray
    /// By the decoder itself (other arrays, `[String: Value]`).
    case direct(any DirectlyDecodable.Type)
  }

  let options: YAMLDecoder
  let rootType: Any.Type
  let tape: Tape
  /// The decoder's mutable state. It lives behind a pointer that never changes: stored
  /// `var`s of a class pay for a dynamic exclusivity check on every access, and the decoder
  /// touches these for every value. Only this decoder (one thread, one decode) reaches them.
  package struct State {
    var frames: [Frame] = []
    var trackers = Stack<Tracker>()
    /// The read flags of the mappings of over 64 entries that trackers follow, a stack like them.
    var largeConsumed: [Bool] = []
    /// Keys that a type asked a mapping for and that it does not have, for "did you mean"
    /// hints. One stack for the whole decode, kept with the frames, so that an absent optional
    /// key costs no allocation.
    var missingKeys = Stack<(tracker: Int, name: String)>()
    /// Paths from a frame to the containers nested in it (enum payloads, nested containers),
    /// so that frames, trackers and containers hold a small number instead of an array. Each
    /// path is its last step and the index of the path before it, so that a new path costs
    /// one append and no array of its own. Index 0 is the empty path.
    var nestedPaths: [NestedPath] = [NestedPath.empty]
    /// The kinds of the types decoded so far, so that each type is cast once: a document
    /// has few types.
    var typeKinds: [(type: ObjectIdentifier, kind: TypeKind)] = []

    /// Empties the state for the next decode, keeping its buffers and the kinds of the
    /// types seen (a type's kind does not depend on the document).
    mutating func reset() {
      frames.removeAll(keepingCapacity: true)
      trackers.removeAll(from: 0)
      largeConsumed.removeAll(keepingCapacity: true)
      missingKeys.removeAll(from: 0)
      nestedPaths.removeAll(keepingCapacity: true)
      nestedPaths.append(NestedPath.empty)
    }

    /// A new state on the heap, with room for the frames of most documents; the owner
    /// deinitializes and deallocates it.
    static func allocate() -> UnsafeMutablePointer<State> {
      let state = UnsafeMutablePointer<State>.allocate(capacity: 1)
      state.initialize(to: State())
      state.pointee.frames.reserveCapacity(16)
      return state
    }
  }

  private let state: UnsafeMutablePointer<State>

  var frames: [Frame] {
    unsafeAddress { UnsafePointer(state).pointer(to: \.frames)! }
    unsafeMutableAddress { state.pointer(to: \.frames)! }
  }

  var trackers: Stack<Tracker> {
    unsafeAddress { UnsafePointer(state).pointer(to: \.trackers)! }
    unsafeMutableAddress { state.pointer(to: \.trackers)! }
  }

  var largeConsumed: [Bool] {
    unsafeAddress { UnsafePointer(state).pointer(to: \.largeConsumed)! }
    unsafeMutableAddress { state.pointer(to: \.largeConsumed)! }
  }

  var missingKeys: Stack<(tracker: Int, name: String)> {
    unsafeAddress { UnsafePointer(state).pointer(to: \.missingKeys)! }
    unsafeMutableAddress { state.pointer(to: \.missingKeys)! }
  }

  var nestedPaths: [NestedPath] {
    unsafeAddress { UnsafePointer(state).pointer(to: \.nestedPaths)! }
    unsafeMutableAddress { state.pointer(to: \.nestedPaths)! }
  }

  var typeKinds: [(type: ObjectIdentifier, kind: TypeKind)] {
    unsafeAddress { UnsafePointer(state).pointer(to: \.typeKinds)! }
    unsafeMutableAddress { state.pointer(to: \.typeKinds)! }
  }

  /// The scratch whose state this decoder borrowed, if it did.
  private let scratch: DecodingScratch?

  init(options: YAMLDecoder, rootType: Any.Type, tape: Tape, scratch: DecodingScratch? = nil) {
    self.options = options
    self.rootType = rootType
    self.tape = tape
    if let scratch, !scratch.isLent {
      scratch.isLent = true
      self.scratch = scratch
      state = scratch.state
      state.pointee.reset()
    } else {
      self.scratch = nil
      state = State.allocate()
    }
  }

  deinit {
    if let scratch {
      scratch.isLent = false
    } else {
      state.deinitialize(count: 1)
      state.deallocate()
    }
  }

  /// The path `nested` followed by `step`, as an index into ``State/nestedPaths``.
  func nestedPath(_ nested: Int, appending step: PathStep) -> Int {
    guard nestedPaths.count < Int(UInt16.max) else {
      // More nested containers than a container can number: the paths in messages get shorter.
      return 0
    }
    nestedPaths.append(NestedPath(parent: Int32(nested), step: step))
    return nestedPaths.count - 1
  }

  /// The steps of the path `nested` (an index into ``State/nestedPaths``), first step first.
  func steps(ofNested nested: Int) -> [PathStep] {
    var steps: [PathStep] = []
    var index = nested
    while index != 0, let step = nestedPaths[index].step {
      steps.append(step)
      index = Int(nestedPaths[index].parent)
    }
    return steps.reversed()
  }

  var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

  var codingPath: [any CodingKey] { codingPath(depth: frames.count - 1, nested: 0) }

  func codingPath(depth: Int, nested: Int) -> [any CodingKey] {
    var path: [any CodingKey] = []
    if depth >= 1 {
      for frame in frames[1...depth] {
        path += steps(ofNested: frame.nested).map(\.codingKey)
        if let step = frame.step { path.append(step.codingKey) }
      }
    }
    return path + steps(ofNested: nested).map(\.codingKey)
  }

  /// `Counter.State.repositories[0].stars`: the root type, then the steps to the value.
  func pathDescription(depth: Int, nested: Int, last: PathStep? = nil) -> String {
    var out = options.rootName ?? typeName(rootType)
    if depth >= 1 {
      for frame in frames[1...min(depth, frames.count - 1)] {
        for step in steps(ofNested: frame.nested) { step.render(into: &out) }
        frame.step?.render(into: &out)
      }
    }
    for step in steps(ofNested: nested) { step.render(into: &out) }
    last?.render(into: &out)
    return out
  }

  var currentNode: Int { frames[frames.count - 1].node }

  // MARK: Frames and trackers

  /// Starts decoding a value; returns the new frame's depth.
  @inline(__always)
  func pushFrame(_ node: Int, step: PathStep?, nested: Int) -> Int {
    frames.append(
      Frame(
        node: node, nested: nested, step: step, firstTracker: trackers.count, ownTracker: -1,
        firstMissing: missingKeys.count))
    return frames.count - 1
  }

  /// Ends the value of the top frame, dropping the trackers and missing keys recorded in it.
  @inline(__always)
  func popFrame() {
    let frame = frames.removeLast()
    if frame.firstTracker < trackers.count {
      let largeStart = trackers[frame.firstTracker].largeStart
      if largeStart < largeConsumed.count { largeConsumed.removeSubrange(largeStart...) }
      trackers.removeAll(from: frame.firstTracker)
    }
    missingKeys.removeAll(from: frame.firstMissing)
  }

  /// Starts following which keys of a mapping are read; returns the tracker.
  func addTracker(mapping: Int, depth: Int, nested: Int) -> Int {
    let count = Int(tape.nodes[mapping].count)
    let largeStart = largeConsumed.count
    if count > 64 { largeConsumed.append(contentsOf: repeatElement(false, count: count)) }
    trackers.push(Tracker(mapping: mapping, count: count, depth: depth, nested: nested, largeStart: largeStart))
    return trackers.count - 1
  }

  func consume(_ position: Int, in tracker: Int) {
    if trackers[tracker].count <= 64 {
      trackers.update(tracker) { $0.consumeSmall(position) }
    } else {
      let flag = trackers[tracker].largeStart + position
      if !largeConsumed[flag] {
        largeConsumed[flag] = true
        trackers[tracker].consumed += 1
      }
    }
  }

  func consumeAll(in tracker: Int) {
    for position in 0..<trackers[tracker].count { consume(position, in: tracker) }
  }

  func isConsumed(_ position: Int, in tracker: Tracker) -> Bool {
    tracker.count <= 64
      ? tracker.low & (1 << UInt64(position)) != 0 : largeConsumed[tracker.largeStart + position]
  }

  /// The value of a key in a mapping that a tracker follows, marking the key read.
  func lookup(_ name: String, in mapping: Int, tracker index: Int) -> Int? {
    let tracker = trackers[index]
    let hint = tracker.lastKey >= 0 ? (ordinal: tracker.lastOrdinal, key: tracker.lastKey) : nil
    guard let entry = tape.lookup(name, in: mapping, after: hint) else { return nil }
    if tracker.count <= 64 {
      trackers.update(index) { $0.found(entry.ordinal, key: entry.key) }
    } else {
      consume(entry.ordinal, in: index)
      trackers[index].lastOrdinal = entry.ordinal
      trackers[index].lastKey = entry.key
    }
    return entry.value
  }

  // MARK: Decoding a value

  /// Decodes `T` from a node, then checks that it read every key of the mappings it opened.
  func unbox<T: Decodable>(_ node: Int, as type: T.Type, step: PathStep?, nested: Int = 0) throws -> T {
    // No `T?` in this function: a local of type `T?` makes every call look up its metadata.
    switch typeKind(of: T.self) {
    case .decodable:
      break
    case .special:
      return try unboxSpecial(node, as: type, step: step, nested: nested)
    // Arrays of scalars are common in states; the standard library's `Array.init(from:)`
    // asks for the array's metadata at every element, so they are read here directly.
    case .intArray:
      return unsafeBitCast(try unboxArray(node, step: step, nested: nested) { try self.unboxInteger($0, as: Int.self, depth: $1, last: $2) }, to: T.self)
    case .stringArray:
      return unsafeBitCast(try unboxArray(node, step: step, nested: nested) { try self.unboxString($0, depth: $1, last: $2) }, to: T.self)
    case .boolArray:
      return unsafeBitCast(try unboxArray(node, step: step, nested: nested) { try self.unboxBool($0, depth: $1, last: $2) }, to: T.self)
    case .doubleArray:
      return unsafeBitCast(try unboxArray(node, step: step, nested: nested) { try self.unboxFloat($0, as: Double.self, depth: $1, last: $2) }, to: T.self)
    case .direct(let direct):
      if let value = try direct.unboxDirectly(node, step: step, nested: nested, decoder: self) {
        return value as! T
      }
    }
    _ = pushFrame(node, step: step, nested: nested)
    defer { popFrame() }
    let value: T
    do {
      value = try T(from: self)
    } catch let error as DecodingError {
      throw translate(error, decoding: T.self)
    }
    if options.unknownKeys == .error {
      try checkUnknownKeys()
    }
    return value
  }

  /// The kind of a type, from the types seen before when it is one of them.
  @inline(__always)
  func typeKind(of type: Any.Type) -> TypeKind {
    let id = ObjectIdentifier(type)
    var index = 0
    while index < typeKinds.count {
      if typeKinds[index].type == id { return typeKinds[index].kind }
      index += 1
    }
    return learnTypeKind(of: type)
  }

  @inline(never)
  private func learnTypeKind(of type: Any.Type) -> TypeKind {
    let kind: TypeKind
    if isSpecial(type) {
      kind = .special
    } else if type == [Int].self {
      kind = .intArray
    } else if type == [String].self {
      kind = .stringArray
    } else if type == [Bool].self {
      kind = .boolArray
    } else if type == [Double].self {
      kind = .doubleArray
    } else if let direct = type as? any DirectlyDecodable.Type {
      kind = .direct(direct)
    } else {
      kind = .decodable
    }
    // A few dozen types cover a document; past them, types are looked at each time.
    if typeKinds.count < 32 { typeKinds.append((ObjectIdentifier(type), kind)) }
    return kind
  }

  /// An array, read element by element with `element(node, depth, step)`.
  func unboxArray<Element>(
    _ node: Int, step: PathStep?, nested: Int, _ element: (Int, Int, PathStep) throws -> Element
  ) throws -> [Element] {
    let depth = pushFrame(node, step: step, nested: nested)
    defer { frames.removeLast() }
    guard tape.kind(node) == .sequence else {
      throw mismatch(expected: "a sequence", node: node)
    }
    var result: [Element] = []
    result.reserveCapacity(Int(tape.nodes[node].count))
    var child = tape.nodes[node].first
    var index = 0
    while child != Tape.none {
      result.append(try element(Int(child), depth, .index(index)))
      index += 1
      child = tape.nodes[Int(child)].next
    }
    return result
  }

  /// A `[String: Value]` read from a mapping as `Dictionary.init(from:)` reads it (every
  /// entry in order, each value at its key), without its keyed container and key lookups;
  /// `nil` for a node that is no mapping of scalar keys, which `init(from:)` then reports.
  func unboxDictionary<Value: Decodable>(
    _ node: Int, as type: Value.Type, step: PathStep?, nested: Int
  ) throws -> [String: Value]? {
    guard tape.kind(node) == .mapping else { return nil }
    var key = tape.nodes[node].first
    while key != Tape.none {
      guard tape.kind(Int(key)) == .scalar else { return nil }
      key = tape.nodes[Int(tape.nodes[Int(key)].next)].next
    }
    _ = pushFrame(node, step: step, nested: nested)
    defer { popFrame() }
    // Grown as `init(from:)` grows it, so that the dictionary iterates in the same order.
    var result: [String: Value] = [:]
    key = tape.nodes[node].first
    while key != Tape.none {
      let value = Int(tape.nodes[Int(key)].next)
      let name = tape.string(Int(key))
      result[name] = try unbox(value, as: Value.self, step: .key(name))
      key = tape.nodes[value].next
    }
    return result
  }

  /// Foundation types whose own `Codable` form is not what a spec writes.
  private static let specialTypes: [ObjectIdentifier] = [
    ObjectIdentifier(Date.self), ObjectIdentifier(Decimal.self), ObjectIdentifier(URL.self),
    ObjectIdentifier(UUID.self), ObjectIdentifier(Data.self),
  ]

  func isSpecial(_ type: Any.Type) -> Bool {
    let id = ObjectIdentifier(type)
    for special in Self.specialTypes where special == id { return true }
    return false
  }

  @inline(never)
  func unboxSpecial<T>(_ node: Int, as type: T.Type, step: PathStep?, nested: Int) throws -> T {
    let value: Any
    switch type {
    case is Date.Type: value = try unboxWithPath(node, step: step, nested: nested) { try self.unboxDate($0) }
    case is Decimal.Type: value = try unboxWithPath(node, step: step, nested: nested) { try self.unboxDecimal($0) }
    case is URL.Type: value = try unboxWithPath(node, step: step, nested: nested) { try self.unboxURL($0) }
    case is UUID.Type: value = try unboxWithPath(node, step: step, nested: nested) { try self.unboxUUID($0) }
    default: value = try unboxWithPath(node, step: step, nested: nested) { try self.unboxData($0) }
    }
    return value as! T
  }

  private func unboxWithPath<V>(
    _ node: Int, step: PathStep?, nested: Int, _ body: (Int) throws -> V
  ) throws -> V {
    _ = pushFrame(node, step: step, nested: nested)
    defer { frames.removeLast() }
    return try body(node)
  }

  func checkUnknownKeys() throws {
    let first = frames[frames.count - 1].firstTracker
    var index = first
    while index < trackers.count, trackers[index].consumed == trackers[index].count { index += 1 }
    guard index < trackers.count else { return }
    try reportUnknownKey(from: index)
  }

  /// The error for the first key that a tracker from `first` on has not seen read.
  private func reportUnknownKey(from first: Int) throws {
    for (index, tracker) in trackers.elements.enumerated().dropFirst(first) where tracker.consumed < tracker.count {
      let keys = tape.keys(tracker.mapping)
      for position in keys.indices where !isConsumed(position, in: tracker) {
        let key = keys[position]
        let name = tape.string(key)
        let read = keys.indices.filter { isConsumed($0, in: tracker) }.map { tape.string(keys[$0]) }
        let hint =
          Suggestion.closest(to: name, in: missingKeys.elements.filter { $0.tracker == index }.map(\.name))
          ?? Suggestion.closest(to: name, in: read)
        throw tape.error(
          "unknown key `\(name)` in \(pathDescription(depth: tracker.depth, nested: tracker.nested))"
            + (hint.map { "; did you mean `\($0)`?" } ?? ""),
          at: key)
      }
    }
  }

  // MARK: Errors

  func mismatch(expected: String, node: Int, depth: Int, nested: Int, last: PathStep?) -> YAMLError {
    var message =
      "expected \(expected) for \(pathDescription(depth: depth, nested: nested, last: last)), found \(tape.foundDescription(node))"
    if tape.isNull(node), expected == "String" { message += " (write \"\" for an empty string)" }
    return tape.error(message, at: node)
  }

  func mismatch(expected: String, node: Int) -> YAMLError {
    mismatch(expected: expected, node: node, depth: frames.count - 1, nested: 0, last: nil)
  }

  /// Turns the errors that synthesized and hand-written `init(from:)` throw into located ones.
  func translate<T>(_ error: DecodingError, decoding type: T.Type) -> YAMLError {
    let node = currentNode
    let path = pathDescription(depth: frames.count - 1, nested: 0)
    switch error {
    case .typeMismatch(_, let context) where context.debugDescription.hasPrefix("Invalid number of keys found"):
      // A synthesized enum decoder found no case it knows, or more than one.
      let names = caseNames(of: T.self)
      switch tape.kind(node) {
      case .scalar:
        let value = tape.string(node)
        return tape.error(
          "unknown case `\(value)` for \(path)" + (names.map { Suggestion.hint(for: value, in: $0) } ?? ""),
          at: node)
      case .mapping:
        let keys = tape.keys(node)
        switch keys.count {
        case 0:
          return tape.error("expected one case for \(path), found an empty mapping", at: node)
        case 1:
          let name = tape.string(keys[0])
          return tape.error(
            "unknown case `\(name)` for \(path)" + (names.map { Suggestion.hint(for: name, in: $0) } ?? ""),
            at: keys[0])
        default:
          let listed = keys.map { "`\(tape.string($0))`" }.joined(separator: ", ")
          return tape.error(
            "expected one case for \(path), found \(keys.count) keys (\(listed)); write one action per step",
            at: keys[1])
        }
      case .sequence:
        return mismatch(expected: "a case", node: node)
      }
    case .dataCorrupted(let context):
      if let problem = context.underlyingError as? DecodingProblem {
        let keys = tape.kind(node) == .mapping ? tape.keys(node) : []
        return tape.error(problem.message, at: problem.atFirstKey && !keys.isEmpty ? keys[0] : node)
      }
      if let names = caseNames(of: T.self), tape.kind(node) == .scalar {
        let value = tape.string(node)
        return tape.error(
          "unknown value `\(value)` for \(path)" + Suggestion.hint(for: value, in: names) + "; the values of \(typeName(T.self)) are "
            + names.map { "`\($0)`" }.joined(separator: ", "),
          at: node)
      }
      if T.self is any RawRepresentable.Type, tape.kind(node) == .scalar,
        context.debugDescription.hasPrefix("Cannot initialize ")
      {
        // The standard library's raw-value enum that is not `CaseIterable`: its raw values
        // are listed when its cases can be read from memory (up to 256 cases).
        let value = tape.string(node)
        var message = "unknown value `\(value)` for \(path)"
        if let values = rawValues(of: T.self) {
          message +=
            Suggestion.hint(for: value, in: values) + "; the values of \(typeName(T.self)) are "
            + values.map { "`\($0)`" }.joined(separator: ", ")
        }
        return tape.error(message, at: node)
      }
      return tape.error("cannot decode \(path): \(context.debugDescription)", at: node)
    case .keyNotFound(let key, _):
      if tape.kind(node) == .mapping, let written = tape.keys(node).first(where: { tape.string($0) == key.stringValue }) {
        // The key is written: the type's `init(from:)` did not take it (a binding action of
        // a field that is not bindable), so it is unknown, not missing.
        let name = key.stringValue
        guard let known = options.keyNames?(T.self) else {
          return tape.error("unknown key `\(name)` in \(path)", at: written)
        }
        return tape.error(
          "unknown \(known.noun) `\(name)` for \(path)" + Suggestion.hint(for: name, in: known.names) + "; the \(known.noun)s of \(known.owner) are "
            + known.names.map { "`\($0)`" }.joined(separator: ", "),
          at: written)
      }
      return tape.error("missing key `\(key.stringValue)` in \(path)", at: node)
    case .valueNotFound(let type, _):
      return tape.error("expected \(typeName(type)) for \(path), found null", at: node)
    case .typeMismatch(let type, let context):
      let detail = context.debugDescription.isEmpty ? "expected \(typeName(type))" : context.debugDescription
      return tape.error("cannot decode \(path): \(detail)", at: node)
    @unknown default:
      return tape.error("cannot decode \(path): \(error)", at: node)
    }
  }

  /// The raw values of a raw-value enum, read from memory (``payloadFreeEnumCases(of:)``),
  /// or `nil` when its cases cannot be read so.
  func rawValues<T>(of type: T.Type) -> [String]? {
    guard let cases = payloadFreeEnumCases(of: T.self) else { return nil }
    let values = cases.compactMap { ($0 as? any RawRepresentable).map { "\($0.rawValue)" } }
    return values.count == cases.count ? values : nil
  }

  func caseNames(of type: Any.Type) -> [String]? {
    if let names = options.caseNames?(type) { return names }
    if let iterable = type as? any (CaseIterable & Encodable).Type {
      return caseNamesOfIterable(iterable)
    }
    if let decodable = type as? any Decodable.Type {
      return CodingKeyProbe.keys(of: decodable)
    }
    return nil
  }

  private func caseNamesOfIterable<C: CaseIterable & Encodable>(_ type: C.Type) -> [String] {
    C.allCases.compactMap { value in
      guard let node = try? YAMLEncoder().encode(value) else { return nil }
      switch node.content {
      case .scalar(let scalar): return scalar.value
      case .mapping(let mapping): return mapping.entries.first?.name
      case .sequence: return nil
      }
    }
  }

  // MARK: Decoder

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    let depth = frames.count - 1
    let node = currentNode
    switch tape.kind(node) {
    case .mapping:
      var tracker = frames[depth].ownTracker
      if tracker < 0 {
        tracker = addTracker(mapping: node, depth: depth, nested: 0)
        frames[depth].ownTracker = tracker
      }
      return KeyedDecodingContainer(
        KeyedContainer<Key>(
          decoder: self, node: node, source: .mapping(isPayload: false), depth: depth, nested: 0, tracker: tracker))
    case .scalar where !tape.isNull(node):
      return KeyedDecodingContainer(
        KeyedContainer<Key>(decoder: self, node: node, source: .caseName, depth: depth, nested: 0, tracker: nil))
    default:
      throw mismatch(expected: "a mapping", node: node)
    }
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let node = currentNode
    guard tape.kind(node) == .sequence else {
      throw mismatch(expected: "a sequence", node: node)
    }
    return UnkeyedContainer(decoder: self, node: node, depth: frames.count - 1, nested: 0)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    SingleValueContainer(decoder: self, node: currentNode, depth: frames.count - 1)
  }

  // MARK: Scalars

  func scalarText(_ node: Int, expected: @autoclosure () -> String, depth: Int, nested: Int, last: PathStep?)
    throws -> String
  {
    guard tape.kind(node) == .scalar, !tape.isNull(node) else {
      throw mismatch(expected: expected(), node: node, depth: depth, nested: nested, last: last)
    }
    return tape.string(node)
  }

  func unboxString(_ node: Int, depth: Int, nested: Int = 0, last: PathStep? = nil) throws -> String {
    try scalarText(node, expected: "String", depth: depth, nested: nested, last: last)
  }

  func unboxBool(_ node: Int, depth: Int, nested: Int = 0, last: PathStep? = nil) throws -> Bool {
    // `true` and `false` without making a `String` of them; the other spellings below.
    if let value = tape.plainBool(node) { return value }
    let text = try scalarText(node, expected: "Bool", depth: depth, nested: nested, last: last)
    guard !tape.isStringOnly(node), let value = ScalarResolver.bool(text) else {
      throw mismatch(expected: "Bool", node: node, depth: depth, nested: nested, last: last)
    }
    return value
  }

  func unboxInteger<T: FixedWidthInteger>(
    _ node: Int, as type: T.Type, depth: Int, nested: Int = 0, last: PathStep? = nil
  ) throws -> T {
    let raw = tape.nodes[node]
    if raw.kind == .scalar, raw.style == .plain, raw.tag != .string,
      let value = tape.plainDecimal(node, as: T.self)
    {
      return value
    }
    let name = typeName(T.self)
    let text = try scalarText(node, expected: name, depth: depth, nested: nested, last: last)
    if !tape.isStringOnly(node) {
      switch ScalarResolver.integer(text, as: T.self) {
      case .value(let value): return value
      case .overflow:
        throw tape.error(
          "expected \(name) for \(pathDescription(depth: depth, nested: nested, last: last)), found \(text), "
            + "which is out of range (\(T.min)...\(T.max))", at: node)
      default: break
      }
    }
    throw mismatch(expected: name, node: node, depth: depth, nested: nested, last: last)
  }

  func unboxFloat<T: BinaryFloatingPoint & LosslessStringConvertible>(
    _ node: Int, as type: T.Type, depth: Int, nested: Int = 0, last: PathStep? = nil
  ) throws -> T {
    let text = try scalarText(node, expected: typeName(T.self), depth: depth, nested: nested, last: last)
    guard !tape.isStringOnly(node), let double = ScalarResolver.double(text) else {
      throw mismatch(expected: typeName(T.self), node: node, depth: depth, nested: nested, last: last)
    }
    // Parse finite numbers as `T` itself, so a `Float` is rounded once, not twice.
    let cleaned = text.utf8.contains(UInt8(ascii: "_")) ? text.replacingOccurrences(of: "_", with: "") : text
    let value = double.isFinite ? (T(cleaned) ?? T(double)) : T(double)
    if value.isInfinite, !text.lowercased().hasSuffix(".inf") {
      throw tape.error(
        "expected \(typeName(T.self)) for \(pathDescription(depth: depth, nested: nested, last: last)), "
          + "found \(text), which is out of range", at: node)
    }
    return value
  }

  func unboxDate(_ node: Int) throws -> Date {
    let expected = "an ISO 8601 date (2024-05-01T09:00:00Z)"
    let text = try scalarText(node, expected: expected, depth: frames.count - 1, nested: 0, last: nil)
    guard let date = ISO8601.parse(text) else { throw mismatch(expected: expected, node: node) }
    return date
  }

  func unboxDecimal(_ node: Int) throws -> Decimal {
    let text = try scalarText(node, expected: "Decimal", depth: frames.count - 1, nested: 0, last: nil)
    guard !tape.isStringOnly(node), let value = ScalarResolver.decimal(text) else {
      throw mismatch(expected: "Decimal", node: node)
    }
    return value
  }

  func unboxURL(_ node: Int) throws -> URL {
    let text = try scalarText(node, expected: "a URL", depth: frames.count - 1, nested: 0, last: nil)
    guard let url = URL(string: text) else { throw mismatch(expected: "a URL", node: node) }
    return url
  }

  func unboxUUID(_ node: Int) throws -> UUID {
    let expected = "a UUID (00000000-0000-0000-0000-000000000000)"
    let text = try scalarText(node, expected: expected, depth: frames.count - 1, nested: 0, last: nil)
    // A plain integer N is TCA's `UUID(N)`: what the `uuid: incrementing` stub hands out.
    if !tape.isStringOnly(node), let uuid = UUID.fromInteger(text) { return uuid }
    guard let uuid = UUID(uuidString: text) else { throw mismatch(expected: expected, node: node) }
    return uuid
  }

  func unboxData(_ node: Int) throws -> Data {
    let text = try scalarText(node, expected: "base64 data", depth: frames.count - 1, nested: 0, last: nil)
    let compact = text.filter { !$0.isWhitespace }
    guard let data = Data(base64Encoded: compact) else { throw mismatch(expected: "base64 data", node: node) }
    return data
  }
}

/// Types that the decoder reads itself rather than through their `init(from:)`: arrays, whose
/// `init(from:)` asks for the array's type metadata at every element and reaches each through
/// an existential, and `[String: Value]`, whose `init(from:)` makes a keyed container, its
/// keys, and a lookup for every key.
protocol DirectlyDecodable {
  /// The value; `nil` to decode it through `init(from:)` after all.
  static func unboxDirectly(_ node: Int, step: PathStep?, nested: Int, decoder: DecoderImpl) throws -> Self?
}

extension Array: DirectlyDecodable where Element: Decodable {
  static func unboxDirectly(_ node: Int, step: PathStep?, nested: Int, decoder: DecoderImpl) throws -> [Element]? {
    try decoder.unboxArray(node, step: step, nested: nested) { element, _, step in
      try decoder.unbox(element, as: Element.self, step: step)
    }
  }
}

extension Dictionary: DirectlyDecodable where Key == String, Value: Decodable {
  static func unboxDirectly(_ node: Int, step: PathStep?, nested: Int, decoder: DecoderImpl) throws -> [String: Value]? {
    try decoder.unboxDictionary(node, as: Value.self, step: step, nested: nested)
  }
}

// MARK: - Reused buffers

/// The buffers of a decode (frames, trackers, paths), kept for the next one: decoding
/// thousands of small values (a spec's actions) one after the other otherwise allocates and
/// frees them for each. One decode at a time holds them; a decode that starts while another
/// holds them, or that finds a decoder of an earlier decode still alive (a type kept it),
/// allocates its own. Not for use from two threads at once.
package final class DecodingScratch {
  let state: UnsafeMutablePointer<DecoderImpl.State>
  /// Whether a decoder holds ``state`` now.
  var isLent = false

  package init() {
    state = DecoderImpl.State.allocate()
  }

  deinit {
    state.deinitialize(count: 1)
    state.deallocate()
  }
}

/// A problem that a type's own `init(from:)` reports in its own words: thrown as the
/// underlying error of a `DecodingError.dataCorrupted`, it becomes a `YAMLError` with this
/// message, at the value being decoded (or, with `atFirstKey`, at that mapping's first key).
package struct DecodingProblem: Error {
  package var message: String
  package var atFirstKey: Bool

  package init(_ message: String, atFirstKey: Bool = false) {
    self.message = message
    self.atFirstKey = atFirstKey
  }
}
