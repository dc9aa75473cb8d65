import Foundation
import TestSupport
import Testing
@testable import SpecYAML

@Suite struct YAMLEncoderTests {
  func flow<T: Encodable>(_ value: T) throws -> String {
    YAMLEmitter.flow(try YAMLEncoder().encode(value))
  }

  @Test func enumsComeOutInShortForms() throws {
    #expect(try flow(Counter.Action.increment) == "increment")
    #expect(try flow(Counter.Action.setCount("42")) == "{ setCount: \"42\" }")
    #expect(try flow(Counter.Action.setCount("ten")) == "{ setCount: ten }")
    #expect(try flow(Search.Action.move(row: 1, column: 2)) == "{ move: { row: 1, column: 2 } }")
    #expect(try flow(Search.Action.alert(.retry)) == "{ alert: retry }")
    #expect(try flow(Search.Action.pair(1, 2)) == "{ pair: { _0: 1, _1: 2 } }")
    #expect(try flow(TicTacToe.Action.login(.emailChanged("blob@example.com"))) == "{ login: { emailChanged: blob@example.com } }")
    #expect(try flow(TicTacToe.Action.login(.loginButtonTapped)) == "{ login: loginButtonTapped }")
    #expect(try flow(TicTacToe.State.newGame(.init(xPlayerName: "Blob"))) == "{ newGame: { oPlayerName: \"\", xPlayerName: Blob } }")
  }

  @Test func stringsThatWouldReadAsSomethingElseAreQuoted() throws {
    let strings = ["plain text", "", "null", "~", "true", "no", "42", "-7", "1.5", ".inf", "0x1F", "2024-05-01",
      "a: b", "a #b", "- item", "trailing ", " leading", "{x}", "x,y", "line\nbreak", "tab\there", "quote\"d",
      "back\\slash", "\u{7}bell", "\u{85}", "\u{FEFF}bom", "<<", "*star", "&amp", "!bang", "%pct", "@at", "`tick", "a:?b"]
    let actual = try flow(strings)
    #expect(
      actual == """
        [plain text, "", "null", "~", "true", "no", "42", "-7", "1.5", ".inf", "0x1F", "2024-05-01", "a: b", "a #b", \
        "- item", "trailing ", " leading", "{x}", "x,y", "line\\nbreak", "tab\\there", quote"d, back\\slash, \
        "\\x07bell", "\\N", "\\uFEFFbom", <<, "*star", "&amp", "!bang", "%pct", "@at", "`tick", "a:?b"]
        """)
  }

  @Test func numbersAndFoundationTypes() throws {
    struct Values: Encodable {
      var int = -3
      var double = 2.5
      var whole = 3.0
      var tiny = 1e-7
      var infinity = Double.infinity
      var notANumber = Double.nan
      var flag = false
      var missing: Int? = nil
      var present: Int? = 1
      var date = Date(timeIntervalSince1970: 1_714_554_000.25)
      var id = UUID(uuidString: "DEADBEEF-0000-0000-0000-000000000001")!
      var url = URL(string: "https://example.com/a?b=c")!
      var data = Data("hello".utf8)
      var price = Decimal(string: "19.99")!
    }
    let actual = try YAMLEncoder().encodeToString(Values())
    #expect(
      actual == """
        int: -3
        double: 2.5
        whole: 3.0
        tiny: 1e-07
        infinity: .inf
        notANumber: .nan
        flag: false
        present: 1
        date: 2024-05-01T09:00:00.25Z
        id: DEADBEEF-0000-0000-0000-000000000001
        url: https://example.com/a?b=c
        data: aGVsbG8=
        price: 19.99

        """)
  }

  @Test func blockLayout() throws {
    let state = Search.State(
      searchText: "swift", isLoading: false,
      repositories: [
        Repository(id: 1, fullName: "apple/swift", description: "The Swift language", stars: 60_000),
        Repository(id: 2, fullName: "apple/swift-nio", stars: 7_000),
      ],
      alert: AlertState(
        title: "An Error has occurred.", message: "Offline",
        buttons: [.init(title: "OK"), .init(title: "Retry", action: .retry)]),
      scores: ["blob": 3])
    #expect(
      try YAMLEncoder().encodeToString(state) == """
        searchText: swift
        isLoading: false
        repositories:
          - id: 1
            fullName: apple/swift
            description: The Swift language
            stars: 60000
          - id: 2
            fullName: apple/swift-nio
            stars: 7000
        alert:
          title: An Error has occurred.
          message: Offline
          buttons:
            - title: OK
            - title: Retry
              action: retry
        scores:
          blob: 3

        """)
    #expect(try YAMLEncoder().encodeToString([[1, 2], [], [3]]) == "- - 1\n  - 2\n- []\n- - 3\n")
    #expect(try YAMLEncoder().encodeToString([String: [Int]]()) == "{}\n")
    #expect(try YAMLEncoder().encodeToString([1: "one"]) == "1: one\n")
  }

  @Test func keysThatNeedQuotes() throws {
    #expect(try flow(["<<": 1]) == "{ \"<<\": 1 }")
    #expect(try flow(["a: b": 1]) == "{ \"a: b\": 1 }")
    #expect(try flow(["": 1]) == "{ \"\": 1 }")
    #expect(try flow(["true": 1]) == "{ true: 1 }")
  }

  @Test func caseNamesOfEnums() {
    let decoder = DecoderImpl(options: YAMLDecoder(), rootType: Counter.Action.self, tape: Tape())
    #expect(decoder.caseNames(of: Counter.Action.self) == ["increment", "decrement", "setCount", "playNext"])
    #expect(decoder.caseNames(of: Search.Action.Alert.self) == ["retry", "dismiss"])
    // Not `CaseIterable`: listed through the synthesized coding keys.
    #expect(decoder.caseNames(of: Search.Action.self) == ["onTextChanged", "onSearchButtonTapped", "alert", "move", "select", "pair"])
  }

  @Test func typeNamesReadLikeSwift() {
    #expect(typeName(Counter.State.self) == "Counter.State")
    #expect(typeName([Repository].self) == "[Repository]")
    #expect(typeName(Int?.self) == "Int?")
    #expect(typeName([String: [Int]].self) == "[String: Array<Int>]")
    #expect(typeName(PrivateThing.self) == "PrivateThing")
  }
}

