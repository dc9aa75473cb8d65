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
  /// `CaseIterable` enums are listed without it.
  public var caseNames: (@Sendable (Any.Type) -> [String]?)?

  public init() {}

  /// Decodes a value of the given type from a node.
  ///
  /// - Complexity: O(*n*) in the size of the node.
  public func decode<T: Decodable>(_ type: T.Type, from node: YAMLNode) throws -> T {
    let decoder = DecoderImpl(options: self, rootType: T.self)
    return try decoder.unbox(node, as: T.self, step: nil)
  }

  /// Parses YAML text and decodes a value from it.
  public func decode<T: Decodable>(_ type: T.Type, from text: String, path: String = "<string>") throws -> T {
    try decode(type, from: YAMLParser.parse(text, path: path))
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

/// One decoder for a whole tree; a stack of frames stands for the values being decoded.
final class DecoderImpl: Decoder {
  struct Frame {
    var node: YAMLNode
    /// The path from the frame below: usually one key or index.
    var nested: [PathStep]
    var step: PathStep?
    /// Trackers of this frame's keyed containers start here.
    var firstTracker: Int
    /// The tracker of a keyed container over this frame's own node.
    var ownTracker: Int?
  }

  /// Which keys of a mapping the decoded type has read, for unknown-key errors.
  struct Tracker {
    var mapping: YAMLNode.Mapping
    var depth: Int
    var nested: [PathStep]
    var low: UInt64 = 0
    var high: [Bool] = []
    var consumed = 0
    /// Keys the type asked for that the mapping does not have.
    var missing: [String] = []

    init(mapping: YAMLNode.Mapping, depth: Int, nested: [PathStep]) {
      self.mapping = mapping
      self.depth = depth
      self.nested = nested
      if mapping.count > 64 { high = [Bool](repeating: false, count: mapping.count) }
    }

    mutating func consume(_ position: Int) {
      if position < 64, high.isEmpty {
        let bit: UInt64 = 1 << UInt64(position)
        if low & bit == 0 {
          low |= bit
          consumed += 1
        }
      } else if !high[position] {
        high[position] = true
        consumed += 1
      }
    }

    mutating func consumeAll() {
      for position in 0..<mapping.count { consume(position) }
    }

    func isConsumed(_ position: Int) -> Bool {
      high.isEmpty ? low & (1 << UInt64(position)) != 0 : high[position]
    }
  }

  let options: YAMLDecoder
  let rootType: Any.Type
  var frames: [Frame] = []
  var trackers: [Tracker] = []

  init(options: YAMLDecoder, rootType: Any.Type) {
    self.options = options
    self.rootType = rootType
    frames.reserveCapacity(16)
    trackers.reserveCapacity(16)
  }

  var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

  var codingPath: [any CodingKey] { codingPath(depth: frames.count - 1, nested: []) }

  func codingPath(depth: Int, nested: [PathStep]) -> [any CodingKey] {
    var path: [any CodingKey] = []
    if depth >= 1 {
      for frame in frames[1...depth] {
        path += frame.nested.map(\.codingKey)
        if let step = frame.step { path.append(step.codingKey) }
      }
    }
    return path + nested.map(\.codingKey)
  }

  /// `Counter.State.repositories[0].stars`: the root type, then the steps to the value.
  func pathDescription(depth: Int, nested: [PathStep], last: PathStep? = nil) -> String {
    var out = typeName(rootType)
    if depth >= 1 {
      for frame in frames[1...min(depth, frames.count - 1)] {
        for step in frame.nested { step.render(into: &out) }
        frame.step?.render(into: &out)
      }
    }
    for step in nested { step.render(into: &out) }
    last?.render(into: &out)
    return out
  }

  var currentNode: YAMLNode { frames[frames.count - 1].node }

  // MARK: Decoding a value

  /// Decodes `T` from a node, then checks that it read every key of the mappings it opened.
  func unbox<T: Decodable>(_ node: YAMLNode, as type: T.Type, step: PathStep?, nested: [PathStep] = []) throws -> T {
    if let special = try unboxSpecial(node, as: type, step: step, nested: nested) { return special }
    frames.append(Frame(node: node, nested: nested, step: step, firstTracker: trackers.count, ownTracker: nil))
    defer {
      trackers.removeSubrange(frames[frames.count - 1].firstTracker...)
      frames.removeLast()
    }
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

  /// Foundation types whose own `Codable` form is not what a spec writes.
  func unboxSpecial<T>(_ node: YAMLNode, as type: T.Type, step: PathStep?, nested: [PathStep]) throws -> T? {
    if T.self == Date.self {
      return try unboxWithPath(node, step: step, nested: nested) { try self.unboxDate($0) } as? T
    }
    if T.self == Decimal.self {
      return try unboxWithPath(node, step: step, nested: nested) { try self.unboxDecimal($0) } as? T
    }
    if T.self == URL.self {
      return try unboxWithPath(node, step: step, nested: nested) { try self.unboxURL($0) } as? T
    }
    if T.self == UUID.self {
      return try unboxWithPath(node, step: step, nested: nested) { try self.unboxUUID($0) } as? T
    }
    if T.self == Data.self {
      return try unboxWithPath(node, step: step, nested: nested) { try self.unboxData($0) } as? T
    }
    return nil
  }

  private func unboxWithPath<V>(
    _ node: YAMLNode, step: PathStep?, nested: [PathStep], _ body: (YAMLNode) throws -> V
  ) throws -> V {
    frames.append(Frame(node: node, nested: nested, step: step, firstTracker: trackers.count, ownTracker: nil))
    defer { frames.removeLast() }
    return try body(node)
  }

  func checkUnknownKeys() throws {
    let frame = frames[frames.count - 1]
    guard frame.firstTracker < trackers.count else { return }
    for tracker in trackers[frame.firstTracker...] where tracker.consumed < tracker.mapping.count {
      for position in 0..<tracker.mapping.count where !tracker.isConsumed(position) {
        let entry = tracker.mapping.entries[position]
        let read = (0..<tracker.mapping.count).filter(tracker.isConsumed).map { tracker.mapping.entries[$0].name }
        let hint =
          Suggestion.closest(to: entry.name, in: tracker.missing)
          ?? Suggestion.closest(to: entry.name, in: read)
        throw YAMLError(
          "unknown key `\(entry.name)` in \(pathDescription(depth: tracker.depth, nested: tracker.nested))"
            + (hint.map { "; did you mean `\($0)`?" } ?? ""),
          at: entry.key)
      }
    }
  }

  // MARK: Errors

  func mismatch(expected: String, node: YAMLNode, depth: Int, nested: [PathStep], last: PathStep?) -> YAMLError {
    var message =
      "expected \(expected) for \(pathDescription(depth: depth, nested: nested, last: last)), found \(node.foundDescription)"
    if node.isNull, expected == "String" { message += " (write \"\" for an empty string)" }
    return YAMLError(message, at: node)
  }

  func mismatch(expected: String, node: YAMLNode) -> YAMLError {
    mismatch(expected: expected, node: node, depth: frames.count - 1, nested: [], last: nil)
  }

  /// Turns the errors that synthesized and hand-written `init(from:)` throw into located ones.
  func translate<T>(_ error: DecodingError, decoding type: T.Type) -> YAMLError {
    let node = currentNode
    let path = pathDescription(depth: frames.count - 1, nested: [])
    switch error {
    case .typeMismatch(_, let context) where context.debugDescription.hasPrefix("Invalid number of keys found"):
      // A synthesized enum decoder found no case it knows, or more than one.
      let names = caseNames(of: T.self)
      switch node.content {
      case .scalar(let scalar):
        return YAMLError(
          "unknown case `\(scalar.value)` for \(path)" + (names.map { Suggestion.hint(for: scalar.value, in: $0) } ?? ""),
          at: node)
      case .mapping(let mapping) where mapping.count == 1:
        let entry = mapping.entries[0]
        return YAMLError(
          "unknown case `\(entry.name)` for \(path)" + (names.map { Suggestion.hint(for: entry.name, in: $0) } ?? ""),
          at: entry.key)
      case .mapping(let mapping) where mapping.isEmpty:
        return YAMLError("expected one case for \(path), found an empty mapping", at: node)
      case .mapping(let mapping):
        let listed = mapping.keys.map { "`\($0)`" }.joined(separator: ", ")
        return YAMLError(
          "expected one case for \(path), found \(mapping.count) keys (\(listed)); write one action per step",
          at: mapping.entries[1].key)
      case .sequence:
        return mismatch(expected: "a case", node: node)
      }
    case .dataCorrupted(let context):
      if let names = caseNames(of: T.self), let scalar = node.scalar {
        return YAMLError(
          "unknown value `\(scalar.value)` for \(path)" + Suggestion.hint(for: scalar.value, in: names), at: node)
      }
      return YAMLError("cannot decode \(path): \(context.debugDescription)", at: node)
    case .keyNotFound(let key, _):
      return YAMLError("missing key `\(key.stringValue)` in \(path)", at: node)
    case .valueNotFound(let type, _):
      return YAMLError("expected \(typeName(type)) for \(path), found null", at: node)
    case .typeMismatch(let type, let context):
      let detail = context.debugDescription.isEmpty ? "expected \(typeName(type))" : context.debugDescription
      return YAMLError("cannot decode \(path): \(detail)", at: node)
    @unknown default:
      return YAMLError("cannot decode \(path): \(error)", at: node)
    }
  }

  func caseNames(of type: Any.Type) -> [String]? {
    if let names = options.caseNames?(type) { return names }
    if let iterable = type as? any (CaseIterable & Encodable).Type {
      return caseNamesOfIterable(iterable)
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
    switch node.content {
    case .mapping(let mapping):
      let tracker: Int
      if let own = frames[depth].ownTracker {
        tracker = own
      } else {
        tracker = trackers.count
        trackers.append(Tracker(mapping: mapping, depth: depth, nested: []))
        frames[depth].ownTracker = tracker
      }
      return KeyedDecodingContainer(
        KeyedContainer<Key>(
          decoder: self, node: node, source: .mapping(mapping, isPayload: false), depth: depth, nested: [],
          tracker: tracker))
    case .scalar where !node.isNull:
      return KeyedDecodingContainer(
        KeyedContainer<Key>(decoder: self, node: node, source: .caseName, depth: depth, nested: [], tracker: nil))
    default:
      throw mismatch(expected: "a mapping", node: node)
    }
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let node = currentNode
    guard case .sequence(let elements) = node.content else {
      throw mismatch(expected: "a sequence", node: node)
    }
    return UnkeyedContainer(decoder: self, node: node, elements: elements, depth: frames.count - 1, nested: [])
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    SingleValueContainer(decoder: self, node: currentNode, depth: frames.count - 1)
  }

  // MARK: Scalars

  func scalarText(_ node: YAMLNode, expected: @autoclosure () -> String, depth: Int, nested: [PathStep], last: PathStep?)
    throws -> String
  {
    guard case .scalar(let scalar) = node.content, !node.isNull else {
      throw mismatch(expected: expected(), node: node, depth: depth, nested: nested, last: last)
    }
    return scalar.value
  }

  func unboxString(_ node: YAMLNode, depth: Int, nested: [PathStep] = [], last: PathStep? = nil) throws -> String {
    try scalarText(node, expected: "String", depth: depth, nested: nested, last: last)
  }

  func unboxBool(_ node: YAMLNode, depth: Int, nested: [PathStep] = [], last: PathStep? = nil) throws -> Bool {
    let text = try scalarText(node, expected: "Bool", depth: depth, nested: nested, last: last)
    guard !node.isStringOnly, let value = ScalarResolver.bool(text) else {
      throw mismatch(expected: "Bool", node: node, depth: depth, nested: nested, last: last)
    }
    return value
  }

  func unboxInteger<T: FixedWidthInteger>(
    _ node: YAMLNode, as type: T.Type, depth: Int, nested: [PathStep] = [], last: PathStep? = nil
  ) throws -> T {
    if case .scalar(let scalar) = node.content, scalar.style == .plain, node.tag != .string,
      case .value(let value) = ScalarResolver.integer(scalar.value, as: T.self)
    {
      return value
    }
    let name = typeName(T.self)
    let text = try scalarText(node, expected: name, depth: depth, nested: nested, last: last)
    if !node.isStringOnly, case .overflow = ScalarResolver.integer(text, as: T.self) {
      throw YAMLError(
        "expected \(name) for \(pathDescription(depth: depth, nested: nested, last: last)), found \(text), "
          + "which is out of range (\(T.min)...\(T.max))", at: node)
    }
    throw mismatch(expected: name, node: node, depth: depth, nested: nested, last: last)
  }

  func unboxFloat<T: BinaryFloatingPoint & LosslessStringConvertible>(
    _ node: YAMLNode, as type: T.Type, depth: Int, nested: [PathStep] = [], last: PathStep? = nil
  ) throws -> T {
    let text = try scalarText(node, expected: typeName(T.self), depth: depth, nested: nested, last: last)
    guard !node.isStringOnly, let double = ScalarResolver.double(text) else {
      throw mismatch(expected: typeName(T.self), node: node, depth: depth, nested: nested, last: last)
    }
    // Parse finite numbers as `T` itself, so a `Float` is rounded once, not twice.
    let cleaned = text.utf8.contains(UInt8(ascii: "_")) ? text.replacingOccurrences(of: "_", with: "") : text
    let value = double.isFinite ? (T(cleaned) ?? T(double)) : T(double)
    if value.isInfinite, !text.lowercased().hasSuffix(".inf") {
      throw YAMLError(
        "expected \(typeName(T.self)) for \(pathDescription(depth: depth, nested: nested, last: last)), "
          + "found \(text), which is out of range", at: node)
    }
    return value
  }

  func unboxDate(_ node: YAMLNode) throws -> Date {
    let expected = "an ISO 8601 date (2024-05-01T09:00:00Z)"
    let text = try scalarText(node, expected: expected, depth: frames.count - 1, nested: [], last: nil)
    guard let date = ISO8601.parse(text) else { throw mismatch(expected: expected, node: node) }
    return date
  }

  func unboxDecimal(_ node: YAMLNode) throws -> Decimal {
    let text = try scalarText(node, expected: "Decimal", depth: frames.count - 1, nested: [], last: nil)
    guard !node.isStringOnly, let value = ScalarResolver.decimal(text) else {
      throw mismatch(expected: "Decimal", node: node)
    }
    return value
  }

  func unboxURL(_ node: YAMLNode) throws -> URL {
    let text = try scalarText(node, expected: "a URL", depth: frames.count - 1, nested: [], last: nil)
    guard let url = URL(string: text) else { throw mismatch(expected: "a URL", node: node) }
    return url
  }

  func unboxUUID(_ node: YAMLNode) throws -> UUID {
    let expected = "a UUID (00000000-0000-0000-0000-000000000000)"
    let text = try scalarText(node, expected: expected, depth: frames.count - 1, nested: [], last: nil)
    guard let uuid = UUID(uuidString: text) else { throw mismatch(expected: expected, node: node) }
    return uuid
  }

  func unboxData(_ node: YAMLNode) throws -> Data {
    let text = try scalarText(node, expected: "base64 data", depth: frames.count - 1, nested: [], last: nil)
    let compact = text.filter { !$0.isWhitespace }
    guard let data = Data(base64Encoded: compact) else { throw mismatch(expected: "base64 data", node: node) }
    return data
  }
}
