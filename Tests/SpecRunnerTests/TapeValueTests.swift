import Foundation
import Testing

@testable import SpecRunner

/// Values of a spec file are decoded from the file's tape, rooted at the value, rather than
/// from a node tree of the value: both must decode, and fail, alike.
@MainActor
@Suite struct TapeValueTests {
  let text = """
    a: &anchor
      b: ten
      c: [1, 2]
    d: { e: *anchor }
    f: 3
    """

  func tape() throws -> Tape {
    try YAMLParser().parseDocument(bytes: Array(text.utf8), path: "v.yaml").tape
  }

  func valueRef(_ tape: Tape, _ path: [String]) -> Int {
    var ref = tape.root
    for key in path { ref = tape.lookup(key, in: ref)!.value }
    return ref
  }

  @Test func aValueDecodesFromTheTapeAsFromItsNode() throws {
    let tape = try tape()
    for path in [["a", "c"], ["d", "e", "c"]] {
      let ref = valueRef(tape, path)
      let fromTape = try YAMLDecoder().decode([Int].self, from: SpecValue(tape, ref).document)
      let fromNode = try YAMLDecoder().decode([Int].self, from: tape.node(at: ref))
      #expect(fromTape == [1, 2])
      #expect(fromTape == fromNode)
    }
  }

  @Test func aValueFailsFromTheTapeAsFromItsNode() throws {
    let tape = try tape()
    for path in [["a"], ["d", "e"], ["a", "b"], ["f"]] {
      let ref = valueRef(tape, path)
      let value = SpecValue(tape, ref)
      #expect(throws: YAMLError.self) { try YAMLDecoder().decode([String: Int].self, from: value.document) }
      var fromTape: YAMLError?
      var fromNode: YAMLError?
      do { _ = try YAMLDecoder().decode([String: Int].self, from: value.document) } catch let error as YAMLError {
        fromTape = error
      }
      do { _ = try YAMLDecoder().decode([String: Int].self, from: tape.node(at: ref)) } catch let error as YAMLError {
        fromNode = error
      }
      #expect(fromTape?.description == fromNode?.description)
      #expect(value.error("x").description == YAMLError("x", at: value.node).description)
    }
  }

  @Test func theMemoDecodesFromTheTapeAsFromNodes() throws {
    let tape = try tape()
    let memo = DecodeMemo()
    let ref = valueRef(tape, ["a", "c"])
    let fromTape = try memo.decode([Int].self, from: SpecValue(tape, ref).document, with: YAMLDecoder())
    let fromNode = try memo.decode([Int].self, from: tape.node(at: ref), with: YAMLDecoder())
    #expect(fromTape == [1, 2])
    #expect(fromNode == [1, 2])
  }

  /// What a value says, as a scalar or as the pairs of a mapping: values that pack alike
  /// but differ must decode apart through the memo.
  struct Written: Decodable, Equatable {
    struct Key: CodingKey {
      var stringValue: String
      var intValue: Int? { nil }
      init(stringValue: String) { self.stringValue = stringValue }
      init?(intValue: Int) { nil }
    }
    var text: String

    init(from decoder: any Decoder) throws {
      if let scalar = try? decoder.singleValueContainer().decode(String.self) {
        text = "scalar \(scalar.unicodeScalars.map { String($0.value) })"
        return
      }
      let container = try decoder.container(keyedBy: Key.self)
      text = try container.allKeys.map {
        "\(Array($0.stringValue.utf8)) = \(Array(try container.decode(String.self, forKey: $0).utf8))"
      }.joined(separator: ", ")
    }
  }

