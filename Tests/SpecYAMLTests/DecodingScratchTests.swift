import Foundation
import Testing
@testable import SpecYAML

/// `DecodingScratch`: decodes that reuse one set of buffers give the values and the messages
/// of decodes that do not, whatever came before them, and a decode never shares the buffers
/// with another one that still holds them.
@Suite struct DecodingScratchTests {
  enum Move: Codable, Equatable {
    case stay
    case step(Int)
    case jump(to: Int, height: Double)
  }

  struct Walk: Codable, Equatable {
    var name: String
    var moves: [Move]
    var tags: [String: Int]?
  }

  static func document(_ text: String) throws -> YAMLDocument {
    try YAMLParser().parseDocument(bytes: Array(text.utf8), path: "spec.yaml")
  }

  /// What a decode gave: its value (compared as a value: a dictionary's description has no
  /// fixed order), or its message.
  enum Outcome<T: Equatable>: Equatable {
    case value(T)
    case message(String)
  }

  /// What decoding `text` as `T` gives.
  static func outcome<T: Decodable & Equatable>(_ type: T.Type, _ text: String, scratch: DecodingScratch?) -> Outcome<T> {
    do {
      let document = try document(text)
      let decoder = YAMLDecoder()
      let value =
        try scratch.map { try decoder.decode(T.self, from: document, reusing: $0) } ?? decoder.decode(T.self, from: document)
      return .value(value)
    } catch {
      return .message("\(error)")
    }
  }

  /// Documents that fail in different places (an unknown key with a hint, a wrong type deep
  /// in an enum's payload, a missing key, an unknown key among more than 64), each followed by
  /// one that decodes, so that what a failed decode left in the buffers would show.
  static let documents: [String] = {
    let manyKeys = (1...70).map { "extra\($0): \($0)" }.joined(separator: "\n")
    return [
      "name: a\nmoves: [stay, { step: 2 }]\n",
      "name: a\nmovs: [stay]\n",
      "name: b\nmoves: [{ jump: { to: 3, height: 1.5 } }]\ntags: { x: 1 }\n",
      "name: c\nmoves: [stay, { jump: { to: 3, height: high } }]\n",
      "name: d\nmoves: []\n",
      "moves: [stay]\n",
      "name: e\nmoves: [{ step: 7 }, stay]\n",
      "name: f\nmoves: []\n" + manyKeys + "\n",
      "name: g\nmoves: [{ jump: { to: 1, height: 2 } }]\n",
      "name: h\nmoves: [{ stpe: 1 }]\n",
      "name: i\nmoves: [stay]\ntags: { a: 1, b: 2 }\n",
    ]
  }()

  /// How full the decoder's buffers are when a value's `init(from:)` starts.
  struct Probe: Decodable, Equatable {
    var frames, trackers, missingKeys, largeConsumed, nestedPaths: Int
    init(from decoder: any Decoder) throws {
      let decoder = decoder as! DecoderImpl
      frames = decoder.frames.count
      trackers = decoder.trackers.count
      missingKeys = decoder.missingKeys.count
      largeConsumed = decoder.largeConsumed.count
      nestedPaths = decoder.nestedPaths.count
    }
  }

  static func probe(_ scratch: DecodingScratch?) throws -> Probe {
    let document = try document("probe\n")
    return try scratch.map { try YAMLDecoder().decode(Probe.self, from: document, reusing: $0) }
      ?? YAMLDecoder().decode(Probe.self, from: document)
  }

  @Test func aDecodeInTheScratchGivesWhatAFreshOneGives() throws {
    let scratch = DecodingScratch()
    for round in 1...2 {
      for text in Self.documents {
        let fresh = Self.outcome(Walk.self, text, scratch: nil)
        let reused = Self.outcome(Walk.self, text, scratch: scratch)
        #expect(reused == fresh, "round \(round), document:\n\(text)")
        #expect(!scratch.isLent)
        // The next decode starts from buffers as empty as a fresh decoder's.
        #expect(try Self.probe(scratch) == Self.probe(nil), "round \(round), after:\n\(text)")
      }
    }
    // The messages are the decoder's own, located ones: the comparison above compares them.
    #expect(
      Self.outcome(Walk.self, Self.documents[1], scratch: scratch)
        == .message("spec.yaml:1:1: error: missing key `moves` in DecodingScratchTests.Walk"))
  }

  /// A type whose `init(from:)` decodes another document through the same scratch, as a
  /// feature's value could through a memo.
  struct Outer: Decodable {
    static let key = CodingUserInfoKey(rawValue: "scratch")!
    final class Context: @unchecked Sendable {
      let scratch: DecodingScratch
      var innerWasLent: Bool?
      init(_ scratch: DecodingScratch) { self.scratch = scratch }
    }
    var walk: Walk
    var label: String

    init(from decoder: any Decoder) throws {
      let context = decoder.userInfo[Self.key] as! Context
      // The outer decode holds the buffers: this one must not take them.
      context.innerWasLent = context.scratch.isLent
      walk = try YAMLDecoder().decode(
        Walk.self, from: DecodingScratchTests.document("name: inner\nmoves: [{ step: 1 }]\n"), reusing: context.scratch)
      label = try decoder.singleValueContainer().decode(String.self)
    }
  }

  @Test func aDecodeWithinADecodeHasBuffersOfItsOwn() throws {
    let scratch = DecodingScratch()
    let context = Outer.Context(scratch)
    var decoder = YAMLDecoder()
    decoder.userInfo[Outer.key] = context
    let outer = try decoder.decode(Outer.self, from: Self.document("outer\n"), reusing: scratch)
    #expect(outer.label == "outer")
    #expect(outer.walk == Walk(name: "inner", moves: [.step(1)], tags: nil))
    #expect(context.innerWasLent == true)
    #expect(!scratch.isLent)
    #expect(Self.outcome(Walk.self, Self.documents[2], scratch: scratch) == Self.outcome(Walk.self, Self.documents[2], scratch: nil))
  }

  /// A type that keeps its decoder after `init(from:)` returns.
  struct Keeper: Decodable {
    nonisolated(unsafe) static var kept: (any Decoder)?
    var value: Int
    init(from decoder: any Decoder) throws {
      Self.kept = decoder
      value = try decoder.singleValueContainer().decode(Int.self)
    }
  }

  @Test func aDecoderKeptAliveLeavesTheBuffersToTheNextDecode() throws {
    let scratch = DecodingScratch()
    #expect(try YAMLDecoder().decode(Keeper.self, from: Self.document("7\n"), reusing: scratch).value == 7)
    // The kept decoder still holds the buffers: the next decode has its own.
    #expect(scratch.isLent)
    let next = Self.outcome(Walk.self, Self.documents[0], scratch: scratch)
    #expect(next == Self.outcome(Walk.self, Self.documents[0], scratch: nil))
    Keeper.kept = nil
    #expect(!scratch.isLent)
  }
}
