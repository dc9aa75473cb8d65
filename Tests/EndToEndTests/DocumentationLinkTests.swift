import Foundation
import Testing

/// Keeps the documentation's links working: every relative link of `README.md`, `docs/*.md`
/// and `Benchmarks/README.md` names a file of the repository, and its `#anchor`, if any, a
/// heading of that file (as GitHub makes anchors of headings). No link leaves the repository.
@Suite struct DocumentationLinkTests {
  struct Link: CustomStringConvertible {
    var document: String
    var line: Int
    var target: String
    var description: String { "\(document):\(line): (\(target))" }
  }

  static func documents() throws -> [String] {
    try DocumentationTranscriptTests.documents() + ["Benchmarks/README.md"]
  }

  static func text(of document: String) throws -> String {
    try String(contentsOf: BuiltCommand.packageRoot.appendingPathComponent(document), encoding: .utf8)
  }

  /// The lines of a document outside its fenced code blocks, with their line numbers.
  static func prose(_ text: String) -> [(line: Int, text: Substring)] {
    var inFence = false
    var lines: [(Int, Substring)] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if line.hasPrefix("```") {
        inFence.toggle()
        continue
      }
      if !inFence { lines.append((index + 1, line)) }
    }
    return lines
  }

  /// GitHub's anchor of a heading: lower case, without punctuation but `-` and `_`, spaces as
  /// `-`; a repeated anchor gets `-1`, `-2`….
  static func anchors(of text: String) -> Set<String> {
    var anchors: Set<String> = []
    var seen: [String: Int] = [:]
    for (_, line) in prose(text) where line.hasPrefix("#") {
      let title = line.drop(while: { $0 == "#" })
      guard title.first == " " else { continue }
      let slug = String(
        title.trimmingCharacters(in: .whitespaces).lowercased()
          .filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == " " }
          .map { $0 == " " ? "-" : $0 })
      let count = seen[slug, default: 0]
      seen[slug] = count + 1
      anchors.insert(count == 0 ? slug : "\(slug)-\(count)")
    }
    return anchors
  }

  /// Every `[text](target)` outside code blocks and code spans.
  static func links(in document: String) throws -> [Link] {
    var links: [Link] = []
    for (number, line) in prose(try text(of: document)) {
      let withoutCode = String(line).replacing(#/``[^`]*``|`[^`]*`/#, with: "")
      for match in withoutCode.matches(of: #/\]\(([^)\s]+)\)/#) {
        links.append(Link(document: document, line: number, target: String(match.output.1)))
      }
    }
    return links
  }

  @Test func everyLinkNamesAFileAndAHeadingOfTheRepository() throws {
    let root = BuiltCommand.packageRoot.standardizedFileURL
    var checked = 0
    for document in try Self.documents() {
      for link in try Self.links(in: document) {
        if link.target.hasPrefix("https://") || link.target.hasPrefix("http://") { continue }
        checked += 1
        let parts = link.target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0])
        let target =
          path.isEmpty
          ? root.appendingPathComponent(document)
          : root.appendingPathComponent(document).deletingLastPathComponent().appendingPathComponent(path)
            .standardizedFileURL
        #expect(
          target.path.hasPrefix(root.path + "/"), "\(link): the link leaves the repository")
        #expect(FileManager.default.fileExists(atPath: target.path), "\(link): no such file")
        if parts.count == 2, target.pathExtension == "md", FileManager.default.fileExists(atPath: target.path) {
          let anchors = Self.anchors(of: try String(contentsOf: target, encoding: .utf8))
          #expect(anchors.contains(String(parts[1])), "\(link): no such heading in \(target.lastPathComponent)")
        }
      }
    }
    #expect(checked > 0)
  }

  @Test func noDocumentNamesAFileOutsideTheRepository() throws {
    for document in try Self.documents() {
      let text = try Self.text(of: document)
      #expect(!text.contains("../shared"), "\(document) names ../shared")
      #expect(!text.contains("SPEC-FORMAT.md"), "\(document) names SPEC-FORMAT.md")
    }
  }

  @Test func anchorsAreGitHubs() {
    let text = """
      # The command line
      ## Worker processes: traps, hangs and output
      ### JUnit XML (`--junit FILE`)
      ## `reducer-spec schema [NAME] [-o FILE]`
      ### Messages
      ### Messages
      ```
      # not a heading
      ```
      """
    #expect(
      Self.anchors(of: text) == [
        "the-command-line", "worker-processes-traps-hangs-and-output", "junit-xml---junit-file",
        "reducer-spec-schema-name--o-file", "messages", "messages-1",
      ])
  }
}
