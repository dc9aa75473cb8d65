import Foundation
import PropertyBased
import Testing
@testable import SpecRunner

/// Whether two nodes are the same in everything a node holds: content, styles, tags, marks,
/// source and enum marks; a description of the first difference otherwise.
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

/// Encodes a value with the encoder and with the reference encoder, and expects the same node
/// (or the same error).
func encodesAsReference<T: Encodable>(_ value: T, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
  let actual = Result { try YAMLEncoder().encode(value) }
  let expected = Result { try ReferenceYAMLEncoder().encode(value) }
  switch (actual, expected) {
  case (.success(let a), .success(let b)):
    let difference = nodeDifference(a, b)
    #expect(difference == nil, "\(value): \(difference ?? "")", sourceLocation: sourceLocation)
    #expect(YAMLEmitter.flow(a) == YAMLEmitter.flow(b), sourceLocation: sourceLocation)
    #expect(YAMLEmitter.block(a) == YAMLEmitter.block(b), sourceLocation: sourceLocation)
  case (.failure(let a), .failure(let b)):
    #expect("\(a)" == "\(b)", sourceLocation: sourceLocation)
  default:
    Issue.record("\(value): \(actual) vs \(expected)", sourceLocation: sourceLocation)
  }
}

// MARK: - Unusual encoders

/// Writes through every kind of container, including ones written after they are handed out.
private struct Odd: Encodable {
  enum Keys: String, CodingKey { case a, b, c, d, e, _0, `super`, sub }
  var variant: Int

  func encode(to encoder: any Encoder) throws {
    switch variant {
    case 0:
      // A key written twice keeps its place and takes the last value.
      var container = encoder.container(keyedBy: Keys.self)
      try container.encode(1, forKey: .a)
      try container.encode("x", forKey: .b)
      try container.encode(true, forKey: .a)
    case 1:
      // Nested containers written after other keys.
      var container = encoder.container(keyedBy: Keys.self)
      var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .a)
      var list = container.nestedUnkeyedContainer(forKey: .b)
      try container.encode(3, forKey: .c)
      try nested.encode(Date(timeIntervalSince1970: 0), forKey: .d)
      try list.encode(Optional<Int>.none)
      try list.encode([1, 2])
      var inner = list.nestedContainer(keyedBy: Keys.self)
      try inner.encode("yes", forKey: .e)
      var innerList = list.nestedUnkeyedContainer()
      try innerList.encode(UInt8(7))
      let sup = list.superEncoder()
      var single = sup.singleValueContainer()
      try single.encode("null")
    case 2:
      // Super encoders, used and unused.
      var container = encoder.container(keyedBy: Keys.self)
      let sup = container.superEncoder()
      var superContainer = sup.container(keyedBy: Keys.self)
      try superContainer.encode(1.5, forKey: .a)
      _ = container.superEncoder(forKey: .sub)
    case 3:
      // A payload container replaced by a plain value, and one replacing a value.
      var container = encoder.container(keyedBy: Keys.self)
      _ = container.nestedContainer(keyedBy: Keys.self, forKey: .a)
      try container.encode(2, forKey: .a)
    case 4:
      var container = encoder.container(keyedBy: Keys.self)
      try container.encode(2, forKey: .a)
      _ = container.nestedContainer(keyedBy: Keys.self, forKey: .a)
    case 5:
      // `_0` payloads, with and without their own `_0`.
      var container = encoder.container(keyedBy: Keys.self)
      var payload = container.nestedContainer(keyedBy: Keys.self, forKey: .a)
      try payload.encode(["_0": 1], forKey: ._0)
    case 6:
      var container = encoder.container(keyedBy: Keys.self)
      var payload = container.nestedContainer(keyedBy: Keys.self, forKey: .a)
      try payload.encode(["x": 1], forKey: ._0)
    case 7:
      // A container asked for twice, and a value that changes kind.
      var first = encoder.container(keyedBy: Keys.self)
      try first.encode(1, forKey: .a)
      var second = encoder.container(keyedBy: Keys.self)
      try second.encode(2, forKey: .b)
      var list = encoder.unkeyedContainer()
      try list.encode(3)
      try first.encode(4, forKey: .c)
      var again = encoder.unkeyedContainer()
      try again.encode(5)
    case 8:
      var single = encoder.singleValueContainer()
      try single.encode(Wrapped(inner: Counter.State(count: 1, secret: 2)))
    case 9:
      // Nothing written at all.
      break
    case 10:
      var list = encoder.unkeyedContainer()
      try list.encode(Decimal(string: "1.25")!)
      try list.encode(URL(string: "https://example.com/x y")!)
      try list.encode(UUID(uuidString: "DEADBEEF-0000-0000-0000-000000000001")!)
      try list.encode(Data([0, 1, 2]))
      try list.encode(Optional(Date(timeIntervalSince1970: 12)))
      try list.encode(Optional<Date>.none)
      try list.encode(Reference(value: 3))
      try list.encode(Float(1.5))
      try list.encode(Int16(-3))
    default:
      // Two payloads: not an enum.
      var container = encoder.container(keyedBy: Keys.self)
      _ = container.nestedContainer(keyedBy: Keys.self, forKey: .a)
      _ = container.nestedContainer(keyedBy: Keys.self, forKey: .b)
    }
  }
}

private struct Wrapped<Inner: Encodable>: Encodable {
  var inner: Inner
  func encode(to encoder: any Encoder) throws {
    var single = encoder.singleValueContainer()
    try single.encode(inner)
  }
}

