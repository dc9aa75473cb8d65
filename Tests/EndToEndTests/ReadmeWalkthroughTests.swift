import Foundation
import Testing

/// Keeps the README's walkthrough ("Your first spec") true: runs its two files with the real
/// `reducer-spec` and compares the output with the README's blocks, times aside.
@Suite(.serialized) struct ReadmeWalkthroughTests {
  static let directory = PoolFixture.packageRoot.appendingPathComponent("Tests/Fixtures/walkthrough")

  /// The fenced block after `<!-- walkthrough: NAME -->` in the README, without its `$` line.
  static func block(_ name: String) throws -> String {
    let readme = try String(contentsOf: PoolFixture.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let marker = "<!-- walkthrough: \(name) -->\n"
    guard let start = readme.range(of: marker) else { throw Missing(name: name) }
    let rest = readme[start.upperBound...]
    let lines = rest.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()  // the opening fence
    var body: [Substring] = []
    for line in lines {
      if line == "```" { break }
      if line.hasPrefix("$ ") { continue }
      body.append(line)
    }
    return body.joined(separator: "\n") + "\n"
  }

  struct Missing: Error { var name: String }

  /// Times and dates written as `TIME`.
  static func timeless(_ text: String) -> String {
    text.replacing(#/\(\d+\.\d+s\)/#, with: "(TIME)")
      .replacing(#/time="[0-9.]+"/#, with: #"time="TIME""#)
  }

  static func run(_ arguments: [String], in directory: URL) async throws -> PoolFixture.Run {
    try await PoolFixture.run(
      arguments, executable: PoolFixture.productsDirectory.appendingPathComponent("reducer-spec"),
      directory: directory)
  }

  @Test func thePassingSpec() async throws {
    let run = try await Self.run(["counter.yaml"], in: Self.directory)
    #expect(run.status == 0)
    #expect(Self.timeless(run.stdout) == Self.timeless(try Self.block("passing console")))
  }

  /// "`reducer-spec check`": a draft with a misspelt action and key.
  @Test func theCheckOfADraft() async throws {
    let run = try await Self.run(
      ["check", "drafts"], in: PoolFixture.packageRoot.appendingPathComponent("Tests/Fixtures/check"))
    #expect(run.status == 1)
    #expect(run.stdout == (try Self.block("check")))
  }

  @Test func theWrongExpectation() async throws {
    let directory = Self.directory.appendingPathComponent("wrong")
    let junit = FileManager.default.temporaryDirectory.appendingPathComponent("walkthrough-\(UUID().uuidString).xml")
    defer { try? FileManager.default.removeItem(at: junit) }
    let run = try await Self.run(["counter.yaml", "--junit", junit.path], in: directory)
    #expect(run.status == 1)
    #expect(Self.timeless(run.stdout) == Self.timeless(try Self.block("failing console")))
    // The README shows the test case of the JUnit file, without the indentation of its suite.
    let xml = try String(contentsOf: junit, encoding: .utf8)
    let start = try #require(xml.range(of: "    <testcase "))
    let end = try #require(xml.range(of: "</testcase>\n"))
    let testcase = xml[start.lowerBound..<end.upperBound]
      .split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.hasPrefix("    ") ? $0.dropFirst(4) : $0 }
      .joined(separator: "\n")
    #expect(Self.timeless(testcase) == Self.timeless(try Self.block("failing junit")))
  }
}
