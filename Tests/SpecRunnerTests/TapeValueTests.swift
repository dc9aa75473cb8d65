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
}
