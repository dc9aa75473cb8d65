import Foundation
import Testing
@testable import SpecYAML

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

/// Where two nodes differ in content, tags, enum marks, places, files or key lookup; `nil`
/// when they do not.
func nodeDifference(_ a: YAMLNode, _ b: YAMLNode, at path: String = "$") -> String? {
  if a.tag != b.tag { return "\(path): tag \(a.tag) vs \(b.tag)" }
  if a.isEnumCase != b.isEnumCase { return "\(path): isEnumCase \(a.isEnumCase) vs \(b.isEnumCase)" }
  if a.start != b.start || a.end != b.end { return "\(path): marks differ" }
  if a.source.map(ObjectIdentifier.init) != b.source.map(ObjectIdentifier.init) { return "\(path): sources differ" }
  switch (a.content, b.content) {
  case (.scalar(let x), .scalar(let y)):
    return x == y ? nil : "\(path): scalar \(x) vs \(y)"
  case (.sequence(let x), .sequence(let y)):
    guard x.count == y.count else { return "\(path): \(x.count) vs \(y.count) elements" }
    for (offset, pair) in zip(x, y).enumerated() {
      if let difference = nodeDifference(pair.0, pair.1, at: "\(path)[\(offset)]") { return difference }
    }
    return nil
  case (.mapping(let x), .mapping(let y)):
    guard x.count == y.count else { return "\(path): \(x.keys) vs \(y.keys)" }
    for (offset, pair) in zip(x.entries, y.entries).enumerated() {
      if let difference = nodeDifference(pair.0.key, pair.1.key, at: "\(path).key\(offset)") { return difference }
      if let difference = nodeDifference(pair.0.value, pair.1.value, at: "\(path).\(pair.0.name)") {
        return difference
      }
      if x.position(of: pair.0.name) != offset || y.position(of: pair.1.name) != offset {
        return "\(path): lookup of \(pair.0.name)"
      }
    }
    return nil
  default:
    return "\(path): kinds differ"
  }
}
