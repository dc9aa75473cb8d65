import ExampleFeatureRegistry
import Foundation
import ReducerSpecCLI
import SpecAuthoring
import SpecRunner
import SpecYAML

/// The fuzz targets: each reads arbitrary bytes as one kind of input that users (or their
/// tools) hand reducer-spec, and checks what must hold whatever the bytes: it returns, and
/// every error it reports points inside the input. What does not hold is returned as
/// violations; `reducer-spec-fuzz` traps on them, so that libFuzzer keeps the input, and the
/// regression tests (Tests/FuzzRegressionTests) expect none for every committed input.
///
/// A crash (a trap, an out-of-bounds access that AddressSanitizer sees, a stack overflow)
/// needs no check: libFuzzer reports it, and the regression tests would crash.
public enum FuzzTarget: String, CaseIterable, Sendable {
  /// The YAML parser and the document builder (``YAMLParser/parseDocument(bytes:path:)``).
  case yaml
  /// The spec loader: parse, validate and bind against the example features.
  case spec
  /// The typed decoder into each example feature's `State` and `Action`.
  case decode
  /// State paths (`todos[id=0].title`) and action paths (`todos[id=0].toggle: null`).
  case paths
  /// The JUnit reader of `reducer-spec doc --results`.
  case junit
  /// `record`'s rewriter: a spec rewritten with changes chosen from the input, which must
  /// parse again and keep every comment line outside what it replaced.
  case rewrite
  /// The run record, `.reducer-spec/last-run.json`: its own line reader against JSONDecoder.
  case record

  /// The name that errors give the input.
  static let path = "fuzz.yaml"

  /// Runs the target on one input; returns what did not hold (empty: all held).
  @MainActor
  public func run(_ bytes: [UInt8]) -> [String] {
    switch self {
    case .yaml: FuzzChecks.yaml(bytes)
    case .spec: FuzzChecks.spec(bytes)
    case .decode: FuzzChecks.decode(bytes)
    case .paths: FuzzChecks.paths(bytes)
    case .junit: FuzzChecks.junit(bytes)
    case .rewrite: FuzzRewrite.check(bytes)
    case .record: FuzzChecks.record(bytes)
    }
  }
}

