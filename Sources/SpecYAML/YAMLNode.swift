/// A node of a YAML document: a scalar, a sequence or a mapping, with the place it
/// came from.
///
/// Aliases are already resolved (an alias is the node its anchor names) and merge
/// keys (`<<`) are already applied, so a tree of nodes is plain data. Nodes that an
/// encoder produced have no source and the mark ``Mark/none``.
public struct YAMLNode: Sendable {
  /// What a node holds.
  public enum Content: Sendable {
    case scalar(Scalar)
    case sequence([YAMLNode])
    case mapping(Mapping)
  }

  /// The node's value.
  public var content: Content
  /// Where the node starts: its first character (or its anchor or tag).
  public var start: Mark
  /// Where the node ends: just past its last character.
  public var end: Mark
  /// The file the node came from; `nil` for encoded nodes.
  public var source: SourceFile?
  /// An explicit tag (`!!str`, …), resolved to one the decoder knows.
  public var tag: Tag
  /// For encoded nodes: the node stands for an enum case (`increment`, `{ setCount: "4" }`).
  package var isEnumCase: Bool = false

  public init(
    _ content: Content, start: Mark = .none, end: Mark = .none, source: SourceFile? = nil, tag: Tag = .none
  ) {
    self.content = content
    self.start = start
    self.end = end
    self.source = source
    self.tag = tag
  }

  /// The place the node starts, as `path:line:column`; `nil` for encoded nodes.
  public var location: FileLocation? {
    source.map { FileLocation(file: $0.path, line: start.line, column: start.column) }
  }
}

// MARK: - Scalars

extension YAMLNode {
  /// The explicit tags that a spec may use. Any other tag is a parse error.
  public enum Tag: UInt8, Sendable, Hashable {
    /// No tag: the Swift type a scalar decodes into decides what it means.
    case none
    /// `!!str` or the non-specific `!`: the scalar is a string, as if quoted.
    case string
    /// YAML's other core tags (`!!int`, `!!float`, `!!bool`, `!!null`, `!!timestamp`,
    /// `!!binary`, `!!seq`, `!!map`): accepted and checked by the type the node decodes into.
    case int, float, bool, null, timestamp, binary, seq, map
  }

  /// How a scalar was written.
  public enum ScalarStyle: UInt8, Sendable {
    case plain, singleQuoted, doubleQuoted, literal, folded
  }

  /// A scalar's text and how it was written.
  public struct Scalar: Sendable, Hashable {
    public var value: String
    public var style: ScalarStyle

    public init(_ value: String, style: ScalarStyle = .plain) {
      self.value = value
      self.style = style
    }
  }

  /// A plain scalar node.
  public static func scalar(_ value: String, style: ScalarStyle = .plain) -> YAMLNode {
    YAMLNode(.scalar(Scalar(value, style: style)))
  }

  /// The plain scalar `null`.
  public static var null: YAMLNode { .scalar("null") }

  /// A sequence node.
  public static func sequence(_ elements: [YAMLNode]) -> YAMLNode {
    YAMLNode(.sequence(elements))
  }

  /// A mapping node from string keys; a repeated key keeps its last value.
  public static func mapping(_ pairs: [(String, YAMLNode)]) -> YAMLNode {
    var mapping = Mapping()
    for (key, value) in pairs { mapping[key] = value }
    return YAMLNode(.mapping(mapping))
  }

  /// The scalar, if the node is one.
  public var scalar: Scalar? {
    if case .scalar(let scalar) = content { return scalar }
    return nil
  }

  /// The elements, if the node is a sequence.
  public var sequence: [YAMLNode]? {
    if case .sequence(let elements) = content { return elements }
    return nil
  }

  /// The mapping, if the node is one.
  public var mapping: Mapping? {
    if case .mapping(let mapping) = content { return mapping }
    return nil
  }

  /// A scalar's text only if it can mean nothing but a string: quoted, block, or tagged `!!str`.
  package var isStringOnly: Bool {
    guard let scalar else { return false }
    return scalar.style != .plain || tag == .string
  }

  /// `true` for YAML's null: a plain `null`, `Null`, `NULL`, `~` or empty scalar, or `!!null`.
  public var isNull: Bool {
    guard case .scalar(let scalar) = content, scalar.style == .plain else { return false }
    return isNullScalar(scalar.value, tag: tag)
  }

  /// The value for a string key of a mapping node.
  ///
  /// - Complexity: O(1).
  public subscript(key: String) -> YAMLNode? {
    mapping?[key]
  }

  /// The node with its source and marks taken from another node (for values built in place of it).
  package func located(like other: YAMLNode) -> YAMLNode {
    var copy = self
    copy.start = other.start
    copy.end = other.end
    copy.source = other.source
    return copy
  }

  /// The node with the given source and marks (for values built in place of another).
  func located(start: Mark, end: Mark, source: SourceFile?) -> YAMLNode {
    var copy = self
    copy.start = start
    copy.end = end
    copy.source = source
    return copy
  }
}

// MARK: - Kind names for messages

extension YAMLNode {
  /// How a message names what it found: `a mapping`, `null`, `the string "ten"`, `the number 3.5`.
  package var foundDescription: String {
    switch content {
    case .mapping: return "a mapping"
    case .sequence: return "a sequence"
    case .scalar(let scalar):
      return describeScalar(scalar.value, isNull: isNull, isStringOnly: isStringOnly)
    }
  }
}

/// `true` for the text of a plain scalar that YAML reads as null.
func isNullScalar(_ text: String, tag: YAMLNode.Tag) -> Bool {
  if tag == .string { return false }
  switch text {
  case "", "~", "null", "Null", "NULL": return true
  default: return tag == .null
  }
}

/// How a message names a scalar it found: `null`, `the number 3.5`, `the string "ten"`.
func describeScalar(_ value: String, isNull: Bool, isStringOnly: Bool) -> String {
  if isNull { return "null" }
  let text = value.count > 40 ? String(value.prefix(40)) + "…" : value
  if !isStringOnly, ScalarResolver.looksNumeric(value) {
    return "the number \(text)"
  }
  return "the string \(quotedForMessage(text))"
}

/// A string in double quotes with its control characters escaped, for messages.
package func quotedForMessage(_ text: String) -> String {
  var out = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    case "\t": out += "\\t"
    case "\r": out += "\\r"
    default:
      if scalar.value < 0x20 {
        out += "\\u{\(String(scalar.value, radix: 16))}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
  }
  return out + "\""
}
