import Foundation
import Testing

/// Keeps `docs/your-own-architecture.md` true to its example: the page shows the adapter, its
/// feature and its spec, which SpecRunnerTests compiles and runs, each in a block after
/// `<!-- repository file: PATH -->`, and each block is its file, byte for byte.
@Suite struct OwnArchitectureDocumentationTests {
  static let document = "docs/your-own-architecture.md"

  @Test func thePageShowsTheExampleAsItIs() throws {
    let text = try String(
      contentsOf: BuiltCommand.packageRoot.appendingPathComponent(Self.document), encoding: .utf8)
    let shown = DocumentationFileTests.shownFiles(
      in: text.split(separator: "\n", omittingEmptySubsequences: false), document: Self.document)
    #expect(
      shown.map(\.path) == [
        "Tests/SpecRunnerTests/OwnArchitecture/PlainStore.swift",
        "Tests/SpecRunnerTests/OwnArchitecture/Pedometer.swift",
        "Tests/Fixtures/own-architecture/pedometer.yaml",
      ])
    for block in shown {
      let file = try String(
        contentsOf: BuiltCommand.packageRoot.appendingPathComponent(block.path), encoding: .utf8)
      if let line = Self.firstDifference(block.text, file) {
        // The marker's line, then the fence, then the block's lines.
        Issue.record("\(Self.document):\(block.line + 1 + line): the block differs from \(block.path), line \(line)")
      }
    }
  }

  /// The first line (from 1) where two texts differ, `nil` when they are the same.
  static func firstDifference(_ shown: String, _ file: String) -> Int? {
    guard shown != file else { return nil }
    let shown = shown.split(separator: "\n", omittingEmptySubsequences: false)
    let file = file.split(separator: "\n", omittingEmptySubsequences: false)
    return (shown.indices.first { $0 >= file.count || shown[$0] != file[$0] } ?? shown.count) + 1
  }

  @Test func aDifferenceIsFoundAtItsLine() {
    #expect(Self.firstDifference("a\nb\n", "a\nb\n") == nil)
    #expect(Self.firstDifference("a\nb\nc\n", "a\nx\nc\n") == 2)
    #expect(Self.firstDifference("a\n", "a\nb\n") == 2)
  }
}
