import Foundation
import Testing

/// Keeps the documentation's walkthroughs true: the README's "Your first spec" (its two files
/// run with the real `reducer-spec`) and the check of a draft in `docs/authoring.md`. Each
/// block after `<!-- walkthrough: NAME -->`, in `README.md` or any `docs/*.md`, is compared
/// with what the command prints, times aside; a failure names the document and the line.
@Suite(.serialized) struct DocumentationWalkthroughTests {
  static let directory = BuiltCommand.packageRoot.appendingPathComponent("Tests/Fixtures/walkthrough")

  /// A block of the documentation: its text without its `$` line, and where it is.
  struct Block {
    var text: String
    /// `README.md:78`: the document and the line of the marker.
    var place: String
  }

  /// The fenced block after `<!-- walkthrough: NAME -->`, in the first document that has it.
  static func block(_ name: String) throws -> Block {
    let marker = "<!-- walkthrough: \(name) -->"
    for document in try DocumentationTranscriptTests.documents() {
      let text = try String(
        contentsOf: BuiltCommand.packageRoot.appendingPathComponent(document), encoding: .utf8)
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
      guard let index = lines.firstIndex(where: { $0 == marker }) else { continue }
      var body: [Substring] = []
      for line in lines[(index + 1)...].dropFirst() {  // the opening fence
        if line == "```" { break }
        if line.hasPrefix("$ ") { continue }
        body.append(line)
      }
      return Block(text: body.joined(separator: "\n") + "\n", place: "\(document):\(index + 1)")
    }
    throw Missing(name: name)
  }

  struct Missing: Error, CustomStringConvertible {
    var name: String
    var description: String { "no document has the block `<!-- walkthrough: \(name) -->`" }
  }

  /// Times and dates written as `TIME`.
  static func timeless(_ text: String) -> String {
    text.replacing(#/\(\d+\.\d+s\)/#, with: "(TIME)")
      .replacing(#/time="[0-9.]+"/#, with: #"time="TIME""#)
  }

  static func run(_ arguments: [String], in directory: URL) async throws -> BuiltCommand.Run {
    try await BuiltCommand.run(
      arguments, executable: BuiltCommand.productsDirectory.appendingPathComponent("reducer-spec"),
      directory: directory)
  }

  @Test func thePassingSpec() async throws {
    let run = try await Self.run(["counter.yaml"], in: Self.directory)
    let block = try Self.block("passing console")
    #expect(run.status == 0)
    #expect(Self.timeless(run.stdout) == Self.timeless(block.text), "\(block.place): the command printed\n\(run.stdout)")
  }

  /// "`reducer-spec check`" in `docs/authoring.md`: a draft with a misspelt action and key.
  @Test func theCheckOfADraft() async throws {
    let run = try await Self.run(
      ["check", "drafts"], in: BuiltCommand.packageRoot.appendingPathComponent("Tests/Fixtures/check"))
    let block = try Self.block("check")
    #expect(run.status == 1)
    #expect(run.stdout == block.text, "\(block.place): the command printed\n\(run.stdout)")
  }

  @Test func theWrongExpectation() async throws {
    let directory = Self.directory.appendingPathComponent("wrong")
    let junit = FileManager.default.temporaryDirectory.appendingPathComponent("walkthrough-\(UUID().uuidString).xml")
    defer { try? FileManager.default.removeItem(at: junit) }
    let run = try await Self.run(["counter.yaml", "--junit", junit.path], in: directory)
    let console = try Self.block("failing console")
    #expect(run.status == 1)
    #expect(Self.timeless(run.stdout) == Self.timeless(console.text), "\(console.place): the command printed\n\(run.stdout)")
    // The README shows the test case of the JUnit file, without the indentation of its suite.
    let xml = try String(contentsOf: junit, encoding: .utf8)
    let start = try #require(xml.range(of: "    <testcase "))
    let end = try #require(xml.range(of: "</testcase>\n"))
    let testcase = xml[start.lowerBound..<end.upperBound]
      .split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.hasPrefix("    ") ? $0.dropFirst(4) : $0 }
      .joined(separator: "\n")
    let block = try Self.block("failing junit")
    #expect(Self.timeless(testcase) == Self.timeless(block.text), "\(block.place): the JUnit file has\n\(testcase)")
  }
}
