/// The text of one YAML file, kept so that errors can quote the line they point at.
///
/// Every node that the parser builds refers to the `SourceFile` it came from, so a
/// position inside a node always knows its file.
public final class SourceFile: Sendable {
  /// The path as the caller gave it (relative paths stay relative).
  public let path: String
  /// The file's bytes, validated as UTF-8.
  public let bytes: [UInt8]

  public init(path: String, bytes: [UInt8]) {
    self.path = path
    self.bytes = bytes
  }

  /// The text of a 1-based line, without its line break, or `nil` past the end. Lines end
  /// where libyaml's do (``lineBreakLength(in:at:)``), so that a mark's line is the line
  /// shown.
  ///
  /// - Complexity: O(*n*) in the size of the file.
  public func line(_ number: Int) -> String? {
    guard number >= 1 else { return nil }
    var current = 1
    var start = 0
    var index = 0
    while index < bytes.count, current < number {
      let length = Self.lineBreakLength(in: bytes, at: index)
      if length > 0 {
        index += length
        current += 1
        start = index
      } else {
        index += 1
      }
    }
    guard current == number else { return nil }
    var end = start
    while end < bytes.count, Self.lineBreakLength(in: bytes, at: end) == 0 { end += 1 }
    if start == bytes.count, number > 1 { return "" }
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }

  /// The length in bytes of the line break at `index`, or 0: the breaks of YAML 1.1, which
  /// libyaml counts in its marks: `\n`, `\r\n`, a `\r` alone, and NEL (U+0085), LINE
  /// SEPARATOR (U+2028) and PARAGRAPH SEPARATOR (U+2029).
  @inlinable
  public static func lineBreakLength(in bytes: [UInt8], at index: Int) -> Int {
    switch bytes[index] {
    case 0x0A:
      return 1
    case 0x0D:
      return index + 1 < bytes.count && bytes[index + 1] == 0x0A ? 2 : 1
    case 0xC2:
      return index + 1 < bytes.count && bytes[index + 1] == 0x85 ? 2 : 0
    case 0xE2:
      return index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9)
        ? 3 : 0
    default:
      return 0
    }
  }
}

/// A 1-based line and column (in characters) inside a source file.
public struct Mark: Sendable, Hashable, Comparable, CustomStringConvertible {
  @usableFromInline var _line: UInt32
  @usableFromInline var _column: UInt32
  @usableFromInline var _offset: UInt32

  /// The 1-based line.
  public var line: Int { Int(_line) }
  /// The 1-based column, counted in Unicode scalars.
  public var column: Int { Int(_column) }
  /// The 0-based byte offset in the file.
  public var offset: Int { Int(_offset) }

  @inlinable @inline(__always)
  public init(line: Int, column: Int, offset: Int = 0) {
    _line = UInt32(clamping: line)
    _column = UInt32(clamping: column)
    _offset = UInt32(clamping: offset)
  }

  /// The mark of values that did not come from a file (encoded values).
  public static let none = Mark(line: 0, column: 0)

  public var description: String { "\(line):\(column)" }

  /// Marks are equal when they name the same line and column.
  public static func == (lhs: Mark, rhs: Mark) -> Bool {
    lhs._line == rhs._line && lhs._column == rhs._column
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(_line)
    hasher.combine(_column)
  }

  public static func < (lhs: Mark, rhs: Mark) -> Bool {
    (lhs._line, lhs._column) < (rhs._line, rhs._column)
  }
}

/// A place a user can open: a file path with a line and column.
public struct FileLocation: Sendable, Hashable, CustomStringConvertible {
  /// The file's path as it was given to the parser.
  public var file: String
  /// The 1-based line, or 0 when the location is the file as a whole.
  public var line: Int
  /// The 1-based column, or 0 when the location is the file as a whole.
  public var column: Int

  public init(file: String, line: Int, column: Int) {
    self.file = file
    self.line = line
    self.column = column
  }

  /// `path:line:column`, or only `path` for a location that is the whole file.
  public var description: String {
    line == 0 ? file : "\(file):\(line):\(column)"
  }
}
