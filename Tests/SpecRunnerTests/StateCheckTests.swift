import Foundation
import Testing
@testable import SpecRunner

/// The expected state of a `state:` step, worked out by `StateCheck`: the same answer as
/// encoding the start, applying the assignments and decoding, whichever way it is found.
@MainActor @Suite struct StateCheckTests {
  struct Measure: Codable, Equatable {
    var count = 0
    var ratio = 0.5
    var names: [String] = []
  }

  func assignments(_ text: String) throws -> [StateAssignment] {
    try StateAssignment.parse(YAMLParser.parse(text, path: "spec.yaml"))
  }

  /// The plain way: what the check must always agree with.
  func plain<State: Codable>(_ text: String, from start: State) throws -> State {
    try StateAssignment.apply(assignments(text), to: start)
  }

  @Test func aMatchIsTheActualStateAndAgreesWithThePlainWay() throws {
    let check = StateCheck<Measure>(decoder: YAMLDecoder())
    let start = Measure(count: 1, names: ["a"])
    let actual = Measure(count: 2, names: ["a", "b"])
    let expected = try check.expected(start: start, actual: actual, assignments: assignments("count: 2\nnames: [a, b]"))
    #expect(expected == actual)
    #expect(try plain("count: 2\nnames: [a, b]", from: start) == actual)
  }

  @Test func aMismatchIsTheDecodedExpectation() throws {
    let check = StateCheck<Measure>(decoder: YAMLDecoder())
    let start = Measure(count: 1)
    let actual = Measure(count: 2)
    let expected = try check.expected(start: start, actual: actual, assignments: assignments("count: 3"))
    #expect(expected == Measure(count: 3))
    #expect(expected == (try plain("count: 3", from: start)))
  }

  @Test func anotherSpellingOfTheSameValueStillMatches() throws {
    // `0.50` and `0.5` differ as text, so the nodes differ; decoding settles it.
    let check = StateCheck<Measure>(decoder: YAMLDecoder())
    let actual = Measure(ratio: 0.5)
    #expect(try check.expected(start: Measure(ratio: 0.25), actual: actual, assignments: assignments("ratio: 0.50")) == actual)
    #expect(try check.expected(start: Measure(), actual: Measure(names: ["x"]), assignments: assignments("names: ['x']")) == Measure(names: ["x"]))
  }

  @Test func aFieldThatChangedUnassignedIsAMismatchOnEitherWay() throws {
    // Top-level fields are compared entry by entry without applying the assignments; an
    // unassigned field must still be as it was.
    let check = StateCheck<Measure>(decoder: YAMLDecoder())
    let start = Measure(count: 1, names: ["a"])
    let actual = Measure(count: 2, names: ["a", "b"])
    let expected = try check.expected(start: start, actual: actual, assignments: assignments("count: 2"))
    #expect(expected == Measure(count: 2, names: ["a"]))
    #expect(expected == (try plain("count: 2", from: start)))
    // A path into a field (not a whole field) takes the plain way, with the same verdicts.
    #expect(try check.expected(start: start, actual: Measure(count: 1, names: ["b"]), assignments: assignments("names[0]: b")) == Measure(count: 1, names: ["b"]))
    #expect(try check.expected(start: start, actual: actual, assignments: assignments("names[0]: b")) == Measure(count: 1, names: ["b"]))
  }

  @Test func aStepStartingFromTheLastActualStateReusesItsEncoding() throws {
    let check = StateCheck<Measure>(decoder: YAMLDecoder())
    var state = Measure()
    for step in 1...5 {
      let next = Measure(count: step, names: state.names + ["n\(step)"])
      let text = "count: \(step)\nnames: [\(next.names.joined(separator: ", "))]"
      #expect(try check.expected(start: state, actual: next, assignments: assignments(text)) == next)
      #expect(try plain(text, from: state) == next)
      state = next
    }
    // A wrong expectation after a run of reused starts is still wrong.
    let wrong = try check.expected(start: state, actual: Measure(count: 6, names: state.names), assignments: assignments("count: 7"))
    #expect(wrong == Measure(count: 7, names: state.names))
  }

  @Test func aStateComeBackToReusesItsEncodingAndKeepsItsVerdicts() throws {
    let check = StateCheck<Measure>(decoder: YAMLDecoder())
    let (zero, one, two) = (Measure(count: 0), Measure(count: 1), Measure(count: 2))
    // 0 → 1 → 0 → 1 → 2 → 1: three states, each encoded once.
    for (start, actual) in [(zero, one), (one, zero), (zero, one), (one, two), (two, one)] {
      #expect(try check.expected(start: start, actual: actual, assignments: assignments("count: \(actual.count)")) == actual)
    }
    #expect(check.encodings == 3)
    // A wrong expectation from a kept state is still wrong, and the right one still right.
    #expect(try check.expected(start: one, actual: zero, assignments: assignments("count: 2")) == two)
    #expect(try check.expected(start: two, actual: one, assignments: assignments("count: 0")) == zero)
    #expect(check.encodings == 3)
    // Past four states, the oldest give way: every state still gets its own encoding.
    for count in 3...8 {
      let start = Measure(count: count - 1)
      let actual = Measure(count: count)
      #expect(try check.expected(start: start, actual: actual, assignments: assignments("count: \(count)")) == actual)
      #expect(try check.expected(start: start, actual: actual, assignments: assignments("count: 99")) == Measure(count: 99))
    }
    #expect(try check.expected(start: zero, actual: one, assignments: assignments("count: 1")) == one)
    #expect(try check.expected(start: zero, actual: one, assignments: assignments("count: 0")) == zero)
  }

  @Test func aStateThatIsNotEqualToItselfTakesThePlainWay() throws {
    let check = StateCheck<Measure>(decoder: YAMLDecoder())
    let nan = Measure(ratio: .nan)
    let expected = try check.expected(start: nan, actual: nan, assignments: assignments("count: 0"))
    #expect(expected.ratio.isNaN)
  }

  @Test func errorsAreTheAssignmentsOwn() throws {
    let check = StateCheck<Measure>(decoder: YAMLDecoder())
    #expect(throws: YAMLError.self) {
      try check.expected(start: Measure(), actual: Measure(), assignments: assignments("names[3]: x"))
    }
    #expect(throws: YAMLError.self) {
      try check.expected(start: Measure(), actual: Measure(), assignments: assignments("count: many"))
    }
  }

  @Test func sameContentIgnoresPlacesButNotStylesOrOrder() throws {
    let a = try YAMLParser.parse("a: 1\nb: [x, 'y']", path: "one.yaml")
    let b = try YAMLParser.parse("{ a: 1, b: [x, 'y'] }", path: "two.yaml")
    let quoted = try YAMLParser.parse("{ a: \"1\", b: [x, 'y'] }", path: "three.yaml")
    let reordered = try YAMLParser.parse("{ b: [x, 'y'], a: 1 }", path: "four.yaml")
    #expect(a.hasSameContent(as: b))
    #expect(!a.hasSameContent(as: quoted))
    #expect(!a.hasSameContent(as: reordered))
    #expect(try YAMLEncoder().encode(Measure(count: 1)).hasSameContent(as: YAMLEncoder().encode(Measure(count: 1))))
    #expect(!(try YAMLEncoder().encode(Measure(count: 1)).hasSameContent(as: YAMLEncoder().encode(Measure(count: 2)))))
  }
}
