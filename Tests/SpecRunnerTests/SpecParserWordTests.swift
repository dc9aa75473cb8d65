import SpecYAML
import Testing
@testable import SpecRunner

/// The parser reads a step's usual keys as numbers written out in its source: each must be
/// the short word that the tape reads of the key in a file, or the key would be read as
/// unknown.
@Suite struct SpecParserWordTests {
  @Test func theStepKeysWordsAreTheShortWordsOfTheKeys() throws {
    let keys = ["send", "receive", "state", "timeout", "note", "as"]
    let text = keys.map { "\($0): x\n" }.joined()
    let tape = try YAMLParser().parseDocument(bytes: Array(text.utf8), path: "w.yaml").tape
    var words: [String: UInt64] = [:]
    for ref in tape.nodes.indices where tape.kind(ref) == .scalar { words[tape.string(ref)] = tape.shortWord(ref) }
    #expect(
      keys.map { words[$0] }
        == [
          SpecParser.sendWord, SpecParser.receiveWord, SpecParser.stateWord, SpecParser.timeoutWord,
          SpecParser.noteWord, SpecParser.asWord,
        ])
  }
}
