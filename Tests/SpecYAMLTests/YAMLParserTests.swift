import Foundation
import TestSupport
import Testing
@testable import SpecYAML

@Suite struct YAMLParserTests {
  // MARK: - Nodes and marks

  @Test func buildsNodesWithMarksStylesAndOrder() throws {
    let text = """
      feature: Counter
      count: "42"
      items:
        - 'one'
        - |
          two
      flow: { b: 1, a: 2 }
      """
    let root = try YAMLParser.parse(text, path: "specs/counter.yaml")
    let mapping = try #require(root.mapping)
    #expect(mapping.keys == ["feature", "count", "items", "flow"])
    #expect(root.start == Mark(line: 1, column: 1))
    #expect(root.location == FileLocation(file: "specs/counter.yaml", line: 1, column: 1))

    let count = try #require(root["count"])
    #expect(count.scalar == YAMLNode.Scalar("42", style: .doubleQuoted))
    #expect(count.start.line == 2 && count.start.column == 8)
    #expect(count.end.line == 2 && count.end.column == 12)
    #expect(count.location?.description == "specs/counter.yaml:2:8")

    let items = try #require(root["items"]?.sequence)
    #expect(items.map(\.scalar) == [.init("one", style: .singleQuoted), .init("two\n", style: .literal)])
    #expect(items[1].start == Mark(line: 5, column: 5))

    let flow = try #require(root["flow"]?.mapping)
    #expect(flow.keys == ["b", "a"])
    #expect(flow["a"]?.start == Mark(line: 7, column: 18))
  }

  @Test func columnsCountCharactersNotBytes() throws {
    let root = try YAMLParser.parse("é: ü\nnäme: wert\n")
    #expect(root["é"]?.start == Mark(line: 1, column: 4))
    #expect(root["näme"]?.start == Mark(line: 2, column: 7))
  }

  /// Offsets are bytes (what `record` edits), though libyaml's marks count characters: with
  /// characters of two and three bytes before a node, and after a byte order mark.
  /// (Found by the `rewrite` fuzz target: `record` wrote into the wrong bytes of a file with
  /// `…` in its description.)
  @Test func offsetsCountBytesNotCharacters() throws {
    let text = "é: ü\nnäme: wert … ☃\nlast: x\n"
    let root = try YAMLParser.parse(text)
    let bytes = Array(text.utf8)
    func byteOffset(of needle: String) -> Int {
      let needle = Array(needle.utf8)
      return bytes.indices.first { bytes[$0...].starts(with: needle) }!
    }
    #expect(root["näme"]?.start.offset == byteOffset(of: "wert"))
    #expect(root["näme"]?.end.offset == byteOffset(of: "\nlast"))
    #expect(root["last"]?.start.offset == byteOffset(of: "x\n"))
    let marked = try YAMLParser.parse("\u{FEFF}count: 1\nlabel: x\n")
    #expect(marked["label"]?.start.offset == 3 + 9 + 7)
    // ASCII text: offsets are indexes, as before.
    #expect(try YAMLParser.parse("a: 1\nbb: 22\n")["bb"]?.start.offset == 9)
  }

  /// At the end of a file without a final line break, an error is at the end of its last
  /// line, not on a line after it (found by the `yaml` fuzz target: `8:1` in a file of 7
  /// lines).
  @Test func anErrorAtTheEndOfTheFileIsOnItsLastLine() throws {
    // The empty document of `---` is at the end of its line (found by the `decode` target).
    #expect(try YAMLParser.parse("---").start == Mark(line: 1, column: 4))
    #expect(try YAMLParser.parse("---\n").start == Mark(line: 2, column: 1))
    // After a last line break of any kind (found by the `yaml` target: `{<` and LS).
    let cases = [
      ("a: { b: 1", 1, 10), ("x: 1\na: [1, 2", 2, 9), ("x: 1\na: [1, 2\n", 2, 9), ("{<\u{2028}", 1, 3),
      ("x: 1\na: [1, 2\r\n\n  \n", 2, 9),
      ("{a\u{85}bcd", 2, 4), ("z ennd:\n:<<: 1 })a\n\u{85}rint", 4, 5),
    ]
    for (text, line, column) in cases {
      let error = try #require(throws: YAMLError.self) { try YAMLParser.parse(text) }
      #expect(error.location?.line == line, "\(text)")
      #expect(error.location?.column == column, "\(text)")
    }
  }

