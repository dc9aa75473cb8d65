/// An error about a YAML file or a value in it, at the place that caused it.
///
/// Its `description` is the one line a compiler would print:
///
/// ```
/// specs/counter.yaml:12:15: error: expected Int for Counter.State.count, found the string "ten"
/// ```
///
/// and ``rendered`` adds the source line with a caret under the column.
public struct YAMLError: Error, Sendable, CustomStringConvertible, Equatable {
  /// Where the problem is; `nil` for values that did not come from a file.
  public var location: FileLocation?
  /// One sentence that says what is wrong, without the location.
  public var message: String
  package let source: SourceFile?

  public init(_ message: String, at location: FileLocation?) {
    self.message = message
    self.location = location
    self.source = nil
  }

  package init(_ message: String, source: SourceFile?, mark: Mark) {
    self.message = message
    self.source = source
    if let source {
      self.location = FileLocation(file: source.path, line: mark.line, column: mark.column)
    } else {
      self.location = nil
    }
  }

  package init(_ message: String, at node: YAMLNode) {
    self.init(message, source: node.source, mark: node.start)
  }

  /// `path:line:column: error: message` (or `error: message` without a location).
  public var description: String {
    guard let location else { return "error: \(message)" }
    return "\(location): error: \(message)"
  }

  /// The description, then the source line and a caret under the column, as compilers print them.
  public var rendered: String {
    guard let location, location.line > 0, let text = source?.line(location.line) else {
      return description
    }
    let prefix = text.unicodeScalars.prefix(max(0, location.column - 1))
    let padding = String(prefix.map { $0 == "\t" ? "\t" : " " })
    return "\(description)\n\(text)\n\(padding)^"
  }

  public static func == (lhs: YAMLError, rhs: YAMLError) -> Bool {
    lhs.location == rhs.location && lhs.message == rhs.message
  }
}
