import Foundation
import PropertyBased
import TestSupport
import Testing
@testable import SpecYAML

/// Encodes a value, then decodes it three ways: from the node, from block text and from flow text.
func roundTrips<T: Codable & Equatable>(_ value: T, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
  do {
    let node = try YAMLEncoder().encode(value)
    let fromNode = try YAMLDecoder().decode(T.self, from: node)
    #expect(fromNode == value, "from the node", sourceLocation: sourceLocation)
    let block = YAMLEmitter.block(node)
    let fromBlock = try YAMLDecoder().decode(T.self, from: block)
    #expect(fromBlock == value, "from block text:\n\(block)", sourceLocation: sourceLocation)
    let flow = YAMLEmitter.flow(node)
    let fromFlow = try YAMLDecoder().decode(T.self, from: flow)
    #expect(fromFlow == value, "from flow text: \(flow)", sourceLocation: sourceLocation)
  } catch {
    Issue.record("\(value) did not round-trip: \(error)", sourceLocation: sourceLocation)
  }
}

// MARK: - Generators

/// Any Unicode scalar, with the awkward ones (controls, quotes, YAML indicators, line breaks) often.
let anyScalar = Gen<Character>.frequency(
  (3, Gen.character(in: " "..."~").eraseToAnySequence()),
  (1, Gen.character(in: "\u{0}"..."\u{1F}").eraseToAnySequence()),
  (1, Gen.element(of: Array("-?:,[]{}#&*!|>'\"%@` \t\n\r\u{7F}\u{85}\u{A0}\u{2028}\u{2029}\u{FEFF}\u{FFFE}"))
    .map { $0! }.eraseToAnySequence()),
  (1, Gen.character(in: "\u{80}"..."\u{D7FF}").eraseToAnySequence()),
  (1, Gen.character(in: "\u{E000}"..."\u{10FFFF}").eraseToAnySequence())
)

let anyString = anyScalar.string(of: 0...12)

/// Strings shaped like YAML's other types: `null`, `yes`, `0x1F`, `1e3`, `2024-05-01`…
let trickyString = Gen.element(of: [
  "null", "Null", "~", "", "yes", "No", "on", "OFF", "true", "0", "-0", "+1", "0x1F", "0o17", "0b1", "1_000", "1e3",
  ".inf", "-.Inf", ".nan", "2024-05-01", "2024-05-01T09:00:00Z", "<<", "- ", "? x", ": x", "#", "a #b", "a: b", "&a",
  "*a", "!t", "|", ">", "'", "\"", "%", "@", "`", "[", "]", "{", "}", ",", " x", "x ",
]).map { $0! }

struct Everything: Codable, Equatable {
  struct Inner: Codable, Equatable {
    var name: String
    var tags: [String]
    var score: Double?
  }
  indirect enum Choice: Codable, Equatable {
    case none
    case text(String)
    case point(x: Int, y: Int)
    case inner(Inner)
    case nested(Choice?)
    case pair(Int8, String)
  }
  var int: Int
  var int8: Int8
  var uint16: UInt16
  var int64: Int64
  var uint64: UInt64
  var double: Double
  var float: Float
  var flag: Bool
  var text: String
  var optionalText: String?
  var list: [Int]
  var byName: [String: Int]
  var byNumber: [Int: String]
  var inner: Inner
  var choices: [Choice]
}

let innerGen = zip(anyString, anyString.array(of: 0...3), Gen.double(in: -1e6...1e6).optional())
  .map { Everything.Inner(name: $0, tags: $1, score: $2) }

