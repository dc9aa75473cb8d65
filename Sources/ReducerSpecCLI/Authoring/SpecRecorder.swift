import Foundation
import SpecRunner
import SpecYAML

/// Records the scenarios of one spec file and works out its new text: what a worker does
/// for a ``WorkerRequest/record(_:filter:)`` of `reducer-spec record`. It writes no file;
/// the command does.
@MainActor
enum SpecRecorder {
  /// Records the scenarios of the file at `path` that `filter` selects (all without one).
  ///
  /// - Parameters:
  ///   - onScenario: Called as each scenario starts to be recorded.
  ///   - onStep: Called with each step's place before the step runs.
  static func record(
    _ path: String, filter: String?, engine: SpecEngine, onScenario: () -> Void, onStep: (FileLocation) -> Void
  ) async -> RecordedFile {
    var recorded = RecordedFile()
    var selection = ScenarioSelection()
    selection.filters = [filter].compactMap { $0 }.filter { !$0.isEmpty }
    for loaded in engine.load(files: [path]) {
      guard loaded.errors.isEmpty else {
        recorded.errors += loaded.errors.map { $0.description + "\n" }.joined()
        recorded.broken = true
        continue
      }
      var recordings: [Int: [ScenarioRecording]] = [:]
      for planned in selection.apply(to: loaded.scenarios) {
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
