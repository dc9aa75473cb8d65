import SpecYAML

/// The left-hand side of a state assignment: `count`, `repositories[0].stars`,
/// `scores["blob"]`, `todos[id=0].isComplete`, `login.email`, or `self`.
///
/// Paths read like the Swift they stand for: `repositories[0].stars: 5` is
/// `$0.repositories[0].stars = 5`.
public struct StatePath: Sendable, Hashable, CustomStringConvertible {
  /// One step of a path.
  public enum Component: Sendable, Hashable {
    /// `.name`: a field of a struct, or the case of an enum (`login.email`).
    case field(String)
    /// `[3]`: an element of an array.
    case index(Int)
    /// `["blob"]`: a value of a dictionary.
    case key(String)
    /// `[id=3]`: the element of a list whose `id` is 3 (an `IdentifiedArray`, a stack). For a
    /// list of `{ id: ID, state: S }` pairs, the path goes on inside the element's `state`.
    case id(String)
  }

  /// The steps; empty for `self`.
  public var components: [Component]
  /// Where each component starts in the path's text (0-based, in characters).
  package var offsets: [Int]
  /// The path as written.
  public let text: String

  /// `self`: the whole state.
  public var isSelf: Bool { components.isEmpty }

  public var description: String { text }

  public static func == (lhs: StatePath, rhs: StatePath) -> Bool { lhs.components == rhs.components }
  public func hash(into hasher: inout Hasher) { hasher.combine(components) }

  /// An error in a path's text, at a character offset into it.
  public struct ParseError: Error, Sendable, Equatable {
    public var message: String
    public var offset: Int
  }

  /// Parses a path.
  public init(parsing text: String) throws(ParseError) {
    self.text = text
    components = []
    offsets = []
    if text == "self" { return }
    // The usual path is one ASCII field name (`count`): read it without the general parser.
    if let field = Self.singleASCIIField(text) {
      components = [.field(field)]
      offsets = [0]
      return
    }
    let characters = Array(text.unicodeScalars)
    var index = 0

    func fail(_ message: String, at offset: Int) -> ParseError {
      ParseError(message: "invalid state path `\(text)`: \(message)", offset: offset)
    }
    func identifier() throws(ParseError) -> String {
      let start = index
      guard index < characters.count, Self.startsIdentifier(characters[index]) else {
        if index < characters.count {
          throw fail("expected a field name, found `\(characters[index])`", at: index)
        }
        throw fail("expected a field name after `.`", at: index)
      }
      while index < characters.count, Self.continuesIdentifier(characters[index]) {
        index += 1
      }
      return String(String.UnicodeScalarView(characters[start..<index]))
    }

    guard !characters.isEmpty else { throw fail("the path is empty", at: 0) }
    offsets.append(0)
    let first = try identifier()
    if first == "self" {
      throw fail("`self` stands alone; write `self: …` or the field's path without `self.`", at: 0)
    }
    components.append(.field(first))
    while index < characters.count {
      let start = index
      switch characters[index] {
      case ".":
        index += 1
        offsets.append(index)
        components.append(.field(try identifier()))
      case "[":
        index += 1
        guard index < characters.count else { throw fail("expected an index, `id=ID` or a quoted key after `[`", at: start) }
        let quote = characters[index]
        if index + 2 < characters.count, characters[index] == "i", characters[index + 1] == "d",
          characters[index + 2] == "="
        {
          // `[id=ID]`: ID is a quoted string, or the text up to `]`.
          index += 3
          var id = String.UnicodeScalarView()
          if index < characters.count, characters[index] == "\"" || characters[index] == "'" {
            let idQuote = characters[index]
            index += 1
            var closed = false
            while index < characters.count {
              let character = characters[index]
              index += 1
              if character == idQuote {
                closed = true
                break
              }
              id.append(character)
            }
            guard closed else { throw fail("the id's quote is not closed", at: start + 4) }
          } else {
            while index < characters.count, characters[index] != "]", characters[index] != " " {
              id.append(characters[index])
              index += 1
            }
            guard !id.isEmpty else { throw fail("expected an id after `[id=`, such as `[id=0]`", at: start + 4) }
          }
          guard index < characters.count, characters[index] == "]" else {
            throw fail("expected `]` after the id", at: index)
          }
          index += 1
          offsets.append(start)
          components.append(.id(String(id)))
        } else if quote == "\"" || quote == "'" {
          index += 1
          var key = String.UnicodeScalarView()
          var closed = false
          while index < characters.count {
            let character = characters[index]
            index += 1
            if character == quote {
              closed = true
              break
            }
            if character == "\\", quote == "\"", index < characters.count {
              key.append(characters[index])
              index += 1
              continue
            }
            key.append(character)
          }
          guard closed else { throw fail("the key's quote is not closed", at: start + 1) }
          guard index < characters.count, characters[index] == "]" else {
            throw fail("expected `]` after the key", at: index)
          }
          index += 1
          offsets.append(start)
          components.append(.key(String(key)))
        } else {
          var digits = 0
          var value = 0
          while index < characters.count, ("0"..."9").contains(characters[index]) {
            let (product, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = product.addingReportingOverflow(Int(characters[index].value - 48))
            guard !o1, !o2 else { throw fail("the index is too large", at: start + 1) }
            value = sum
            digits += 1
            index += 1
          }
          guard digits > 0 else {
            throw fail("expected an index, `id=ID` or a quoted key after `[`", at: start + 1)
          }
          guard index < characters.count, characters[index] == "]" else {
            throw fail("expected `]` after the index", at: index)
          }
          index += 1
          offsets.append(start)
          components.append(.index(value))
        }
      default:
        throw fail("expected `.`, `[` or the end, found `\(characters[index])`", at: index)
      }
    }
  }

  // MARK: Characters

  /// `_` or a letter. ASCII is decided without Unicode's property tables, which are slow
  /// to consult and would be for nearly every character of every path.
  @inline(__always)
  private static func startsIdentifier(_ character: Unicode.Scalar) -> Bool {
    guard character.isASCII else { return character.properties.isAlphabetic }
    let value = character.value | 0x20  // lowercased, for letters
    return character == "_" || (value >= 0x61 && value <= 0x7A)
  }

  /// `_`, a letter or a digit.
  @inline(__always)
  private static func continuesIdentifier(_ character: Unicode.Scalar) -> Bool {
    startsIdentifier(character) || (character.value >= 0x30 && character.value <= 0x39)
  }

  /// `text` when it is one ASCII field name other than `self`, which the general parser
  /// would read as `[.field(text)]`.
  private static func singleASCIIField(_ text: String) -> String? {
    var text = text
    let isField = text.withUTF8 { bytes -> Bool in
      guard let first = bytes.first, first < 0x80, startsIdentifier(Unicode.Scalar(first)) else { return false }
      return bytes.allSatisfy { $0 < 0x80 && continuesIdentifier(Unicode.Scalar($0)) }
    }
    return isField && text != "self" ? text : nil
  }

  /// The text of the first `count` components: `repositories[0]`.
  func prefix(_ count: Int) -> String {
    guard count > 0 else { return "self" }
    var out = ""
    for component in components.prefix(count) {
      switch component {
      case .field(let name): out += out.isEmpty ? name : "." + name
      case .index(let index): out += "[\(index)]"
      case .key(let key): out += "[" + quotedForMessage(key) + "]"
      case .id(let id): out += "[id=\(id)]"
      }
    }
    return out
  }
}
