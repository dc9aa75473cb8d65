import Foundation
import TestSupport
import Testing
@testable import SpecYAML

struct Flags: Codable, Equatable {
  var name: String
  var enabled: Bool
}


struct Even: Decodable {
  var value: Int
  init(from decoder: any Decoder) throws {
    let value = try decoder.singleValueContainer().decode(Int.self)
    guard value % 2 == 0 else {
      throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(value) is odd"))
    }
    self.value = value
  }
}

@Suite struct YAMLDecoderTests {
  /// Every field of `Search.State` but `repositories` (Codable needs them all).
  let base = "searchText: ''\nisLoading: false\nscores: {}\n# repositories or alert follow\n"

  // MARK: - Scalars are read as the Swift type asks

  @Test func theTypeDecidesWhatAScalarMeans() throws {
    #expect(try decode(Flags.self, "name: no\nenabled: no") == Flags(name: "no", enabled: false))
    #expect(try decode(Flags.self, "name: 42\nenabled: yes") == Flags(name: "42", enabled: true))
    #expect(try decode(Flags.self, "name: '1.5'\nenabled: True") == Flags(name: "1.5", enabled: true))
    #expect(try decode([String].self, "[on, off, null?, 0x1F, 2024-05-01]") == ["on", "off", "null?", "0x1F", "2024-05-01"])
  }

