import Foundation
import Testing
@testable import SpecYAML
import TestSupport

/// ``SubsetScanner`` reads the YAML that specs are written in as libyaml does, and leaves the
/// rest to libyaml.
@Suite struct SubsetScannerTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The scanner's document of `text`, checked against libyaml's: `nil` when it declines.
  /// Records an issue when the two differ, or when libyaml rejects what the scanner read.
  static func scan(_ text: String, path: String = "test.yaml", sourceLocation: SourceLocation = #_sourceLocation)
    -> Tape?
  {
    scan(bytes: Array(text.utf8), path: path, sourceLocation: sourceLocation)
  }

  static func scan(bytes: [UInt8], path: String, sourceLocation: SourceLocation = #_sourceLocation) -> Tape? {
    let parser = YAMLParser()
    if let disagreement = parser.subsetScannerDisagreement(bytes: bytes, path: path) {
      Issue.record(
        "SubsetScanner \(disagreement)\n\(String(decoding: bytes, as: UTF8.self))", sourceLocation: sourceLocation)
    }
    let source = SourceFile(path: path, bytes: bytes)
    guard (try? parser.validateText(source)) != nil else { return nil }
    return SubsetScanner.scan(source, limits: parser.limits)
  }

  @Test func theExampleSpecsAreReadByTheScanner() throws {
    let specs = Self.repository.appendingPathComponent("specs")
    let files = try FileManager.default.contentsOfDirectory(atPath: specs.path).filter { $0.hasSuffix(".yaml") }
      .sorted()
    #expect(files.count == 10)
    for file in files {
      let bytes = try Array(Data(contentsOf: specs.appendingPathComponent(file)))
      #expect(Self.scan(bytes: bytes, path: file) != nil, "\(file) was declined")
    }
  }

  @Test func everyYAMLFileOfTheRepositoryReadsAsLibYAMLReadsIt() throws {
    var read = 0
    var declined: [String] = []
    let enumerator = FileManager.default.enumerator(atPath: Self.repository.path)!
    while let path = enumerator.nextObject() as? String {
      if path.hasPrefix(".build") || path.hasPrefix("Benchmarks/.build") || path.hasPrefix(".git") { continue }
      guard path.hasSuffix(".yaml") || path.hasSuffix(".yml") || path.hasPrefix("Fuzz/Corpus/") else { continue }
      let url = Self.repository.appendingPathComponent(path)
      guard let bytes = try? Array(Data(contentsOf: url)), bytes.count < 1 << 20 else { continue }
      if Self.scan(bytes: bytes, path: path) != nil { read += 1 } else { declined.append(path) }
    }
    #expect(read > 500)
  }
}

extension SubsetScannerTests {
  /// Texts in the subset, one for each of its shapes: the seeds of the mutations below.
  static let seeds: [String] = [
    "feature: Counter\nscenarios:\n  - name: counts\n    steps:\n      - send: increment\n        state: { count: 1 }\n",
    "a: 1\nb:\n- x\n- y  # c\nc: 'it''s'\nd: \"q\"\n",
    "a:\n  b:\n    c: [1, 2, {d: e}]\n  f: {}\ng: []\n",
    "text: |\n  one\n\n  two\nfolded: >-\n  a\n  b\n\n   c\nkeep: |+\n  x\n\nend: 1",
    "base: &base { x: 1, y: [a, b] }\nuse:\n  <<: *base\n  z: 2\nlist:\n  - &one a\n  - *one\n  - &m\n    k: v\n",
    "- a\n- b\n",
    "k: v",
    "k:\n",
    "k: \"é ünï\"\nü: x y z\n",
    "s:\n  - - a\n  -\n  - k: v\n    l: w\n  - { a: 1 }\n",
    "time: 2024-05-01T00:00:00Z\nurl: http://x.y/z#f\nlist: [a:b, c d, 'e, f']\n",
    "a:\n  - |\n    x\n     y\n  - >+\n\n    z\n\n  - |-\n    w\nb: 1\n",
    "k:\n- &a\n  x: 1\n- *a\n- &s [1, 2]\n- &t 'q'\n",
    "é: ü\n  # c\nx: [é, 'ü''s']\ny: \"ñ\" # é\n",
    "a: x # c\n# c2\nb:\n  # c3\n  c: d\n\n\ne:   \n",
    "a: \"tab\\tnew\\nq\\\"s\\\\ \\x41\\u00e9\\U0001F600\\0\\N\\_\\L\\P\\e\\/\\ \"\nb: [\"\\x7e\", {c: \"d\\te\"}]\n",
  ]

  static let insertions: [String] = [
    " ", "  ", "\n", ":", ": ", "-", "- ", "#", " #", "'", "\"", "''", "{", "}", "[", "]", ",", ", ", "&a ", "*a",
    "*base", "|", ">", "|-", "|+", "|2", "\n  ", "\n- ", "\n    ", "x", "é", "---", "...", "?", "? ", "!", "!!str ",
    "%", "@", "<<: ", "\\", "\t", "\r", "a: b", "\u{2028}", "\u{FEFF}", "\u{85}", "\\n", "\\\"", "\\x4", "\\u00e9",
    "\\U0001F600", "\\ud800", "\\0", "\\N", "\\q", "\\L",
  ]

