import Foundation
import SpecRunner
import SpecYAML

/// Markdown text for `reducer-spec doc`: code spans, escaped prose and tables, in the
/// GitHub Flavored Markdown that GitHub, GitLab and most editors render.
package enum Markdown {
  /// `text` as a code span on one line: line breaks become spaces, and the span's fence is
  /// one backtick longer than the longest run of backticks inside (padded with spaces when
  /// the text starts or ends with a backtick), so any text shows as written.
  ///
  /// A `|` is left as it is: ``cell(_:)`` escapes it when the span goes into a table.
  package static func code(_ text: String) -> String {
    let line = text.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ")
      .replacingOccurrences(of: "\r", with: " ")
    var longest = 0
    var run = 0
    for character in line {
      if character == "`" {
        run += 1
        longest = max(longest, run)
      } else {
        run = 0
      }
    }
    let fence = String(repeating: "`", count: longest + 1)
    let padded = line.hasPrefix("`") || line.hasSuffix("`") ? " \(line) " : line
    return fence + padded + fence
  }

  /// Plain text (a scenario's name, a tag) escaped so that Markdown shows it as written:
  /// emphasis, links, code, HTML (`<text>`) and entities are written with backslashes, and
  /// line breaks become spaces.
  package static func text(_ text: String) -> String {
    var out = ""
    for character in text {
      switch character {
      case "\\", "`", "*", "_", "[", "]", "<", ">", "|", "~", "&", "#":
        out.append("\\")
        out.append(character)
      case "\r\n", "\n", "\r":
        out.append(" ")
      default:
        out.append(character)
      }
    }
    // A line that starts like a list item or a setext underline.
    if let first = out.first, "-+=".contains(first) { out.insert("\\", at: out.startIndex) }
    return out
  }

  /// Markdown (a note, a message) made fit for one table cell: every `|` escaped (in code
  /// spans too, as tables need), line breaks as
  /// `<br>`, surrounding blank space trimmed.
  static func cell(_ markdown: String) -> String {
    let trimmed = markdown.trimmingCharacters(in: .whitespacesAndNewlines)
    var out = ""
    for character in trimmed {
      switch character {
      case "|": out += "\\|"
      case "\r\n", "\n", "\r": out += "<br>"
      default: out.append(character)
      }
    }
    return out
  }

  /// A table: a header row, its delimiter row, and one row per entry, every cell made fit
  /// with ``cell(_:)``. An empty cell is written as a single space (`|  |`).
  package static func table(header: [String], rows: [[String]]) -> String {
    func line(_ cells: [String]) -> String {
      "|" + cells.map { $0.isEmpty ? "  |" : " \(cell($0)) |" }.joined() + "\n"
    }
    var out = line(header)
    out += "|" + String(repeating: " --- |", count: header.count) + "\n"
    for row in rows { out += line(row) }
    return out
  }

  /// A name as a file name: letters, digits, `-`, `_` and `.` kept, anything else `-`.
  package static func fileName(_ name: String) -> String {
    let kept = String(
      name.unicodeScalars.map { scalar -> Character in
        let isKept = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
          || "-_.".unicodeScalars.contains(scalar)
        return isKept ? Character(scalar) : "-"
      })
    let trimmed = kept.drop { $0 == "." }
    return trimmed.isEmpty ? "feature" : String(trimmed)
  }
}