  @Test func theMemoTellsApartShortValuesThatShareTheirBytes() throws {
    let text = #"""
      - { a: bc }
      - { ab: c }
      - { abc: "" }
      - abc
      - "abc"
      - { a: "bc" }
      - ""
      - { "": "" }
      - "a\0"
      - "a"
      - { "a\0": "" }
      - { a: "\0" }
      - abcdefghijklmnopqrstuvwxyz0123
      - abcdefghijklmnopqrstuvwxyz01234
      - { abcdefghijklmno: pqrstuvwxyz0123 }
      - { abcdefghijklmno: pqrstuvwxyz01234 }
      - { abcdefghijklmnopqrstuvwxyz0123: "" }
      """#
    let tape = try YAMLParser().parseDocument(bytes: Array(text.utf8), path: "v.yaml").tape
    let memo = DecodeMemo()
    var expected: [String] = []
    var element = tape.nodes[tape.root].first
    while element != Tape.none {
      let document = SpecValue(tape, Int(element)).document
      expected.append(try YAMLDecoder().decode(Written.self, from: document).text)
      element = tape.nodes[Int(element)].next
    }
    #expect(Set(expected).count == expected.count - 2)  // `abc` and `"abc"`, `{ a: bc }` and `{ a: "bc" }`
    for _ in 1...2 {
      var index = 0
      element = tape.nodes[tape.root].first
      while element != Tape.none {
        let document = SpecValue(tape, Int(element)).document
        #expect(try memo.decode(Written.self, from: document, with: YAMLDecoder()).text == expected[index])
        index += 1
        element = tape.nodes[Int(element)].next
      }
    }
  }

  @Test func theMemoStartsOverPastItsLimitAndStillDecodesEveryValue() throws {
    let count = DecodeMemo.limit + 100
    let text = (0..<count).map { "- { v: \($0) }" }.joined(separator: "\n")
    let tape = try YAMLParser().parseDocument(bytes: Array(text.utf8), path: "v.yaml").tape
    let memo = DecodeMemo()
    for _ in 1...2 {
      var index = 0
      var element = tape.nodes[tape.root].first
      while element != Tape.none {
        let value = try memo.decode([String: Int].self, from: SpecValue(tape, Int(element)).document, with: YAMLDecoder())
        #expect(value == ["v": index])
        index += 1
        element = tape.nodes[Int(element)].next
      }
      #expect(index == count)
    }
  }

  /// `state:` mappings whose keys pack alike but differ keep their own paths through the
  /// memo's list of recent keys, and a key list seen before gives the same paths again.
  @Test func theMemoKeepsThePathsOfEachListOfKeys() throws {
    let text = """
      - { ab: 1 }
      - { a: 1, b: 2 }
      - { "ab": 1 }
      - { a.b: 1 }
      - { b: 1, a: 2 }
      - { ab: 1 }
      - { a: 1, b: 2 }
      - { ab: 1, c: 2 }
      - { a: 1, bc: 2 }
      - { "items[0]": 1, "x": 2 }
      - { abcdefghijklmnopqrstuvwxyz01234: 1 }
      - { abcdefghijklmnopqrstuvwxyz0123: 1 }
      - {}
      """
    let tape = try YAMLParser().parseDocument(bytes: Array(text.utf8), path: "v.yaml").tape
    let memo = DecodeMemo()
    for _ in 1...2 {
      var element = tape.nodes[tape.root].first
      while element != Tape.none {
        let value = SpecValue(tape, Int(element))
        let expected = try StateAssignment.parse(value.node).map(\.path.text)
        #expect(try memo.paths(of: value).map(\.text) == expected)
        element = tape.nodes[Int(element)].next
      }
    }
  }

  /// A state with a list, so that a default made again may or may not share its storage.
  struct Board: Codable, Equatable {
    var count = 0
    var names: [String] = []
  }

  @Test func theMemoKeepsADefaultStatesEncodingAndAgreesWithApplyingEveryTime() throws {
    let memo = DecodeMemo()
    let decoder = YAMLDecoder()
    func value(_ text: String) throws -> SpecValue {
      let tape = try YAMLParser().parseDocument(bytes: Array(text.utf8), path: "spec.yaml").tape
      return SpecValue(tape, tape.root)
    }
    func assignments(_ text: String) throws -> [StateAssignment] {
      try StateAssignment.parse(YAMLParser.parse(text, path: "spec.yaml"))
    }
    // The same default (the same bytes) twice, then defaults with other lists, then the first again.
    let starts = [Board(), Board(), Board(count: 3), Board(names: ["a"]), Board(names: ["b"]), Board()]
    // Some fields, then every field (in the encoding's order and in another), which is
    // decoded from the tape without the default's encoding.
    let texts = ["count: 7", "names: [x, y]", "count: 1\nnames: []", "names: [z]\ncount: 2", "{}"]
    for start in starts {
      for text in texts {
        let expected = try StateAssignment.apply(assignments(text), to: start, decoder: decoder)
        #expect(try memo.initialState(value(text), to: start, decoder: decoder) == expected)
      }
    }
  }

  /// A mapping that sets every field but does not decode fails as applying it fails: at the
  /// assignment, with the same message.
  @Test func anInitialStateThatSetsEveryFieldFailsAtTheAssignmentThatDoesNotDecode() throws {
    let memo = DecodeMemo()
    let decoder = YAMLDecoder()
    for text in ["count: many", "count: many\nnames: []", "names: [x]\ncount: [1]"] {
      let tape = try YAMLParser().parseDocument(bytes: Array(text.utf8), path: "spec.yaml").tape
      let applying = #expect(throws: YAMLError.self) {
        try StateAssignment.apply(
          StateAssignment.parse(YAMLParser.parse(text, path: "spec.yaml")), to: Board(), decoder: decoder)
      }
      let fromMemo = #expect(throws: YAMLError.self) {
        try memo.initialState(SpecValue(tape, tape.root), to: Board(), decoder: decoder)
      }
      #expect(fromMemo?.description == applying?.description)
      #expect(fromMemo?.location == applying?.location)
    }
  }
}
