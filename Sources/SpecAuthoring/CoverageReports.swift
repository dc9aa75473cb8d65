import Foundation
import SpecProcess

/// What `reducer-spec coverage` writes: the console table, the JSON, and the lcov and
/// Cobertura files for coverage dashboards.
///
/// Dashboards count lines of source files. Behaviour has no source lines, so each feature
/// is a pseudo source file, `reducer-spec-coverage/FEATURE.txt` (see ``listing(of:)``),
/// whose line N is the feature's Nth item: its action cases, then its state fields, then
/// its stubs, in the order of the console and the JSON. A line's hits are how many steps
/// send or receive the action or check the field, or how many times the stub was called
/// (``BehaviourCoverage/Item/lineHits``).
package enum CoverageReports {
  package typealias Coverage = BehaviourCoverage
  package typealias Kind = BehaviourCoverage.Kind

  /// The pseudo source file of a feature, relative to the working directory.
  static func sourcePath(of feature: String) -> String { "reducer-spec-coverage/\(feature).txt" }

  /// The items of a feature in the pseudo source's line order, each with its kind.
  package static func lines(of feature: Coverage.FeatureCoverage) -> [(kind: Kind, item: Coverage.Item)] {
    Kind.allCases.flatMap { kind in feature.items(kind).map { (kind, $0) } }
  }

  /// The pseudo source of a feature: line N names its Nth item (`action alert.retry`).
  package static func listing(of feature: Coverage.FeatureCoverage) -> String {
    lines(of: feature).map { "\(singular($0.kind)) \($0.item.name)\n" }.joined()
  }

  package static func singular(_ kind: Kind) -> String {
    switch kind {
    case .actions: "action"
    case .fields: "field"
    case .stubs: "stub"
    }
  }

  // MARK: - Console

  /// A table with a feature per row, then what is not covered, by name.
  package static func console(_ coverage: Coverage, headings: (String) -> String = { $0 }) -> String {
    var out = ""
    let rows = coverage.features.map { feature in
      [feature.name] + Kind.allCases.map { cell(feature, $0) }
    }
    let header = ["feature", "actions", "fields", "stubs"]
    let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
    func line(_ cells: [String]) -> String {
      var text = ""
      for (column, cell) in cells.enumerated() {
        if column == 0 {
          text += cell.padding(toLength: widths[0], withPad: " ", startingAt: 0)
        } else {
          text += "   " + String(repeating: " ", count: widths[column] - cell.count) + cell
        }
      }
      return text + "\n"
    }
    out += headings(line(header))
    for row in rows { out += line(row) }
    if coverage.features.isEmpty { out += "No spec files of a registered feature were read.\n" }

    for feature in coverage.features {
      let lists = uncoveredLists(of: feature)
      guard !lists.isEmpty else { continue }
      out += "\n" + headings(feature.name + "\n")
      for (title, names) in lists {
        out += "  \(title):\n"
        for name in names { out += "    \(name)\n" }
      }
    }
    if !coverage.failedFiles.isEmpty {
      out += "\nNot counted: \(coverage.failedFiles.count) file"
        + (coverage.failedFiles.count == 1 ? "" : "s")
        + " with errors (`\(ProgramName.current) check` lists them):\n"
      for file in coverage.failedFiles { out += "  \(file)\n" }
    }
    return out
  }

  /// What a feature leaves uncovered, as titled lists of names (the empty ones left out).
  static func uncoveredLists(of feature: Coverage.FeatureCoverage) -> [(title: String, names: [String])] {
    let uncovered = { (items: [Coverage.Item]) in items.filter { !$0.isCovered } }
    let stubs = uncovered(feature.stubs)
    let lists = [
      ("actions that no step sends or receives", uncovered(feature.actions).map(\.name)),
      ("fields that no `state:` or `assert:` checks", uncovered(feature.fields).map(\.name)),
      ("stubs that no spec stubs", stubs.filter { $0.hits == 0 }.map(\.name)),
      ("stubs that specs stub but no scenario called", stubs.filter { $0.hits > 0 }.map(\.name)),
    ]
    return lists.filter { !$0.1.isEmpty }
  }

  /// `4/5  80.0%`, or `-` for a feature without any of the kind.
  static func cell(_ feature: Coverage.FeatureCoverage, _ kind: Kind) -> String {
    let items = feature.items(kind)
    guard let percent = feature.percent(kind) else { return "-" }
    return "\(items.filter(\.isCovered).count)/\(items.count) " + percentText(percent)
  }

  /// `80.0%`, padded to `100.0%`'s width.
  static func percentText(_ percent: Double) -> String {
    let text = String(format: "%.1f%%", percent)
    return String(repeating: " ", count: max(0, 6 - text.count)) + text
  }

  // MARK: - JSON

  package static func json(_ coverage: Coverage) -> JSONValue {
    func percent(_ value: Double?) -> JSONValue {
      // Tenths of a percent as text: the same on every platform.
      value.map { .string(String(format: "%.1f", $0)) } ?? .null
    }
    let features: [JSONValue] = coverage.features.map { feature in
      var entries: [(String, JSONValue)] = [("name", .string(feature.name)), ("files", .array(feature.files.map { .string($0) }))]
      for kind in Kind.allCases {
        let items = feature.items(kind)
        let list: [JSONValue] = items.map { item in
          switch kind {
          case .actions:
            .object([("name", .string(item.name)), ("sent", .integer(item.hits)), ("received", .integer(item.received))])
          case .fields:
            .object([("name", .string(item.name)), ("asserted", .integer(item.hits))])
          case .stubs:
            .object([
              ("name", .string(item.name)), ("stubbed", .integer(item.hits)),
              ("called", item.called.map { .integer($0) } ?? .null),
            ])
          }
        }
        entries.append(
          (kind.rawValue, .object([
            ("covered", .integer(items.filter(\.isCovered).count)), ("total", .integer(items.count)),
            ("percent", percent(feature.percent(kind))), ("items", .array(list)),
          ])))
      }
      return .object(entries)
    }
    return .object([
      ("features", .array(features)),
      ("failedFiles", .array(coverage.failedFiles.map { .string($0) })),
    ])
  }

  // MARK: - lcov

  /// An lcov tracefile: a record per feature (`SF:` its pseudo source), an `FN`/`FNDA` pair
  /// per item (named `action:NAME`, `field:NAME`, `stub:NAME`) and a `DA` line per item.
  package static func lcov(_ coverage: Coverage) -> String {
    var out = ""
    for feature in coverage.features {
      let lines = lines(of: feature)
      out += "TN:behaviour\n"
      out += "SF:\(sourcePath(of: feature.name))\n"
      for (index, line) in lines.enumerated() {
        out += "FN:\(index + 1),\(singular(line.kind)):\(line.item.name)\n"
      }
      for line in lines {
        out += "FNDA:\(line.item.lineHits),\(singular(line.kind)):\(line.item.name)\n"
      }
      let hit = lines.filter(\.item.isCovered).count
      out += "FNF:\(lines.count)\nFNH:\(hit)\n"
      for (index, line) in lines.enumerated() {
        out += "DA:\(index + 1),\(line.item.lineHits)\n"
      }
      out += "LF:\(lines.count)\nLH:\(hit)\n"
      out += "end_of_record\n"
    }
    return out
  }

  // MARK: - Cobertura

  /// A Cobertura XML report (coverage-04.dtd): a package per feature, a class per kind
  /// (`Counter.actions`) whose file is the feature's pseudo source, a method per item; and,
  /// with `--code`, the package of the code's source files, counted in the totals.
  package static func cobertura(
    _ coverage: Coverage, timestamp: Int, code: (xml: String, linesCovered: Int, linesValid: Int)? = nil
  ) -> String {
    func rate(_ covered: Int, _ total: Int) -> String {
      total == 0 ? "1" : String(format: "%.4f", Double(covered) / Double(total))
    }
    func escaped(_ text: String) -> String {
      text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
    let all = coverage.features.flatMap { lines(of: $0) }
    let covered = all.filter(\.item.isCovered).count + (code?.linesCovered ?? 0)
    let valid = all.count + (code?.linesValid ?? 0)
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    out += "<!DOCTYPE coverage SYSTEM \"http://cobertura.sourceforge.net/xml/coverage-04.dtd\">\n"
    out += "<coverage line-rate=\"\(rate(covered, valid))\" branch-rate=\"1\" lines-covered=\"\(covered)\""
      + " lines-valid=\"\(valid)\" branches-covered=\"0\" branches-valid=\"0\" complexity=\"0\""
      + " version=\"reducer-spec \(ProgramName.version)\" timestamp=\"\(timestamp)\">\n"
    out += "  <sources>\n    <source>.</source>\n  </sources>\n  <packages>\n"
    for feature in coverage.features {
      let lines = lines(of: feature)
      let hit = lines.filter(\.item.isCovered).count
      out += "    <package name=\"\(escaped(feature.name))\" line-rate=\"\(rate(hit, lines.count))\""
        + " branch-rate=\"1\" complexity=\"0\">\n      <classes>\n"
      var number = 0
      for kind in Kind.allCases {
        let items = feature.items(kind)
        let first = number + 1
        number += items.count
        guard !items.isEmpty else { continue }
        let numbered = items.enumerated().map { (first + $0.offset, $0.element) }
        out += "        <class name=\"\(escaped(feature.name)).\(kind.rawValue)\""
          + " filename=\"\(escaped(sourcePath(of: feature.name)))\""
          + " line-rate=\"\(rate(items.filter(\.isCovered).count, items.count))\" branch-rate=\"1\" complexity=\"0\">\n"
        out += "          <methods>\n"
        for (line, item) in numbered {
          out += "            <method name=\"\(escaped(item.name))\" signature=\"\""
            + " line-rate=\"\(item.isCovered ? "1" : "0")\" branch-rate=\"1\" complexity=\"0\">\n"
            + "              <lines>\n"
            + "                <line number=\"\(line)\" hits=\"\(item.lineHits)\" branch=\"false\"/>\n"
            + "              </lines>\n            </method>\n"
        }
        out += "          </methods>\n          <lines>\n"
        for (line, item) in numbered {
          out += "            <line number=\"\(line)\" hits=\"\(item.lineHits)\" branch=\"false\"/>\n"
        }
        out += "          </lines>\n        </class>\n"
      }
      out += "      </classes>\n    </package>\n"
    }
    out += code?.xml ?? ""
    out += "  </packages>\n</coverage>\n"
    return out
  }
}
