import ArgumentParser
import Foundation

/// `reducer-spec record [PATH…] [--filter TEXT]`: runs the selected scenarios in this
/// process and rewrites their expectations from what really happened, as snapshot
/// testing's record mode does; prints a unified diff of each file it changes. With `CI`
/// set, it writes nothing and fails when anything would change.
struct RecordCommand: AsyncAuthoringCommand {
  static let configuration = CommandConfiguration(
    commandName: "reducer-spec record",
    abstract: "Runs scenarios and rewrites their expectations from what really happened.",
    discussion: """
      Sets each step's `state:` to the changes that really happened, rewrites a `receive:` that \
      received another action, and inserts `receive:` steps for the actions that no step received. \
      Every other line of the file stays as it was. With CI set, it writes nothing and exits 1 when \
      a file would change.
      """)

  @Argument(help: ArgumentHelp(
    "Spec files, or directories to search for *.yaml and *.yml files. (default: specs)", valueName: "path"))
  var paths: [String] = []

  @Option(help: ArgumentHelp("Record only the scenarios whose 'file › name' contains this text.", valueName: "text"))
  var filter: String?

  /// Whether `CI` asks for a read-only run: set, and not empty, `false` or `0`.
  static func isCI(_ environment: [String: String]) -> Bool {
    guard let value = environment["CI"] else { return false }
    return !["", "false", "0"].contains(value.lowercased())
  }

  func runAsync(in context: AuthoringContext) async throws -> Int32 {
    let files = try SpecPaths.expand(paths)
    let isCI = Self.isCI(context.environment)
    var selection = ScenarioSelection()
    selection.filters = [filter].compactMap { $0 }.filter { !$0.isEmpty }
    let engine = context.engine
    var status: Int32 = 0
    var recordedScenarios = 0
    var recordedFiles = 0
    var changedFiles = 0
    var brokenFiles = 0
    var notes: [String] = []

    for loaded in engine.load(files: files) {
      guard loaded.errors.isEmpty else {
        for error in loaded.errors { context.errorOutput(error.description + "\n") }
        brokenFiles += 1
        status = 1
        continue
      }
      let selected = selection.apply(to: loaded.scenarios)
      guard !selected.isEmpty else { continue }
      var recordings: [Int: [ScenarioRecording]] = [:]
      var recordedHere = 0
      for planned in selected {
        guard let (spec, program) = engine.scenario(planned.id) else { continue }
        if spec.skip != nil { continue }
        guard spec.isExhaustive else {
          notes.append("\(spec.location): note: exhaustivity is off: this scenario is left as it is")
          continue
        }
        guard let recordable = program as? any RecordableScenario else { continue }
        recordings[planned.id.scenario, default: []].append(await recordable.record())
        recordedHere += 1
      }
      guard recordedHere > 0 else { continue }
      recordedScenarios += recordedHere
      recordedFiles += 1

      let path = loaded.file
      guard let data = FileManager.default.contents(atPath: path),
        let root = try? YAMLParser().parse(bytes: Array(data), path: path)
      else {
        context.errorOutput("\(path): error: the file could not be read again to rewrite it\n")
        status = 1
        continue
      }
      var rewriter = SpecRewriter(source: root.source ?? SourceFile(path: path, bytes: Array(data)), root: root)
      for index in recordings.keys.sorted() {
        rewriter.apply(recordings[index]!, scenario: index)
      }
      notes += rewriter.notes.map { "\($0.location): note: \($0.message)" }
      let rewritten = rewriter.rewritten
      guard rewritten != Array(data) else { continue }
      changedFiles += 1
      context.output(
        UnifiedDiff.diff(
          old: String(decoding: data, as: UTF8.self), new: String(decoding: rewritten, as: UTF8.self), path: path))
      if isCI { continue }
      if let reason = FileOutput.replace(rewritten, at: path) {
        context.errorOutput("\(path): error: cannot write the file: \(reason)\n")
        status = 1
      }
    }

    for note in notes { context.output(note + "\n") }
    var summary =
      "Recorded \(counted(recordedScenarios, "scenario")) in \(counted(recordedFiles, "file")); "
    if changedFiles == 0 {
      summary += "no changes."
    } else if isCI {
      summary += "\(counted(changedFiles, "file")) would change, but CI is set: nothing was written."
      status = 1
    } else {
      summary += "\(counted(changedFiles, "file")) changed."
    }
    if brokenFiles > 0 {
      summary += " \(counted(brokenFiles, "file")) with errors \(brokenFiles == 1 ? "was" : "were") left as \(brokenFiles == 1 ? "it is" : "they are")."
    }
    context.output(summary + "\n")
    return status
  }
}