  /// Mutated texts read by the scanner read as libyaml reads them (the helper records any
  /// difference); texts it declines are libyaml's alone.
  @Test func mutatedTextsReadAsLibYAMLReadsThem() {
    var generator = SplitMix64(seed: 0x5EED)
    var read = 0
    let rounds = Int(ProcessInfo.processInfo.environment["SUBSET_SCANNER_MUTANTS"] ?? "") ?? 6_000
    for round in 0..<rounds {
      var text = Array(Self.seeds[round % Self.seeds.count].utf8)
      for _ in 0..<(1 + Int(generator.next() % 3)) {
        let at = text.isEmpty ? 0 : Int(generator.next() % UInt64(text.count + 1))
        switch generator.next() % 4 {
        case 0:
          text.removeSubrange(at..<min(text.count, at + 1 + Int(generator.next() % 3)))
        case 1:
          // A line indented one more or one less.
          let start = text[..<at].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
          if generator.next() % 2 == 0 { text.insert(0x20, at: start) } else if start < text.count, text[start] == 0x20 { text.remove(at: start) }
        default:
          let insertion = Self.insertions[Int(generator.next() % UInt64(Self.insertions.count))]
          text.insert(contentsOf: Array(insertion.utf8), at: at)
        }
      }
      if Self.scan(bytes: text, path: "mutant-\(round).yaml") != nil { read += 1 }
    }
    // Most mutants are still in the subset: the comparison is not a vacuous one.
    #expect(read > rounds / 5)
  }
}

extension SubsetScannerTests {
  /// Shapes that libyaml reads and the scanner leaves to it.
  @Test(arguments: [
    "a: !!str 1\n", "a: \"x\\\n  y\"\n", "a: b\n  c\n", "? a\n: b\n", "%YAML 1.1\n---\na: 1\n", "---\na: 1\n",
    "a: [1,\n  2]\n", "- a\n", "a: |2\n   x\n", "a:\tb\n", "a: b\r\n", "a: 'x\n  y'\n", "\u{FEFF}a: 1\n",
    "a: [b: c]\n", "a: {b: 1,}\n", "a: &x\nb: 1\n", "  a: 1\n"
  ])
  func shapesLeftToLibYAML(_ text: String) throws {
    #expect(Self.scan(text) == nil)
    _ = try YAMLParser.parse(text)
  }

  /// A file with an error is always libyaml's, so its message is the one it always was.
  @Test(arguments: ["a: 1\nb: 2\na: 3\n", "a: 1\nb: *nowhere\n", "a: b: c\n", "a: [1, 2\n", "a: \"\\x4g\"\n", "a: \"\\ud800\"\n"])
  func filesWithErrorsAreLeftToLibYAML(_ text: String) {
    #expect(Self.scan(text) == nil)
    #expect(throws: YAMLError.self) { try YAMLParser.parse(text) }
  }

  /// A line of 100,000 scalars with characters of two bytes: columns are counted on along the
  /// line, not from its start for each mark (which took minutes).
  @Test func aLongLineOfCharactersOfSeveralBytesIsReadInOnePass() throws {
    let text = "a: [" + Array(repeating: "é", count: 100_000).joined(separator: ", ") + "]\n"
    let tape = try #require(Self.scan(text))
    let last = tape.nodes[tape.nodes.count - 1]
    #expect(last.start == Mark(line: 1, column: 5 + 3 * 99_999, offset: 4 + 4 * 99_999))
  }

  /// The eight-bytes-at-a-time check of the characters against the byte-by-byte rule, for
  /// every ASCII byte at every place in a word, and for characters that are not ASCII.
  @Test func charactersAreCheckedAsLibYAMLReadsThem() {
    for byte in UInt8(1)..<0x80 {
      let allowed = byte == 0x0A || (byte >= 0x20 && byte != 0x7F)
      for place in 0..<17 {
        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 17)
        bytes[place] = byte
        let result = bytes.withUnsafeBufferPointer { SubsetScanner.checkCharacters($0) }
        #expect(result == (allowed ? true : nil), "byte 0x\(String(byte, radix: 16)) at \(place)")
      }
    }
    for (text, expected) in [
      ("é ü 😀 \u{A0} \u{D7FF} \u{E000} \u{FFFD}", false as Bool?), ("\u{85}", nil), ("\u{9F}", nil), ("\u{2028}", nil),
      ("\u{2029}", nil), ("\u{FEFF}", nil), ("\u{FFFE}", nil), ("\u{FFFF}", nil),
    ] {
      let bytes = Array(("padding " + text + " more padding").utf8)
      #expect(bytes.withUnsafeBufferPointer { SubsetScanner.checkCharacters($0) } == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }
  }
}