  @Test func aQuotedScalarIsOnlyEverAString() throws {
    #expect(
      decodeError(Flags.self, "name: x\nenabled: \"true\"")
        == "spec.yaml:2:10: error: expected Bool for Flags.enabled, found the string \"true\"")
    #expect(
      decodeError(Counter.State.self, "count: '3'\nsecret: 1")
        == "spec.yaml:1:8: error: expected Int for Counter.State.count, found the string \"3\"")
    #expect(
      decodeError(Int?.self, "!!str 7") == "spec.yaml:1:1: error: expected Int for Int?, found the string \"7\"")
    #expect(try decode(String?.self, "'null'") == "null")
    #expect(try decode(String?.self, "null") == nil)
  }

  @Test func integers() throws {
    #expect(try decode([Int].self, "[0, -7, +12, 1_000, 0x2A, 0o52, 0b101010]") == [0, -7, 12, 1000, 42, 42, 42])
    #expect(try decode(Int8.self, "-128") == -128)
    #expect(try decode(UInt64.self, "18446744073709551615") == .max)
    #expect(try decode(Int64.self, "-9223372036854775808") == .min)
    #expect(try decode(UInt8.self, "-0") == 0)
  }

  @Test func integerErrors() {
    #expect(
      decodeError(Counter.State.self, "count: ten\nsecret: 1")
        == "spec.yaml:1:8: error: expected Int for Counter.State.count, found the string \"ten\"")
    #expect(
      decodeError(Counter.State.self, "count: 1.5\nsecret: 1")
        == "spec.yaml:1:8: error: expected Int for Counter.State.count, found the number 1.5")
    #expect(
      decodeError([Int8].self, "[1, 300]")
        == "spec.yaml:1:5: error: expected Int8 for [Int8][1], found 300, which is out of range (-128...127)")
    #expect(
      decodeError(UInt.self, "-1") == "spec.yaml:1:1: error: expected UInt for UInt, found -1, which is out of range (0...18446744073709551615)")
    #expect(
      decodeError(Counter.State.self, "count:\nsecret: 1")
        == "spec.yaml:1:7: error: expected Int for Counter.State.count, found null")
    #expect(
      decodeError(Counter.State.self, "count: [1]\nsecret: 1")
        == "spec.yaml:1:8: error: expected Int for Counter.State.count, found a sequence")
  }

  @Test func floatingPoint() throws {
    #expect(try decode([Double].self, "[1, -2.5, 1e3, .5, 1_000.25]") == [1, -2.5, 1000, 0.5, 1000.25])
    let specials = try decode([Double].self, "[.inf, -.Inf, .nan]")
    #expect(specials[0] == .infinity && specials[1] == -.infinity && specials[2].isNaN)
    #expect(try decode(Float.self, "0.1") == Float(0.1))
    #expect(decodeError(Float.self, "1e39") == "spec.yaml:1:1: error: expected Float for Float, found 1e39, which is out of range")
    #expect(decodeError(Double.self, "1e400") == "spec.yaml:1:1: error: expected Double for Double, found 1e400, which is out of range")
    #expect(decodeError(Double.self, "inf") == "spec.yaml:1:1: error: expected Double for Double, found the string \"inf\"")
    #expect(decodeError(Double.self, "0x1p3") == "spec.yaml:1:1: error: expected Double for Double, found the string \"0x1p3\"")
  }

  @Test func stringErrors() {
    #expect(
      decodeError(Flags.self, "name:\nenabled: true")
        == "spec.yaml:1:6: error: expected String for Flags.name, found null (write \"\" for an empty string)")
    #expect(
      decodeError(Flags.self, "name: {a: 1}\nenabled: true")
        == "spec.yaml:1:7: error: expected String for Flags.name, found a mapping")
  }

  @Test func foundationTypes() throws {
    struct Values: Codable, Equatable {
      var date: Date
      var precise: Date
      var local: Date
      var day: Date
      var id: UUID
      var url: URL
      var data: Data
      var price: Decimal
    }
    let values = try decode(
      Values.self,
      """
      date: 2024-05-01T09:00:00Z
      precise: 2024-05-01T09:00:00.25Z
      local: 2024-05-01T11:00:00+02:00
      day: 2024-05-01
      id: DEADBEEF-0000-0000-0000-000000000001
      url: https://example.com/a?b=c
      data: aGVsbG8=
      price: 19.99
      """)
    #expect(values.date == Date(timeIntervalSince1970: 1_714_554_000))
    #expect(values.precise == Date(timeIntervalSince1970: 1_714_554_000.25))
    #expect(values.local == values.date)
    #expect(values.day == Date(timeIntervalSince1970: 1_714_521_600))
    #expect(values.id == UUID(uuidString: "DEADBEEF-0000-0000-0000-000000000001"))
    #expect(values.url == URL(string: "https://example.com/a?b=c"))
    #expect(values.data == Data("hello".utf8))
    #expect(values.price == Decimal(string: "19.99"))
  }

  @Test func foundationTypeErrors() {
    #expect(
      decodeError([Date].self, "[2024-05-01T09:00:00Z, 2024-13-01T09:00:00Z]")
        == "spec.yaml:1:24: error: expected an ISO 8601 date (2024-05-01T09:00:00Z) for [Date][1], found the string \"2024-13-01T09:00:00Z\""
    )
    #expect(
      decodeError(UUID.self, "not-a-uuid")
        == "spec.yaml:1:1: error: expected a UUID (00000000-0000-0000-0000-000000000000) for UUID, found the string \"not-a-uuid\""
    )
    #expect(decodeError(Data.self, "'%%%'") == "spec.yaml:1:1: error: expected base64 data for Data, found the string \"%%%\"")
    #expect(decodeError(Decimal.self, "12abc") == "spec.yaml:1:1: error: expected Decimal for Decimal, found the string \"12abc\"")
  }

  // MARK: - Collections and optionals

  @Test func collections() throws {
    #expect(try decode([String: Int].self, "{ b: 2, a: 1 }") == ["a": 1, "b": 2])
    #expect(try decode([Int: String].self, "{ 1: one, 2: two }") == [1: "one", 2: "two"])
    #expect(try decode([[Int]].self, "[[1, 2], [], [3]]") == [[1, 2], [], [3]])
    #expect(try decode([Int?].self, "[1, null, ~, 4]") == [1, nil, nil, 4])
    #expect(try decode(Set<String>.self, "[a, b, a]") == ["a", "b"])
  }

  @Test func collectionErrors() {
    #expect(
      decodeError([Int: String].self, "{ one: x }")
        == "spec.yaml:1:1: error: cannot decode [Int: String]: Expected Int key but found String key instead.")
    #expect(
      decodeError(Search.State.self, "\(base)repositories: { id: 1 }")
        == "spec.yaml:5:15: error: expected a sequence for Search.State.repositories, found a mapping")
    #expect(
      decodeError(Search.State.self, "\(base)repositories: [3]")
        == "spec.yaml:5:16: error: expected a mapping for Search.State.repositories[0], found the number 3")
  }

  @Test func optionalsMayBeAbsentOrNull() throws {
    let repositories = try decode(
      [Repository].self, "- { id: 1, fullName: a/b, stars: 3 }\n- { id: 2, fullName: c/d, stars: 4, description: ~ }")
    #expect(repositories.map(\.description) == [nil, nil])
  }

  // MARK: - Structs: missing and unknown keys

  @Test func missingKey() {
    #expect(
      decodeError([Repository].self, "- id: 1\n  fullName: apple/swift\n")
        == "spec.yaml:1:3: error: missing key `stars` in [Repository][0]")
  }

  @Test func unknownKeysAreErrorsWithTheClosestKey() {
    #expect(
      decodeError(Counter.State.self, "count: 1\nsecret: 2\nsecrte: 3")
        == "spec.yaml:3:1: error: unknown key `secrte` in Counter.State; did you mean `secret`?")
    #expect(
      decodeError(Search.State.self, "\(base)repositories:\n  - { id: 1, fullNme: a/b, stars: 0, fullName: x }")
        == "spec.yaml:6:14: error: unknown key `fullNme` in Search.State.repositories[0]; did you mean `fullName`?")
    // A key missing because it is misspelt: the misspelling is reported, with the key it stands for.
    #expect(
      decodeError(Search.State.self, "\(base)repositories: []\nalert: { title: Oops, mesage: Offline, buttons: [] }")
        == "spec.yaml:6:23: error: unknown key `mesage` in Search.State.alert; did you mean `message`?")
    #expect(
      decodeError(Search.State.self, "\(base)repositories: []\nzzz: 1")
        == "spec.yaml:6:1: error: unknown key `zzz` in Search.State")
  }

  @Test func unknownKeysCanBeIgnored() throws {
    var decoder = YAMLDecoder()
    decoder.unknownKeys = .ignore
    let node = try YAMLParser.parse("count: 1\nsecret: 2\nextra: 3")
    #expect(try decoder.decode(Counter.State.self, from: node) == Counter.State(count: 1, secret: 2))
  }

  // MARK: - Enums: short forms and the synthesized form

  @Test func enumShortForms() throws {
    #expect(try decode(Counter.Action.self, "increment") == .increment)
    #expect(try decode(Counter.Action.self, "{ setCount: \"42\" }") == .setCount("42"))
    #expect(try decode(Counter.Action.self, "setCount: 42") == .setCount("42"))
    #expect(try decode(Search.Action.self, "{ move: { row: 1, column: 2 } }") == .move(row: 1, column: 2))
    #expect(try decode(Search.Action.self, "{ alert: retry }") == .alert(.retry))
    #expect(
      try decode(Search.Action.self, "{ select: { id: 1, fullName: a/b, stars: 2 } }")
        == .select(Repository(id: 1, fullName: "a/b", stars: 2)))
    #expect(try decode(TicTacToe.Action.self, "{ login: { emailChanged: blob@example.com } }") == .login(.emailChanged("blob@example.com")))
    #expect(try decode(TicTacToe.Action.self, "{ login: loginButtonTapped }") == .login(.loginButtonTapped))
    #expect(try decode(TicTacToe.State.self, "{ newGame: { xPlayerName: Blob, oPlayerName: '' } }") == .newGame(.init(xPlayerName: "Blob")))
  }

  @Test func enumSynthesizedForms() throws {
    #expect(try decode(Counter.Action.self, "{ increment: {} }") == .increment)
    #expect(try decode(Counter.Action.self, "increment:") == .increment)
    #expect(try decode(Counter.Action.self, "{ setCount: { _0: \"42\" } }") == .setCount("42"))
    #expect(try decode(Search.Action.self, "{ pair: { _0: 1, _1: 2 } }") == .pair(1, 2))
    #expect(try decode(TicTacToe.Action.self, "{ login: { _0: { emailChanged: { _0: x } } } }") == .login(.emailChanged("x")))
  }

  @Test func unknownCases() {
    #expect(
      decodeError(Counter.Action.self, "incremnt")
        == "spec.yaml:1:1: error: unknown case `incremnt` for Counter.Action; did you mean `increment`?")
    #expect(
      decodeError(Counter.Action.self, "{ setCont: \"4\" }")
        == "spec.yaml:1:3: error: unknown case `setCont` for Counter.Action; did you mean `setCount`?")
    #expect(
      decodeError(Search.Action.self, "{ alert: retyr }")
        == "spec.yaml:1:10: error: unknown value `retyr` for Search.Action.alert; did you mean `retry`?; the values of Search.Action.Alert are `retry`, `dismiss`")
    // No case is close enough: no hint.
    #expect(decodeError(Search.Action.self, "frobnicate") == "spec.yaml:1:1: error: unknown case `frobnicate` for Search.Action")
    // Synthesized `Codable` enums list their cases through their coding keys.
    #expect(
      decodeError(TicTacToe.Action.self, "{ login: { emailChangd: x } }")
        == "spec.yaml:1:12: error: unknown case `emailChangd` for TicTacToe.Action.login; did you mean `emailChanged`?")
  }

  /// A raw-value enum that is not `CaseIterable`: the standard library's "Cannot initialize"
  /// becomes this project's message, located, with the values read from the enum's cases.
  @Test func unknownRawValuesOfAnEnumThatIsNotCaseIterable() {
    #expect(
      decodeError(Banner.self, "{ level: warnin }")
        == "spec.yaml:1:10: error: unknown value `warnin` for Banner.level; did you mean `warning`?; the values of Level are `info`, `warning`, `error`")
    #expect(
      decodeError(Banner.self, "{ level: loud }")
        == "spec.yaml:1:10: error: unknown value `loud` for Banner.level; the values of Level are `info`, `warning`, `error`")
  }

  /// A key that the mapping has but that the type's `init(from:)` reports as not found (a
  /// binding action's field that is not bindable) is unknown, not missing.
  @Test func aKeyThatIsWrittenButRejectedIsUnknown() throws {
    #expect(decodeError(OneField.self, "{ nme: x }") == "spec.yaml:1:3: error: unknown key `nme` in OneField")
    var decoder = YAMLDecoder()
    decoder.keyNames = { _ in .init(noun: "bindable field", owner: "Form.State", names: ["name", "isOn"]) }
    let error = try #require(throws: YAMLError.self) {
      try decoder.decode(OneField.self, from: YAMLParser.parse("{ nme: x }", path: "spec.yaml"))
    }
    #expect(
      error.description
        == "spec.yaml:1:3: error: unknown bindable field `nme` for OneField; did you mean `name`?; the bindable fields of Form.State are `name`, `isOn`")
  }

  @Test func caseNamesCanComeFromTheDecodersOptions() throws {
    var decoder = YAMLDecoder()
    decoder.caseNames = { type in type == Search.Action.self ? ["onTextChanged", "onSearchButtonTapped", "alert"] : nil }
    do {
      _ = try decoder.decode(Search.Action.self, from: YAMLParser.parse("onSearchButonTapped", path: "s.yaml"))
      Issue.record("expected an error")
    } catch let error as YAMLError {
      #expect(error.description == "s.yaml:1:1: error: unknown case `onSearchButonTapped` for Search.Action; did you mean `onSearchButtonTapped`?")
    }
  }

  @Test func enumShapeErrors() {
    #expect(
      decodeError(Counter.Action.self, "{ increment: {}, decrement: {} }")
        == "spec.yaml:1:18: error: expected one case for Counter.Action, found 2 keys (`increment`, `decrement`); write one action per step"
    )
    #expect(decodeError(Counter.Action.self, "{}") == "spec.yaml:1:1: error: expected one case for Counter.Action, found an empty mapping")
    #expect(
      decodeError(Counter.Action.self, "setCount")
        == "spec.yaml:1:1: error: `setCount` needs a value here: write `{ setCount: … }`")
    #expect(
      decodeError(Search.Action.self, "{ move: { row: 1 } }")
        == "spec.yaml:1:9: error: missing key `column` in Search.Action.move")
    #expect(
      decodeError(Search.Action.self, "{ move: { row: 1, column: 2, colum: red } }")
        == "spec.yaml:1:30: error: unknown key `colum` in Search.Action.move; did you mean `column`?")
    #expect(
      decodeError(Search.Action.self, "{ move: 3 }")
        == "spec.yaml:1:9: error: expected a mapping for Search.Action.move, found the number 3")
    #expect(
      decodeError(Search.Action.self, "{ setCount: [1] }")
        == "spec.yaml:1:3: error: unknown case `setCount` for Search.Action")
    #expect(
      decodeError(Counter.Action.self, "[increment]")
        == "spec.yaml:1:1: error: expected a mapping for Counter.Action, found a sequence")
    #expect(
      decodeError(Counter.Action.self, "~")
        == "spec.yaml:1:1: error: expected a mapping for Counter.Action, found null")
    #expect(
      decodeError(Repository.self, "just-a-string")
        == "spec.yaml:1:1: error: expected a mapping for Repository, found the string \"just-a-string\"")
  }

  // MARK: - Errors from hand-written decoders

  @Test func errorsThrownByTypesKeepThePosition() {
    #expect(decodeError([String: Even].self, "a: 2\nb: 3") == "spec.yaml:2:4: error: cannot decode [String: Even].b: 3 is odd")
  }

  @Test func codingPathIsReported() throws {
    struct Probe: Decodable {
      var path: String
      init(from decoder: any Decoder) throws {
        path = decoder.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: "/")
      }
    }
    let probes = try decode([String: [Probe]].self, "a: [x, y]")
    #expect(probes["a"]?.map(\.path) == ["a/[0]", "a/[1]"])
  }

  @Test func userInfoReachesTypes() throws {
    struct Reader: Decodable {
      var seen: String
      init(from decoder: any Decoder) throws {
        seen = decoder.userInfo[CodingUserInfoKey(rawValue: "k")!] as? String ?? "none"
      }
    }
    var decoder = YAMLDecoder()
    decoder.userInfo[CodingUserInfoKey(rawValue: "k")!] = "v"
    #expect(try decoder.decode(Reader.self, from: YAMLParser.parse("x")).seen == "v")
  }

  // MARK: - Performance shape

  @Test func largeMappingsDecodeCompletely() throws {
    let text = (0..<16_000).map { "key\($0): \($0)" }.joined(separator: "\n")
    let dictionary = try decode([String: Int].self, text)
    #expect(dictionary.count == 16_000)
    #expect(dictionary["key15999"] == 15_999)
  }
}

