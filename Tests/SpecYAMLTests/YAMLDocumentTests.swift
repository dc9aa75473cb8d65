import Foundation
import TestSupport
import Testing
@testable import SpecYAML

/// The flat document that the decoder reads: it must mean exactly what the node tree means.
@Suite struct YAMLDocumentTests {
  struct Header: Decodable, Equatable {
    var feature: String
  }

  struct Spec: Decodable, Equatable {
    var feature: String
    var count: Int
  }

  @Test func oneParseDecodesAsManyTypesAsNeeded() throws {
    let document = try YAMLParser().parseDocument(bytes: Array("feature: Counter\ncount: 3\n".utf8), path: "c.yaml")
    var lenient = YAMLDecoder()
    lenient.unknownKeys = .ignore
    #expect(try lenient.decode(Header.self, from: document) == Header(feature: "Counter"))
    #expect(try YAMLDecoder().decode(Spec.self, from: document) == Spec(feature: "Counter", count: 3))
    // The strict decoder still rejects what the type does not read.
    #expect(throws: YAMLError.self) { try YAMLDecoder().decode(Header.self, from: document) }
    // feature, Counter, count, 3 and the root mapping.
    #expect(document.nodeCount == 5)
  }

  @Test func theTreeOfADocumentIsTheParsersTree() throws {
    let text = "a: &x [1, { b: 'two' }]\nc: *x\nd: !!str 4\n"
    let document = try YAMLParser().parseDocument(bytes: Array(text.utf8), path: "t.yaml")
    let tree = try YAMLParser.parse(text, path: "t.yaml")
    #expect(YAMLEmitter.flow(document.root) == YAMLEmitter.flow(tree))
    // `'two'` is written double-quoted; `!!str 4` is quoted so that it reads back as a string.
    #expect(YAMLEmitter.flow(tree) == "{ a: [1, { b: \"two\" }], c: [1, { b: \"two\" }], d: \"4\" }")
    #expect(document.root["c"]?.start == Mark(line: 2, column: 4))
    #expect(document.root["d"]?.tag == .string)
  }

  @Test func aliasesAndMergesOfLargeMappingsDecode() throws {
    let keys = (0..<12).map { "k\($0): \($0)" }.joined(separator: ", ")
    let text = """
      base: &base { \(keys) }
      copy: *base
      merged:
        <<: *base
        k3: 30
        extra: 99
      """
    let decoded = try decode([String: [String: Int]].self, text)
    #expect(decoded["base"]?.count == 12)
    #expect(decoded["copy"] == decoded["base"])
    #expect(decoded["merged"]?.count == 13)
    #expect(decoded["merged"]?["k3"] == 30)
    #expect(decoded["merged"]?["k11"] == 11)
    #expect(decoded["merged"]?["extra"] == 99)
  }

  @Test func anAnchorInsideAMergedMappingStaysUsable() throws {
    let text = "a: { <<: &b { x: 1 }, y: 2 }\nc: *b\n"
    let decoded = try decode([String: [String: Int]].self, text)
    #expect(decoded == ["a": ["x": 1, "y": 2], "c": ["x": 1]])
  }

  @Test func unknownKeysInAnAliasedMappingPointAtTheAnchor() {
    struct Point: Decodable { var x: Int }
    #expect(
      decodeError([String: Point].self, "p: &p { x: 1, z: 2 }\nq: *p\n")
        == "spec.yaml:1:15: error: unknown key `z` in [String: YAMLDocumentTests.Point].p; did you mean `x`?")
  }

  @Test func duplicateKeysAfterAMergeAreStillFound() {
    let keys = (0..<10).map { "k\($0): \($0)" }.joined(separator: "\n  ")
    let text = "base: { a: 1 }\nm:\n  <<: { z: 0 }\n  \(keys)\n  k4: 40\n"
    #expect(parseError(text) == "spec.yaml:14:3: error: duplicate key `k4` in this mapping (first at 8:3)")
  }

  @Test func decodingAFileNamesItInErrors() throws {
    let file = try TemporaryFile(Array("feature: Counter\ncount: ten\n".utf8))
    #expect(throws: YAMLError.self) { try YAMLDecoder().decode(Spec.self, fromContentsOf: file.path) }
    do {
      _ = try YAMLDecoder().decode(Spec.self, fromContentsOf: file.path)
    } catch let error as YAMLError {
      #expect(error.description == "\(file.path):2:8: error: expected Int for YAMLDocumentTests.Spec.count, found the string \"ten\"")
    }
    let good = try TemporaryFile(Array("feature: Counter\ncount: 10\n".utf8))
    #expect(try YAMLDecoder().decode(Spec.self, fromContentsOf: good.path) == Spec(feature: "Counter", count: 10))
  }

  @Test func integersOutOfRangeTakeTheSlowPathToTheirMessage() throws {
    #expect(
      decodeError(Int8.self, "300")
        == "spec.yaml:1:1: error: expected Int8 for Int8, found 300, which is out of range (-128...127)")
    #expect(decodeError(UInt8.self, "-1") == "spec.yaml:1:1: error: expected UInt8 for UInt8, found -1, which is out of range (0...255)")
    #expect(try decode([Int].self, "[-0, 007, 1_000, 0x1F, +5]") == [0, 7, 1000, 31, 5])
  }
}