private struct PrivateThing {}

/// The encoder decides quotes for identifiers without scanning for YAML's syntax: the
/// answers must be the emitter's.
@Suite struct EncoderQuotingTests {
  static let samples: [String] = [
    "", "a", "A", "_", "_1", "z9", "count", "secret", "xPlayerName", "user_42", "null", "Null", "NULL", "nULL",
    "~", "true", "True", "TRUE", "tRUE", "false", "False", "FALSE", "yes", "Yes", "YES", "no", "No", "NO", "on",
    "On", "ON", "off", "Off", "OFF", "y", "n", "inf", "nan", "Infinity", "NaN", "e5", "E5", "x1F", "b101", "o52",
    "abc", "def", "f", "deadbeef", "_0", "__", "é", "café", "naïve_", "ab-c", "a.b", "a b", "a:b", "a#b", "<<",
    "-", "-a", "1a", "0x1F", "2024-05-01", "1_000", ".inf", "+1", "a\u{0}", "a\t", "tab\there", "ǅ", "Ａ",
    "@x", "[x", "x]", "x{", "x}", "x`", "x^", "x~", "x\u{7F}", "x\u{80}", "ÿ", "x\u{2028}",
  ]

  @Test func stringStylesAreTheEmitters() {
    for text in Self.samples {
      #expect(stringNeedsQuotes(text) == YAMLEmitter.needsQuotes(text), "\(text.debugDescription)")
    }
  }

  @Test func identifiersAreASCIILettersDigitsAndUnderscores() {
    for text in Self.samples {
      let expected =
        !text.isEmpty && text.unicodeScalars.allSatisfy { $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0)) }
        && !("0"..."9").contains(text.unicodeScalars.first!)
      #expect(isASCIIIdentifier(text) == expected, "\(text.debugDescription)")
      if expected {
        #expect(!YAMLEmitter.syntaxNeedsQuotes(text) && !YAMLEmitter.keyNeedsQuotes(text), "\(text.debugDescription)")
      }
    }
  }

  @Test func keysAndValuesKeepTheirStyles() throws {
    struct Keys: Encodable {
      var values: [String: String]
    }
    let node = try YAMLEncoder().encode(
      Keys(values: ["plain": "yes", "<<": "null", "a: b": "text", "count": "", "_x": "off", "ok": "fine"]))
    let mapping = try #require(node["values"]?.mapping)
    for entry in mapping.entries {
      let key = try #require(entry.key.scalar)
      let value = try #require(entry.value.scalar)
      #expect(key.style == (YAMLEmitter.keyNeedsQuotes(key.value) ? .doubleQuoted : .plain), "\(key.value)")
      #expect(value.style == (YAMLEmitter.needsQuotes(value.value) ? .doubleQuoted : .plain), "\(value.value)")
    }
  }
}
