import Foundation
import Testing
@testable import SpecRunner

@Suite struct DocumentFlatteningTests {
  /// A tree whose nodes come from several files (and from none) keeps every node's file and place.
  @Test func nodesOfSeveralFilesKeepTheirFiles() throws {
    let a = try YAMLParser.parse("x: 1\ny: [a, 'b']\n", path: "a.yaml")
    let b = try YAMLParser.parse("- !!str 2\n- { k: v }\n", path: "b.yaml")
    let c = try YAMLParser.parse("z: |\n  text\n", path: "c.yaml")
    let tree = YAMLNode.mapping([
      ("first", a), ("second", b), ("again", a), ("encoded", .scalar("3")), ("third", c), ("back", b),
      ("list", .sequence([c, .null, a])),
    ])
    let root = YAMLDocument(tree).root
    #expect(nodeDifference(root, tree) == nil)
    #expect(YAMLDocument(tree).nodeCount == 48)
  }

  @Test func errorsPointIntoTheFileOfTheirNode() throws {
    struct Pair: Decodable {
      var first: Int
      var second: Int
    }
    let a = try YAMLParser.parse("1", path: "a.yaml")
    let b = try YAMLParser.parse("\n  two", path: "b.yaml")
    let tree = YAMLNode.mapping([("first", a), ("second", b)])
    #expect(throws: (any Error).self) { try YAMLDecoder().decode(Pair.self, from: tree) }
    do {
      _ = try YAMLDecoder().decode(Pair.self, from: tree)
    } catch let error as YAMLError {
      #expect(error.location?.file == "b.yaml")
      #expect(error.location?.line == 2)
    }
  }
}
