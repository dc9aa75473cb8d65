import Foundation
import SpecRunner
import SpecYAML

/// Records the scenarios of one spec file and works out its new text: what a worker does
/// for a `WorkerRequest.record(_:filter:)` of `reducer-spec record` (SpecWorkers). It writes no file;
/// the command does.
@MainActor
package enum SpecRecorder {
  /// Records the scenarios of the file at `path` that `filter` selects (all without one).
  ///
  /// - Parameters:
  ///   - onScenario: Called as each scenario starts to be recorded.
  ///   - onStep: Called with each step's place before the step runs.
  package static func record(
    _ path: String, filter: String?, engine: SpecEngine, onScenario: () -> Void, onStep: (FileLocation) -> Void
  ) async -> RecordedFile {
    var recorded = RecordedFile()
    let filters = [filter].compactMap { $0 }.filter { !$0.isEmpty }
    for loaded in engine.load(files: [path]) {
      guard loaded.errors.isEmpty else {
        recorded.errors += loaded.errors.map { $0.description + "\n" }.joined()
        recorded.broken = true
        continue
      }
      var recordings: [Int: [ScenarioRecording]] = [:]
      for planned in loaded.scenarios where filters.allSatisfy({ planned.qualifiedName.contains($0) }) {
        guard let (spec, program) = engine.scenario(planned.id) else { continue }
        if spec.skip != nil { continue }
        guard spec.isExhaustive else {
          recorded.notes.append("\(spec.location): note: exhaustivity is off: this scenario is left as it is")
          continue
        }
        guard let recordable = program as? any RecordableScenario else { continue }
        onScenario()
        recordings[planned.id.scenario, default: []].append(await recordable.record(onStep: onStep))
        recorded.scenarios += 1
      }
      guard recorded.scenarios > 0 else { continue }

      let file = loaded.file
      guard let data = FileManager.default.contents(atPath: file),
        let root = try? YAMLParser().parse(bytes: Array(data), path: file)
      else {
        recorded.errors += "\(file): error: the file could not be read again to rewrite it\n"
        continue
      }
      var rewriter = SpecRewriter(source: root.source ?? SourceFile(path: file, bytes: Array(data)), root: root)
      for index in recordings.keys.sorted() {
        rewriter.apply(recordings[index]!, scenario: index)
      }
      recorded.notes += rewriter.notes.map { "\($0.location): note: \($0.message)" }
      let rewritten = rewriter.rewritten
      guard rewritten != Array(data) else { continue }
      recorded.rewritten = rewritten
      recorded.diff = UnifiedDiff.diff(
        old: String(decoding: data, as: UTF8.self), new: String(decoding: rewritten, as: UTF8.self), path: file)
    }
    return recorded
  }
}

/// What recording one file found: the answer to a worker's `WorkerRequest.record(_:filter:)`.
package struct RecordedFile: Hashable, Sendable {
  /// How many scenarios were recorded.
  package var scenarios = 0
  /// The file has errors: it was not recorded, and is left as it is.
  package var broken = false
  /// For standard error, with their line breaks: the file's errors, or why it could not be
  /// rewritten. Not empty makes `record` exit 1.
  package var errors = ""
  /// `PATH:LINE:COLUMN: note: …` lines, printed after every file's diff.
  package var notes: [String] = []
  /// The file's new text, when it differs from the text that was recorded.
  package var rewritten: [UInt8]?
  /// The unified diff from the old text to ``rewritten``.
  package var diff = ""

  package init(
    scenarios: Int = 0, broken: Bool = false, errors: String = "", notes: [String] = [], rewritten: [UInt8]? = nil,
    diff: String = ""
  ) {
    self.scenarios = scenarios
    self.broken = broken
    self.errors = errors
    self.notes = notes
    self.rewritten = rewritten
    self.diff = diff
  }
}