let choiceGen = Gen<Everything.Choice>.oneOf(
  Gen.bool.map { _ in Everything.Choice.none }.eraseToAnySequence(),
  anyString.map { Everything.Choice.text($0) }.eraseToAnySequence(),
  zip(Gen.int(in: -100...100), Gen.int(in: -100...100)).map { Everything.Choice.point(x: $0, y: $1) }
    .eraseToAnySequence(),
  innerGen.map { Everything.Choice.inner($0) }.eraseToAnySequence(),
  trickyString.map { Everything.Choice.nested(.text($0)) }.eraseToAnySequence(),
  Gen.bool.map { $0 ? Everything.Choice.nested(nil) : .nested(.nested(Everything.Choice.none)) }.eraseToAnySequence(),
  zip(Gen.int8(in: .min ... .max), trickyString).map { Everything.Choice.pair($0, $1) }.eraseToAnySequence()
)

let numbersGen = zip(
  Gen.int(in: .min ... .max), Gen.int8(in: .min ... .max), Gen.uint16(in: .min ... .max),
  Gen.int64(in: .min ... .max), Gen.uint64(in: .min ... .max), Gen.bool)

let everythingGen = zip(
  numbersGen,
  zip(Gen.double(in: -8e307...8e307), Gen.float(in: -1.5e38...1.5e38)),
  zip(Gen<String>.oneOf(anyString.eraseToAnySequence(), trickyString.eraseToAnySequence()), trickyString.optional()),
  zip(Gen.int(in: -1000...1000).array(of: 0...4), zip(Gen.int(in: 0...9), Gen.int(in: -9...9)).dictionary(ofAtMost: 0...3)),
  zip(zip(Gen.int(in: -5...5), Gen.int(in: -20...20)).dictionary(ofAtMost: 0...3), innerGen, choiceGen.array(of: 0...4))
).map { numbers, floats, texts, collections, rest in
  Everything(
    int: numbers.0, int8: numbers.1, uint16: numbers.2, int64: numbers.3, uint64: numbers.4,
    double: floats.0, float: floats.1, flag: numbers.5, text: texts.0, optionalText: texts.1,
    list: collections.0, byName: collections.1.mapKeysToText(), byNumber: rest.0.mapValuesToText(),
    inner: rest.1, choices: rest.2)
}

extension Dictionary where Key == Int, Value == Int {
  /// `{ 3: 7 }` → `{ "k3": 7 }`, so keys are text that needs no quotes and text that does.
  func mapKeysToText() -> [String: Int] {
    Dictionary<String, Int>(uniqueKeysWithValues: map { (["k\($0.key)", "\($0.key)", "<<", "a: b", "", "~", "- x", "#", "[", "yes"][$0.key], $0.value) })
  }
}

extension Dictionary where Key == Int, Value == Int {
  func mapValuesToText() -> [Int: String] {
    mapValues { ["x", "null", "", "1.5", "a\nb", "\"", "'", "\u{85}", "tab\t", "é", "🦆"][abs($0) % 11] }
  }
}

// MARK: - Properties

@Suite struct RoundTripTests {
  @Test func everythingRoundTrips() async {
    await propertyCheck(count: 300, input: everythingGen) { value in
      roundTrips(value)
    }
  }

  @Test func stringsRoundTrip() async {
    await propertyCheck(count: 500, input: anyString) { roundTrips($0) }
    await propertyCheck(count: 200, input: trickyString) { roundTrips($0) }
    await propertyCheck(count: 200, input: anyString.optional()) { roundTrips($0) }
  }

  @Test func integersRoundTripAtTheirLimits() {
    roundTrips([Int.min, Int.max, 0])
    roundTrips([Int8.min, Int8.max])
    roundTrips([Int16.min, Int16.max])
    roundTrips([Int32.min, Int32.max])
    roundTrips([Int64.min, Int64.max])
    roundTrips([UInt.min, UInt.max])
    roundTrips([UInt8.max])
    roundTrips([UInt16.max])
    roundTrips([UInt32.max])
    roundTrips([UInt64.max])
  }

