import Foundation
import FuzzTargets
import SpecYAML
import Testing

/// Every input that the fuzzers kept (Fuzz/Corpus/TARGET, minimised) and every input that
/// once broke a target (Fuzz/Regressions/TARGET, each named for what it found), run
/// through its target in this process, as the fuzzer runs them: none may crash, and what
/// each target checks (errors located inside the input, a rewrite that parses and keeps the
/// comments) must hold. The fuzzers themselves run from Fuzz/run (Fuzz/README.md).
@Suite struct FuzzRegressionTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

  static func inputs(_ target: FuzzTarget, in folder: String) -> [String] {
    FuzzInputs.files(at: [root + "/Fuzz/\(folder)/" + target.rawValue])
  }

  @MainActor
  @Test(arguments: FuzzTarget.allCases)
  func everyKeptInputHolds(_ target: FuzzTarget) {
    let inputs = Self.inputs(target, in: "Corpus")
    // The committed corpus is there: an empty one would test nothing.
    #expect(!inputs.isEmpty, "Fuzz/Corpus/\(target.rawValue) is empty")
    for path in inputs {
      let violations = target.run(FuzzInputs.read(path))
      #expect(violations.isEmpty, "\(path): \(violations.joined(separator: "\n"))")
    }
  }

  @MainActor
  @Test(arguments: FuzzTarget.allCases)
  func everyInputThatOnceFailedHolds(_ target: FuzzTarget) {
    for path in Self.inputs(target, in: "Regressions") {
      let violations = target.run(FuzzInputs.read(path))
      #expect(violations.isEmpty, "\(path): \(violations.joined(separator: "\n"))")
    }
  }

  /// The location check has teeth: what points outside the input is a violation.
  @MainActor
  @Test func aLocationOutsideTheInputIsAViolation() {
    let input = Array("a: 1\nbb: 22\r\n".utf8)
    #expect(FuzzChecks.lineLengths(input) == [4, 6, 0])
    func check(_ line: Int, _ column: Int, file: String = "fuzz.yaml") -> String? {
      FuzzChecks.violation(FileLocation(file: file, line: line, column: column), in: input, what: "e")
    }
    #expect(check(2, 7) == nil)
    #expect(check(3, 1) == nil)
    #expect(check(4, 1) == "e: line 4 is outside the input's 3 lines")
    #expect(check(2, 8) == "e: column 8 is outside line 2 (6 bytes)")
    #expect(check(0, 0) == "e: line 0 is outside the input's 3 lines")
    #expect(check(1, 1, file: "other.yaml") == "e: in another file, other.yaml:1:1")
    #expect(FuzzChecks.violation(nil, in: input, what: "e") == "e: no location")
  }
}