@Suite struct CodingKeyProbeTests {
  enum Shapes: Codable { case circle(radius: Double), square(Int), empty }
  enum Single: Codable { case only }
  struct Point: Codable { var x: Int; var y: Int }
  struct Custom: Decodable {
    struct Key: CodingKey {
      var stringValue: String
      var intValue: Int? { nil }
      init(stringValue: String) { self.stringValue = stringValue }
      init?(intValue: Int) { nil }
    }
    init(from decoder: any Decoder) throws { _ = try decoder.container(keyedBy: Key.self) }
  }

  @Test func listsTheKeysOfSynthesizedConformances() {
    #expect(CodingKeyProbe.keys(of: Shapes.self) == ["circle", "square", "empty"])
    #expect(CodingKeyProbe.keys(of: Single.self) == ["only"])
    #expect(CodingKeyProbe.keys(of: Point.self) == ["x", "y"])
  }

  @Test func doesNotListKeysItCannotEnumerate() {
    #expect(CodingKeyProbe.keys(of: Custom.self) == nil)
    #expect(CodingKeyProbe.keys(of: Int.self) == nil)
    #expect(CodingKeyProbe.keys(of: [String].self) == nil)
  }
}

/// A raw-value enum that is not `CaseIterable`.
private enum Level: String, Codable, Equatable {
  case info, warning, error
}

private struct Banner: Codable, Equatable {
  var level: Level
}

/// Takes one key of any name, and reports any other as not found, as a binding action does.
private struct OneField: Decodable {
  private struct Key: CodingKey {
    var stringValue: String
    init(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Key.self)
    let key = container.allKeys.first ?? Key(stringValue: "")
    guard key.stringValue == "name" else {
      throw DecodingError.keyNotFound(key, .init(codingPath: decoder.codingPath, debugDescription: "not a field"))
    }
    _ = try container.decode(String.self, forKey: key)
  }
}
