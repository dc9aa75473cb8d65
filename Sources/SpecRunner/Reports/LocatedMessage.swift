import Foundation
import SpecYAML

// MARK: - A message at a place in a spec file

/// A message at a file, line and column, laid out as compilers print it:
///
/// ```
/// specs/counter.yaml:14:9: error: A state change does not match expectation.
///       - send: decrement
///         ^
///
///     −   count: 0,
///     +   count: -1,
///
/// (Expected: −, Actual: +)
/// ```
///
/// The heading is the message's first line; the source line and the caret come only
/// when the location has a line and the source line is known; the rest of the message
/// (a diff and its legend) follows as it is. The console indents and colours these
/// lines; the JUnit file and the GitHub annotations use them as plain text.
struct LocatedMessage {
  var location: FileLocation
  /// The message's first line.
  var heading: String
  /// The source line at the location, when there is one to show.
  var sourceLine: String?
  /// The padding and caret under the column, when a source line is shown.
  var caret: String?
  /// The message's other lines, in order (blank lines are empty strings).
  var rest: [String]

  init(location: FileLocation, message: String, sourceLine: String?) {
    self.location = location
    var lines = message.lines
    heading = lines.isEmpty ? "" : lines.removeFirst()
    rest = lines
    if location.line > 0, let sourceLine {
      self.sourceLine = sourceLine
      if location.column > 0 {
        caret = Self.caretLine(under: location.column, of: sourceLine)
      }
    }
  }

  init(_ failure: StepFailure) {
    self.init(location: failure.location, message: failure.message, sourceLine: failure.sourceLine)
  }

  init(_ error: SpecFileError) {
    self.init(location: error.location, message: error.message, sourceLine: error.sourceLine)
  }

  /// `path:line:column: error: ` without the heading.
  var prefix: String { "\(location): " }

  /// Every line, plain text, without indentation.
  var plainLines: [String] {
    var lines = ["\(prefix)error: \(heading)"]
    if let sourceLine { lines.append(sourceLine) }
    if let caret { lines.append(caret) }
    return lines + rest
  }

  /// The lines joined with line feeds.
  var plainText: String { plainLines.joined(separator: "\n") }

  /// The lines after `path:line:column: error: `, as the console prints them without colour
  /// (trailing spaces removed): the heading, the source line, the caret and the rest. For
  /// reports that show the location themselves, like an issue that SpecTesting records.
  var linesAfterLocation: [String] {
    var lines = [heading]
    if let sourceLine { lines.append(sourceLine) }
    if let caret { lines.append(caret) }
    return (lines + rest).map(\.withoutTrailingWhitespace)
  }

  /// Spaces (tabs where the source line has a tab) up to the column, then `^`. The
  /// column counts Unicode scalars, as the parser's marks do.
  static func caretLine(under column: Int, of line: String) -> String {
    var padding = ""
    var scalars = line.unicodeScalars.makeIterator()
    for _ in 1..<max(column, 1) {
      padding.unicodeScalars.append(scalars.next() == "\t" ? "\t" : " ")
    }
    return padding + "^"
  }
}

extension StepFailure {
  /// The failure as the console report prints it after `path:line:column: error: `: the
  /// message's first line, the source line and a caret under the column, then the diff and
  /// its legend, one string without colour.
  package var reportText: String { LocatedMessage(self).linesAfterLocation.joined(separator: "\n") }
}

extension SpecFileError {
  /// The error as the console report prints it after `path:line:column: error: `, like
  /// ``StepFailure/reportText``.
  package var reportText: String { LocatedMessage(self).linesAfterLocation.joined(separator: "\n") }
}

// MARK: - Text helpers shared by the reporters

extension String {
  /// The lines of the text: split at every line break (`\n`, `\r\n`, `\r`), blank lines kept.
  var lines: [String] {
    split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
  }

  /// The text without trailing spaces and tabs.
  var withoutTrailingWhitespace: String {
    // Most lines end otherwise: when the last byte is neither a space nor a tab, the last
    // character is not one either (each is a character of one byte), and the text is kept
    // as it is, without walking back by characters or copying it.
    if let last = utf8.last, last != UInt8(ascii: " "), last != UInt8(ascii: "\t") { return self }
    var end = endIndex
    while end > startIndex {
      let previous = index(before: end)
      guard self[previous] == " " || self[previous] == "\t" else { break }
      end = previous
    }
    return String(self[..<end])
  }

  /// The first line, or the whole text when it has one line.
  var firstLine: String { lines.first ?? "" }
}

/// `1 file` or `2 files`; the plural is the singular with an `s` unless given.
package func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
  "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
}
