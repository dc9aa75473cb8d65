import Foundation
import Testing

/// A code block after `<!-- repository file: PATH -->` in the README or `docs/` shows a file of
/// the repository, and must be that file, byte for byte: the README's `Package.swift` for a
/// team's package is `Examples/ShoppingList/Package.swift`, which CI builds
/// (`scripts/check-user-package`).
@Suite struct DocumentationFileTests {
  struct Shown: CustomTestStringConvertible, Sendable {
    var document: String
    var line: Int
    var path: String
    var text: String
    var testDescription: String { "\(document):\(line) (\(path))" }
  }

  static let marker = "<!-- repository file: "

  /// Every marked block of a document's lines.
  static func shownFiles(in lines: [Substring], document: String) -> [Shown] {
    var shown: [Shown] = []
    var index = 0
    while index < lines.count {
      let line = lines[index].trimmingCharacters(in: .whitespaces)
      index += 1
      guard line.hasPrefix(marker), line.hasSuffix("-->") else { continue }
      let path = line.dropFirst(marker.count).dropLast("-->".count).trimmingCharacters(in: .whitespaces)
      let start = index
      guard index < lines.count, lines[index].hasPrefix("```") else {
        shown.append(Shown(document: document, line: start, path: path, text: "(no code block after the marker)"))
        continue
      }
      index += 1
      var body: [Substring] = []
      while index < lines.count, lines[index] != "```" {
        body.append(lines[index])
        index += 1
      }
      shown.append(Shown(document: document, line: start, path: path, text: body.joined(separator: "\n") + "\n"))
    }
    return shown
  }

  static let shown: [Shown] = {
    (try? DocumentationTranscriptTests.documents())?.flatMap { document -> [Shown] in
      guard let text = try? String(contentsOf: BuiltCommand.packageRoot.appendingPathComponent(document), encoding: .utf8)
      else { return [] }
      return shownFiles(in: text.split(separator: "\n", omittingEmptySubsequences: false), document: document)
    } ?? []
  }()

  @Test func theReadmeShowsTheUserPackagesManifest() {
    #expect(Self.shown.contains { $0.document == "README.md" && $0.path == "Examples/ShoppingList/Package.swift" })
  }

  @Test(arguments: shown) func theBlockIsTheFile(_ shown: Shown) throws {
    let file = try String(contentsOf: BuiltCommand.packageRoot.appendingPathComponent(shown.path), encoding: .utf8)
    #expect(shown.text == file, "\(shown.document):\(shown.line) differs from \(shown.path)")
  }

  @Test func aBlockThatDiffersFromItsFileIsFound() {
    let lines = "text\n<!-- repository file: Package.swift -->\n```swift\nlet x = 1\n```\n"
      .split(separator: "\n", omittingEmptySubsequences: false)
    let found = Self.shownFiles(in: lines, document: "doc.md")
    #expect(found.map(\.path) == ["Package.swift"])
    #expect(found.map(\.text) == ["let x = 1\n"])
    #expect(found.map(\.line) == [2])
  }
}