  /// An error at the end of a file that ends with a line break is on its last line of text,
  /// after its end, and shows that line: not on the empty line after the break.
  @Test func anErrorAfterTheLastLineBreakShowsTheLastLine() throws {
    let text = "feature: Counter\nscenarios: [\n  { name: one }\n"
    let error = try #require(throws: YAMLError.self) { try YAMLParser.parse(text, path: "specs/counter.yaml") }
    #expect(
      error.rendered == """
        specs/counter.yaml:3:16: error: did not find expected ',' or ']' while parsing a flow sequence that starts at 2:12
          { name: one }
                       ^
        """)
  }

  /// Lines end where libyaml's do, so that a location's line is the line shown: at `\n`,
  /// `\r\n`, a `\r` alone, NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR, in libyaml's
  /// errors, in the NUL and UTF-8 checks, and in the source line quoted (found by the `yaml`
  /// fuzz target: a NUL after a `\r` was placed on the line before).
  @Test func linesEndWhereLibyamlEndsThem() throws {
    let breaks = ["\n", "\r\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"]
    for lineBreak in breaks {
      let nul = try #require(throws: YAMLError.self) { try YAMLParser.parse("a: 1" + lineBreak + "bé\u{0}") }
      #expect(nul.location?.line == 2, "\(Array(lineBreak.unicodeScalars))")
      #expect(nul.location?.column == 3, "\(Array(lineBreak.unicodeScalars))")
      let text = "a: 1" + lineBreak + "b: [1" + lineBreak + "c"
      let unclosed = try #require(throws: YAMLError.self) { try YAMLParser.parse(text) }
      let source = SourceFile(path: "x", bytes: Array(text.utf8))
      #expect(unclosed.location?.line == 3, "\(Array(lineBreak.unicodeScalars))")
      #expect(source.line(2) == "b: [1", "\(Array(lineBreak.unicodeScalars))")
      #expect(source.line(3) == "c", "\(Array(lineBreak.unicodeScalars))")
    }
  }

  @Test func largeMappingsAreIndexed() throws {
    let text = (0..<2000).map { "key\($0): \($0)" }.joined(separator: "\n")
    let mapping = try #require(try YAMLParser.parse(text).mapping)
    #expect(mapping.count == 2000)
    #expect(mapping.position(of: "key1999") == 1999)
    #expect(mapping["key1234"]?.scalar?.value == "1234")
    #expect(mapping["missing"] == nil)
  }

  @Test func mappingEditsKeepOrderAndIndex() {
    var mapping = YAMLNode.Mapping()
    for index in 0..<12 { mapping["k\(index)"] = .scalar("\(index)") }
    mapping["k3"] = .scalar("three")
    mapping["k0"] = nil
    #expect(mapping.keys == (1..<12).map { "k\($0)" })
    #expect(mapping["k3"]?.scalar?.value == "three")
    #expect(mapping.position(of: "k11") == 10)
  }

  @Test func aLeadingByteOrderMarkIsSkipped() throws {
    let root = try YAMLParser.parse("\u{FEFF}count: 1\nlabel: x\n")
    #expect(root.mapping?.keys == ["count", "label"])
    #expect(root["label"]?.start == Mark(line: 2, column: 8))
  }

  @Test func nullForms() throws {
    let root = try YAMLParser.parse("a: null\nb: ~\nc:\nd: NULL\ne: 'null'\nf: !!str null\ng: !!null nil\n")
    let nulls = ["a", "b", "c", "d", "e", "f", "g"].map { root[$0]!.isNull }
    #expect(nulls == [true, true, true, true, false, false, true])
  }

  // MARK: - Anchors, aliases and merge keys

  @Test func aliasesStandForTheirAnchorAtTheirOwnPlace() throws {
    let root = try YAMLParser.parse("repo: &r { id: 1, name: swift }\nagain: *r\n")
    #expect(YAMLEmitter.flow(root) == "{ repo: { id: 1, name: swift }, again: { id: 1, name: swift } }")
    #expect(root["again"]?.start == Mark(line: 2, column: 8))
    #expect(root["again"]?["id"]?.start == Mark(line: 1, column: 16))
  }

  @Test func mergeKeysFollowYAMLRules() throws {
    let text = """
      base: &base { a: 1, b: 2 }
      other: &other { b: 20, c: 30 }
      one:
        <<: *base
        b: 3
      many:
        x: 0
        <<: [*base, *other]
        a: 10
      """
    let root = try YAMLParser.parse(text)
    // Keys written in the mapping win; among merged mappings, earlier ones win.
    #expect(YAMLEmitter.flow(root["one"]!) == "{ a: 1, b: 3 }")
    #expect(YAMLEmitter.flow(root["many"]!) == "{ x: 0, b: 2, c: 30, a: 10 }")
  }

  @Test func aQuotedMergeKeyIsAnOrdinaryKey() throws {
    let root = try YAMLParser.parse("\"<<\": 1\n")
    #expect(root.mapping?.keys == ["<<"])
  }

  // MARK: - Errors

  @Test func emptyFile() {
    #expect(parseError("") == "spec.yaml:1:1: error: the file is empty: it has no YAML document")
    #expect(parseError("# only a comment\n\n") == "spec.yaml:1:1: error: the file is empty: it has no YAML document")
  }

  @Test func moreThanOneDocument() {
    #expect(
      parseError("a: 1\n---\nb: 2\n")
        == "spec.yaml:2:1: error: the file has more than one YAML document; a spec file holds exactly one")
  }

  @Test func duplicateKeys() {
    #expect(parseError("a: 1\nb: 2\na: 3\n") == "spec.yaml:3:1: error: duplicate key `a` in this mapping (first at 1:1)")
    let large = (0..<20).map { "k\($0): 1" }.joined(separator: "\n") + "\n  \nk7: 2\n"
    #expect(parseError(large) == "spec.yaml:22:1: error: duplicate key `k7` in this mapping (first at 8:1)")
    #expect(parseError("{ x: 1, x: 2 }") == "spec.yaml:1:9: error: duplicate key `x` in this mapping (first at 1:3)")
  }

  @Test func unknownAlias() {
    #expect(parseError("a: *nope\n") == "spec.yaml:1:4: error: unknown alias `*nope`: no anchor `&nope` is defined before it")
  }

  @Test func badMergeValues() {
    #expect(
      parseError("a:\n  <<: 3\n")
        == "spec.yaml:2:7: error: the merge key `<<` takes a mapping or a list of mappings, not the number 3")
    #expect(
      parseError("a:\n  <<: [{x: 1}, y]\n")
        == "spec.yaml:2:16: error: the merge key `<<` takes a mapping or a list of mappings, not a list holding the string \"y\""
    )
  }

  @Test func nonScalarKeys() {
    #expect(parseError("[a, b]: 1\n") == "spec.yaml:1:1: error: a mapping key must be a scalar, not a sequence")
    #expect(parseError("? {a: 1}\n: 2\n") == "spec.yaml:1:3: error: a mapping key must be a scalar, not a mapping")
  }

  @Test func unsupportedTags() {
    #expect(parseError("a: !custom 1\n") == "spec.yaml:1:4: error: unsupported tag `!custom`; specs use plain YAML values")
    #expect(parseError("a: !!python/object 1\n") == "spec.yaml:1:4: error: unsupported tag `!!python/object`; specs use plain YAML values")
  }

  @Test func libyamlSyntaxErrorsKeepTheirPositions() {
    #expect(parseError("a: b: c\n") == "spec.yaml:1:5: error: mapping values are not allowed in this context")
    #expect(
      parseError("steps:\n  - send: x\n  state: 1\n")
        == "spec.yaml:3:3: error: did not find expected '-' indicator while parsing a block collection that starts at 2:3")
    #expect(
      parseError("a: [1, 2\n")
        == "spec.yaml:1:9: error: did not find expected ',' or ']' while parsing a flow sequence that starts at 1:4")
    #expect(
      parseError("a: \"open\n")
        == "spec.yaml:1:9: error: found unexpected end of stream while scanning a quoted scalar that starts at 1:4")
    #expect(
      parseError("a:\tb\n\tc: d\n")
        == "spec.yaml:2:1: error: found a tab character that violates indentation while scanning a plain scalar that starts at 1:4")
  }

  @Test func renderedErrorsQuoteTheLineWithACaret() throws {
    do {
      _ = try YAMLParser.parse("feature: Counter\nscenarios:\n  - name: x\n    name: y\n", path: "specs/c.yaml")
      Issue.record("expected an error")
    } catch let error as YAMLError {
      #expect(
        error.rendered == """
          specs/c.yaml:4:5: error: duplicate key `name` in this mapping (first at 3:5)
              name: y
              ^
          """)
    }
  }

  // MARK: - Hostile input

  @Test func billionLaughsIsRejected() {
    var text = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
    for level in 1...9 {
      let previous = "*a\(level - 1)"
      text += "a\(level): &a\(level) [\(Array(repeating: previous, count: 10).joined(separator: ", "))]\n"
    }
    #expect(text.utf8.count < 1024)
    #expect(
      parseError(text)
        == "spec.yaml:6:45: error: aliases expand the document past 1000000 nodes; an alias may not repeat a large anchor this often"
    )
  }

  @Test func manySmallAliasesAreFine() throws {
    let text = "x: &x 1\nlist: [" + Array(repeating: "*x", count: 5000).joined(separator: ", ") + "]\n"
    #expect(try YAMLParser.parse(text)["list"]?.sequence?.count == 5000)
  }

  @Test func deepNestingIsAnErrorNotACrash() {
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    #expect(parseError(deep) == "spec.yaml:1:257: error: the nesting is deeper than 256 levels")
    let block = (0..<300).map { String(repeating: " ", count: $0) + "k:" }.joined(separator: "\n") + " 1\n"
    #expect(parseError(block) == "spec.yaml:257:257: error: the nesting is deeper than 256 levels")
    let fine = String(repeating: "[", count: 256) + String(repeating: "]", count: 256)
    #expect(parseError(fine).hasPrefix("no error"))
  }

  @Test func aliasesCannotNestPastTheLimit() {
    let inner = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
    let text = "a: &a \(inner)\nb: \(String(repeating: "[", count: 100))*a\(String(repeating: "]", count: 100))\n"
    #expect(parseError(text) == "spec.yaml:2:104: error: the nesting is deeper than 256 levels once `*a` is expanded")
  }

  @Test func nulByteIsAnError() {
    #expect(parseError("a: 1\nb: x\0y\n") == "spec.yaml:2:5: error: the file contains a NUL byte; spec files are UTF-8 text")
  }

  @Test func aNulByteAfterNonASCIITextIsPlacedByCharacters() {
    // Valid UTF-8 holding a NUL: the standard library's validation passes it, the search for NUL does not.
    #expect(parseError("a: 1\nb: é€😀\0\n") == "spec.yaml:2:7: error: the file contains a NUL byte; spec files are UTF-8 text")
    #expect(parseError("") == "spec.yaml:1:1: error: the file is empty: it has no YAML document")
  }

  @Test func invalidUTF8IsAnError() throws {
    let bytes: [UInt8] = Array("a: ok\nb: é".utf8) + [0xFF, 0x41]
    #expect(throws: YAMLError.self) { try YAMLParser().parse(bytes: bytes, path: "bad.yaml") }
    do {
      _ = try YAMLParser().parse(bytes: bytes, path: "bad.yaml")
    } catch let error as YAMLError {
      #expect(error.description == "bad.yaml:2:5: error: the file is not valid UTF-8 (byte 0xFF); spec files are UTF-8 text")
    }
    // Overlong encodings and surrogates are invalid too.
    for sequence: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
      #expect(throws: YAMLError.self) { try YAMLParser().parse(bytes: Array("a: ".utf8) + sequence, path: "x") }
    }
  }

  @Test func fileOverTheSizeLimit() throws {
    let file = try TemporaryFile(Array(repeating: UInt8(ascii: "#"), count: (16 << 20) + 1))
    do {
      _ = try YAMLParser.parse(contentsOf: file.path)
      Issue.record("expected an error")
    } catch let error as YAMLError {
      #expect(error.description == "\(file.path): error: the file is 16 MiB, over the 16 MiB limit")
    }
    #expect(
      parseError("a: 1\n", limits: .init(maxFileSize: 3)) == "spec.yaml: error: the file is 5 bytes, over the 3 bytes limit")
  }

  @Test func unreadableFiles() throws {
    do {
      _ = try YAMLParser.parse(contentsOf: "/nonexistent/spec.yaml")
      Issue.record("expected an error")
    } catch let error as YAMLError {
      #expect(error.description == "/nonexistent/spec.yaml: error: cannot read the file: No such file or directory")
    }
    do {
      _ = try YAMLParser.parse(contentsOf: NSTemporaryDirectory())
      Issue.record("expected an error")
    } catch let error as YAMLError {
      #expect(error.description == "\(NSTemporaryDirectory()): error: cannot read the file: it is a directory")
    }
  }

  @Test func readsFilesFromDisk() throws {
    let file = try TemporaryFile(Array("feature: Counter\n".utf8))
    let root = try YAMLParser.parse(contentsOf: file.path)
    #expect(root["feature"]?.location == FileLocation(file: file.path, line: 1, column: 10))
    #expect(root.source?.line(1) == "feature: Counter")
  }
}