private final class Reference: Encodable {
  var value: Int
  init(value: Int) { self.value = value }
}

private struct Failing: Encodable {
  struct Failure: Error, CustomStringConvertible {
    var description: String { "failed" }
  }
  func encode(to encoder: any Encoder) throws { throw Failure() }
}

/// Reads `codingPath` of every container it is given, as a value's `encode(to:)` may.
private struct PathReporter: Encodable {
  var depth: Int
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: AnyCodingKey.self)
    try container.encode(encoder.codingPath.map(\.stringValue).joined(separator: "/"), forKey: .init(stringValue: "path"))
    if depth > 0 {
      try container.encode([PathReporter(depth: depth - 1)], forKey: .init(stringValue: "list"))
      var nested = container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: .init(stringValue: "nested"))
      try nested.encode(nested.codingPath.map(\.stringValue).joined(separator: "/"), forKey: .init(stringValue: "path"))
      try nested.encode(PathReporter(depth: depth - 1), forKey: .init(stringValue: "child"))
    }
  }
}

private indirect enum Shape: Codable {
  case empty
  case one(Int)
  case labelled(value: String)
  case two(Int, [String?])
  case nested(Shape?)
  case date(Date)
}

@Suite struct EncoderEquivalenceTests {
  @Test func fixturesEncodeAsBefore() {
    encodesAsReference(Counter.State(count: -3, secret: 99))
    for action in Counter.Action.allCases + [.setCount("42"), .setCount("null"), .setCount("")] {
      encodesAsReference(action)
    }
    encodesAsReference(
      Search.State(
        searchText: "swift", isLoading: true,
        repositories: [Repository(id: 1, fullName: "apple/swift", description: nil, stars: 1)],
        alert: AlertState(title: "t", message: nil, buttons: [.init(title: "Retry", action: .retry)]),
        scores: ["blob": 1, "blob jr": 2]))
    for action: Search.Action in [
      .onTextChanged(""), .onSearchButtonTapped, .alert(.dismiss), .move(row: 1, column: -1),
      .select(Repository(id: 2, fullName: "x", stars: 0)), .pair(1, 2),
    ] {
      encodesAsReference(action)
    }
    encodesAsReference(TicTacToe.State.login(.init(email: "a@b.c", password: "")))
    encodesAsReference(TicTacToe.State.newGame(.init(oPlayerName: "O", xPlayerName: "X")))
    encodesAsReference(TicTacToe.Action.login(.emailChanged("blob")))
    encodesAsReference(TicTacToe.Action.login(.loginButtonTapped))
    encodesAsReference(TicTacToe.Action.logout)
  }

  @Test func scalarsAndFoundationValuesEncodeAsBefore() {
    encodesAsReference(1)
    encodesAsReference("null")
    encodesAsReference("a: b")
    encodesAsReference(true)
    encodesAsReference(Double.nan)
    encodesAsReference(-Double.infinity)
    encodesAsReference(Float(2.5))
    encodesAsReference(Int8.min)
    encodesAsReference(UInt64.max)
    encodesAsReference(Date(timeIntervalSince1970: 1_714_554_000.25))
    encodesAsReference(UUID(uuidString: "DEADBEEF-0000-0000-0000-000000000001")!)
    encodesAsReference(URL(string: "https://example.com/a?b=c")!)
    encodesAsReference(Data("hello".utf8))
    encodesAsReference(Decimal(string: "19.99")!)
    encodesAsReference(Optional(Date(timeIntervalSince1970: 0)))
    encodesAsReference(Optional<Int>.none)
    encodesAsReference(Optional(Optional(3)))
    encodesAsReference([Date(timeIntervalSince1970: 5)])
    encodesAsReference([Date?.some(Date(timeIntervalSince1970: 5)), nil])
    encodesAsReference(["a": Data([1]), "b: c": Data()])
    encodesAsReference([1: "one", 2: "two"])
    encodesAsReference(Dictionary(uniqueKeysWithValues: (0..<40).map { ("key\($0)", $0) }))
    encodesAsReference([[String]]([["x"], [], ["yes", "1"]]))
    encodesAsReference(Reference(value: 4))
    encodesAsReference([Reference(value: 4)])
    encodesAsReference(Set([1]))
    encodesAsReference(Failing())
    encodesAsReference([Failing()])
    encodesAsReference(["k": Failing()])
  }

  @Test func unusualContainersEncodeAsBefore() {
    for variant in 0...11 { encodesAsReference(Odd(variant: variant)) }
    encodesAsReference([Odd(variant: 1), Odd(variant: 5)])
    encodesAsReference(Wrapped(inner: Odd(variant: 3)))
    encodesAsReference(Wrapped(inner: Wrapped(inner: 3)))
    encodesAsReference(PathReporter(depth: 3))
    for shape: Shape in [
      .empty, .one(1), .labelled(value: "v"), .two(2, ["a", nil]), .nested(nil), .nested(.empty),
      .nested(.nested(.one(3))), .date(Date(timeIntervalSince1970: 7)),
    ] {
      encodesAsReference(shape)
      encodesAsReference([shape])
      encodesAsReference(["key": shape])
    }
  }

  @Test func generatedValuesEncodeAsBefore() async {
    await propertyCheck(count: 300, input: everythingGen) { encodesAsReference($0) }
    await propertyCheck(count: 200, input: anyString) { encodesAsReference($0) }
    await propertyCheck(count: 100, input: trickyString) { encodesAsReference($0) }
  }
}