  @Test func floatingPointRoundTripsExactly() async {
    await propertyCheck(count: 300, input: Gen.double(in: -8e307...8e307)) { roundTrips($0) }
    await propertyCheck(count: 300, input: Gen.double(in: -1e-300...1e-300)) { roundTrips($0) }
    await propertyCheck(count: 300, input: Gen.float(in: -1.5e38...1.5e38)) { roundTrips($0) }
    roundTrips([Double.infinity, -.infinity, .greatestFiniteMagnitude, .leastNonzeroMagnitude, -0.0])
    roundTrips([Float.infinity, .greatestFiniteMagnitude, .leastNonzeroMagnitude])
    let nan = try? YAMLDecoder().decode(Double.self, from: YAMLParser.parse(YAMLEmitter.flow(YAMLEncoder().encode(Double.nan))))
    #expect(nan?.isNaN == true)
  }

  @Test func datesRoundTripToTheMicrosecond() async {
    // Whole milliseconds from 1900 to 2100, built as a spec's text would be read.
    let dates = zip(Gen.int(in: -3_155_673_600...3_155_760_000), Gen.int(in: 0...999)).map { seconds, millis in
      Date(timeIntervalSinceReferenceDate: Double(seconds - 978_307_200) + Double(millis) / 1000)
    }
    await propertyCheck(count: 500, input: dates) { roundTrips($0) }
    roundTrips(Date(timeIntervalSinceReferenceDate: 0))
    roundTrips(Date(timeIntervalSince1970: 0))
    roundTrips(Date(timeIntervalSince1970: -1))
    roundTrips(Date(timeIntervalSince1970: 951_782_400))  // 2000-02-29
  }

  @Test func foundationValuesRoundTrip() async {
    let uuids = zip(Gen.uint64(in: .min ... .max), Gen.uint64(in: .min ... .max)).map { high, low in
      withUnsafeBytes(of: (high, low)) { bytes in
        UUID(uuid: bytes.load(as: uuid_t.self))
      }
    }
    await propertyCheck(count: 200, input: uuids) { roundTrips($0) }
    let data = Gen.uint8(in: 0...255).array(of: 0...40).map { Data($0) }
    await propertyCheck(count: 200, input: data) { roundTrips($0) }
    let decimals = zip(Gen.int64(in: -999_999_999_999...999_999_999_999), Gen.int(in: -12...12)).map {
      Decimal(sign: $0 < 0 ? .minus : .plus, exponent: $1, significand: Decimal($0.magnitude))
    }
    await propertyCheck(count: 200, input: decimals) { roundTrips($0) }
    let urls = Gen.letterOrNumber.string(of: 1...10).map { URL(string: "https://example.com/\($0)?q=\($0)#x")! }
    await propertyCheck(count: 100, input: urls) { roundTrips($0) }
  }

  @Test func largeDictionariesRoundTrip() {
    roundTrips(Dictionary(uniqueKeysWithValues: (0..<5000).map { ("key\($0)", $0) }))
  }

  @Test func exampleStatesAndActionsRoundTrip() {
    roundTrips(Counter.State(count: -3, secret: 99))
    for action in Counter.Action.allCases + [.setCount("42"), .setCount("null"), .setCount("")] { roundTrips(action) }
    roundTrips(
      Search.State(
        searchText: "swift", isLoading: true,
        repositories: [Repository(id: 1, fullName: "apple/swift", description: nil, stars: 1)],
        alert: AlertState(title: "t", message: nil, buttons: [.init(title: "Retry", action: .retry)]),
        scores: ["blob": 1, "blob jr": 2]))
    for action: Search.Action in [
      .onTextChanged(""), .onSearchButtonTapped, .alert(.dismiss), .move(row: 1, column: -1),
      .select(Repository(id: 2, fullName: "x", stars: 0)), .pair(1, 2),
    ] {
      roundTrips(action)
    }
    roundTrips(TicTacToe.State.login(.init(email: "a@b.c", password: "")))
    roundTrips(TicTacToe.State.newGame(.init(oPlayerName: "O", xPlayerName: "X")))
    roundTrips(TicTacToe.Action.login(.emailChanged("blob")))
    roundTrips(TicTacToe.Action.login(.loginButtonTapped))
    roundTrips(TicTacToe.Action.logout)
  }
}