/// What the targets check.
@MainActor
package enum FuzzChecks {
  /// One engine for the whole process: binding builds caches per feature.
  static let engine = SpecEngine(features: exampleFeatures)

  // MARK: - Locations

  /// Where an error may point in `bytes`: line 1 up to one past the last line, and a column
  /// from 1 up to one past the line's end (in bytes, which is at least as many as its
  /// characters). Line 0 (the file as a whole) only for what is about the whole file.
  package static func violation(_ location: FileLocation?, in bytes: [UInt8], what: String, wholeFileAllowed: Bool = false)
    -> String?
  {
    guard let location else { return "\(what): no location" }
    guard location.file == FuzzTarget.path else { return "\(what): in another file, \(location)" }
    if location.line == 0 && location.column == 0 && wholeFileAllowed { return nil }
    let lines = lineLengths(bytes)
    guard location.line >= 1, location.line <= lines.count else {
      return "\(what): line \(location.line) is outside the input's \(lines.count) lines"
    }
    guard location.column >= 1, location.column <= lines[location.line - 1] + 1 else {
      return "\(what): column \(location.column) is outside line \(location.line) (\(lines[location.line - 1]) bytes)"
    }
    return nil
  }

  /// The length in bytes of each line (without its line break), lines ending where
  /// libyaml's do (``SourceFile/lineBreakLength(in:at:)``); a last line without a break
  /// counts, and so does the empty line after a final break.
  package static func lineLengths(_ bytes: [UInt8]) -> [Int] {
    var lengths: [Int] = []
    var current = 0
    var index = 0
    while index < bytes.count {
      let length = SourceFile.lineBreakLength(in: bytes, at: index)
      if length > 0 {
        lengths.append(current)
        current = 0
        index += length
      } else {
        current += 1
        index += 1
      }
    }
    lengths.append(current)
    return lengths
  }

  // MARK: - Targets

  static func yaml(_ bytes: [UInt8]) -> [String] {
    // The fast reader of common files builds what libyaml's events build, or leaves the file
    // to libyaml.
    if let disagreement = YAMLParser().subsetScannerDisagreement(bytes: bytes, path: FuzzTarget.path) {
      return ["SubsetScanner \(disagreement)"]
    }
    do {
      let document = try YAMLParser().parseDocument(bytes: bytes, path: FuzzTarget.path)
      // The tree the authoring commands walk, built from the tape.
      _ = document.root
      _ = try YAMLParser().parse(bytes: bytes, path: FuzzTarget.path)
      return []
    } catch let error as YAMLError {
      return [violation(error.location, in: bytes, what: "YAML error `\(error.message)`", wholeFileAllowed: true)]
        .compactMap { $0 }
    } catch {
      return ["the parser threw a \(type(of: error)), not a YAMLError: \(error)"]
    }
  }

  static func spec(_ bytes: [UInt8]) -> [String] {
    let loaded = engine.load(bytes: bytes, path: FuzzTarget.path)
    var violations: [String] = []
    if loaded.errors.isEmpty && loaded.scenarios.isEmpty && loaded.feature == nil {
      violations.append("a file without errors names no feature")
    }
    for error in loaded.errors {
      if let problem = violation(error.location, in: bytes, what: "spec error `\(error.message)`", wholeFileAllowed: true) {
        violations.append(problem)
      }
    }
    for scenario in loaded.scenarios {
      if let problem = violation(scenario.location, in: bytes, what: "scenario `\(scenario.name)`") {
        violations.append(problem)
      }
    }
    return violations
  }

  static func decode(_ bytes: [UInt8]) -> [String] {
    let document: YAMLDocument
    do {
      document = try YAMLParser().parseDocument(bytes: bytes, path: FuzzTarget.path)
    } catch {
      return []  // The yaml target checks the parser's errors.
    }
    var violations: [String] = []
    let decoder = YAMLDecoder()
    func decode<T: Decodable>(_ type: T.Type) -> String? {
      do {
        _ = try decoder.decode(T.self, from: document)
        return nil
      } catch let error as YAMLError {
        return violation(error.location, in: bytes, what: "decoding \(T.self): `\(error.message)`")
      } catch {
        return "decoding \(T.self) threw a \(Swift.type(of: error)), not a YAMLError: \(error)"
      }
    }
    for feature in exampleFeatures {
      for type in [feature.types.state.type, feature.types.action.type] {
        if let problem = decode(type) { violations.append(problem) }
      }
    }
    return violations
  }

  static func paths(_ bytes: [UInt8]) -> [String] {
    let text = String(decoding: bytes, as: UTF8.self)
    var violations: [String] = []
    // A state path: an error's offset is a character offset into the path.
    do {
      let path = try StatePath(parsing: text)
      if path.components.isEmpty && text != "self" { violations.append("`\(text)` parsed as `self`") }
    } catch {
      let count = text.unicodeScalars.count
      if !(0...count).contains(error.offset) {
        violations.append("state path error at offset \(error.offset), outside the \(count) characters of `\(text)`")
      }
    }
    // An action path: the text as a key (`a.b[id=1].c: 1`) and as a plain scalar.
    for line in text.split(whereSeparator: \.isNewline).prefix(4) {
      let source = Array(("- { " + line + ": 1 }\n- " + line + "\n").utf8)
      guard let root = try? YAMLParser().parse(bytes: source, path: FuzzTarget.path), let items = root.sequence
      else { continue }
      for item in items {
        do {
          _ = try ActionPath.expand(item)
        } catch let error as YAMLError {
          if let problem = violation(error.location, in: source, what: "action path `\(line)`: `\(error.message)`") {
            violations.append(problem)
          }
        } catch {
          violations.append("action path `\(line)` threw a \(type(of: error)), not a YAMLError")
        }
      }
    }
    return violations
  }

  /// The record's two readers agree: what the line reader takes, JSONDecoder reads the same
  /// (when it reads it at all: it refuses some text the line reader repairs, such as
  /// invalid UTF-8), and a record read either way is written back as text that reads back
  /// the same.
  static func record(_ bytes: [UInt8]) -> [String] {
    var violations: [String] = []
    let written = LastRunRecord.decodeWritten(bytes)
    let decoded = try? LastRunRecord.decode(Data(bytes))
    if let written, let decoded, written != decoded {
      violations.append("the line reader read \(written), and decode read \(decoded)")
    }
    if let written, let strict = try? JSONDecoder().decode(LastRunRecord.self, from: Data(bytes)), strict != written {
      violations.append("the line reader read \(written), and JSONDecoder read \(strict)")
    }
    for record in [written, decoded].compactMap({ $0 }) {
      let text = record.encoded()
      if LastRunRecord.decodeWritten([UInt8](text)) != record {
        violations.append("\(record) was written as text that does not read back the same")
      }
    }
    return violations
  }

  static func junit(_ bytes: [UInt8]) -> [String] {
    let text = String(decoding: bytes, as: UTF8.self)
    guard let results = try? JUnitResults(xml: text, currentDirectory: "/work") else { return [] }
    // Every result read is a test case of the text.
    let cases = text.components(separatedBy: "<testcase").count - 1
    return results.count <= cases ? [] : ["\(results.count) results from \(cases) <testcase elements"]
  }
}
