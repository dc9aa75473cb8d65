import SpecYAML
import Testing
@testable import SpecRunner

/// The parser reads a step's usual keys as numbers written out in its source: each must be
/// the number that `Tape.word` makes of the key, or the key would be read as unknown.
@Suite struct SpecParserWordTests {
  @Test func theStepKeysWordsAreTheKeys() {
    #expect(SpecParser.sendWord == Tape.word("send"))
    #expect(SpecParser.receiveWord == Tape.word("receive"))
    #expect(SpecParser.stateWord == Tape.word("state"))
    #expect(SpecParser.timeoutWord == Tape.word("timeout"))
    #expect(SpecParser.noteWord == Tape.word("note"))
    #expect(SpecParser.asWord == Tape.word("as"))
  }
}
