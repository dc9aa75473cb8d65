import ArgumentParser
import Foundation
import SpecRunner
import SpecYAML

/// `reducer-spec record [PATH…] [--filter TEXT]`: runs the selected scenarios and rewrites
/// their expectations from what really happened, as snapshot testing's record mode does;
/// prints a unified diff of each file it changes. With `CI` set, it writes nothing and
/// fails when anything would change.
///
/// The files are recorded in a child process (the same executable, started with
/// ``recordWorkerArgument``), one after another, so that a reducer that traps ends the
/// recording of its file only: the file is left as it is, the crash is reported with the
/// step it happened in, and a new child records the files after it.
struct RecordCommand: Subcommand {
  static let configuration = CommandConfiguration(
    commandName: "record",
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

  @OptionGroup var colorOption: ColorOption

  /// Whether `CI` asks for a read-only run: set, and not empty, `false` or `0`.
  static func isCI(_ environment: [String: String]) -> Bool {
    guard let value = environment["CI"] else { return false }
    return !["", "false", "0"].contains(value.lowercased())
  }

  func run(in context: CommandContext) async throws -> Int32 {
    let files = try SpecPaths.expand(paths)
    let isCI = Self.isCI(context.environment)
    let style = TerminalStyle(enabled: colorOption.isOn(in: context))
    var status: Int32 = 0
    var recordedScenarios = 0
    var recordedFiles = 0
    var changedFiles = 0
    var brokenFiles = 0
    var notes: [String] = []

    Self.recordInChildProcesses(files, filter: filter, write: !isCI, environment: context.environment) { outcome in
      if !outcome.errors.isEmpty { context.errorOutput(outcome.errors) }
      context.output(style.unifiedDiff(outcome.diff))
      notes += outcome.notes
      if outcome.failed { status = 1 }
      if outcome.broken { brokenFiles += 1 }
      if outcome.scenarios > 0 {
        recordedScenarios += outcome.scenarios
        recordedFiles += 1
      }
      if outcome.changed { changedFiles += 1 }
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

  // MARK: - One file

  /// What recording one file did.
  struct FileOutcome: Codable, Equatable {
    /// How many scenarios were recorded.
    var scenarios = 0
    /// Whether the file changed (or would have, with `CI` set).
    var changed = false
    /// The file has errors, or its recording crashed: it was left as it is.
    var broken = false
    /// Anything that makes `record` exit 1 besides the summary's reasons.
    var failed = false
    /// The unified diff of the file, if it changed.
    var diff = ""
    /// For standard error: the file's errors, or why it could not be written.
    var errors = ""
    /// `PATH:LINE:COLUMN: note: …` lines, printed after every file's diff.
    var notes: [String] = []
  }

  /// Records the selected scenarios of the file at `path` and rewrites it (when `write`).
  /// `onStep` is told each step's place before the step runs.
  @MainActor
  static func recordFile(
    _ path: String, filter: String?, write: Bool, engine: SpecEngine, onStep: (FileLocation) -> Void
  ) async -> FileOutcome {
    var outcome = FileOutcome()
    var selection = ScenarioSelection()
    selection.filters = [filter].compactMap { $0 }.filter { !$0.isEmpty }
    for loaded in engine.load(files: [path]) {
      guard loaded.errors.isEmpty else {
        outcome.errors += loaded.errors.map { $0.description + "\n" }.joined()
        outcome.broken = true
        outcome.failed = true
        continue
      }
      var recordings: [Int: [ScenarioRecording]] = [:]
      for planned in selection.apply(to: loaded.scenarios) {
        guard let (spec, program) = engine.scenario(planned.id) else { continue }
        if spec.skip != nil { continue }
        guard spec.isExhaustive else {
          outcome.notes.append("\(spec.location): note: exhaustivity is off: this scenario is left as it is")
          continue
        }
        guard let recordable = program as? any RecordableScenario else { continue }
        recordings[planned.id.scenario, default: []].append(await recordable.record(onStep: onStep))
        outcome.scenarios += 1
      }
      guard outcome.scenarios > 0 else { continue }

      let file = loaded.file
      guard let data = FileManager.default.contents(atPath: file),
        let root = try? YAMLParser().parse(bytes: Array(data), path: file)
      else {
        outcome.errors += "\(file): error: the file could not be read again to rewrite it\n"
        outcome.failed = true
        continue
      }
      var rewriter = SpecRewriter(source: root.source ?? SourceFile(path: file, bytes: Array(data)), root: root)
      for index in recordings.keys.sorted() {
        rewriter.apply(recordings[index]!, scenario: index)
      }
      outcome.notes += rewriter.notes.map { "\($0.location): note: \($0.message)" }
      let rewritten = rewriter.rewritten
      guard rewritten != Array(data) else { continue }
      outcome.changed = true
      outcome.diff = UnifiedDiff.diff(
        old: String(decoding: data, as: UTF8.self), new: String(decoding: rewritten, as: UTF8.self), path: file)
      if write, let reason = FileOutput.replace(rewritten, at: file) {
        outcome.errors += "\(file): error: cannot write the file: \(reason)\n"
        outcome.failed = true
      }
    }
    return outcome
  }

  // MARK: - Child processes

  /// What the child process writes on its channel, one JSON line each.
  enum ChildMessage: Codable {
    /// A step is about to run.
    case step(String)
    /// The next file is done.
    case outcome(FileOutcome)
  }

  /// Records `files` in child processes of this executable, and hands each file's outcome
  /// to `handle` as it comes, in order. When a child crashes, the file it was on is left
  /// as it is and its outcome says so, with the step it crashed in and the end of what the
  /// child wrote to standard error; a new child goes on with the next file.
  @MainActor
  static func recordInChildProcesses(
    _ files: [String], filter: String?, write: Bool, environment: [String: String],
    handle: (FileOutcome) -> Void
  ) {
    var childEnvironment = environment
    // As for a run's workers: the quote of a crash should end with its fatal error.
    if childEnvironment["SWIFT_BACKTRACE"] == nil { childEnvironment["SWIFT_BACKTRACE"] = "enable=no" }
    var next = 0
    while next < files.count {
      let remaining = Array(files[next...])
      let process = Process()
      process.executableURL = URL(fileURLWithPath: ReducerSpecCommand.currentExecutable())
      process.arguments = [recordWorkerArgument, filter ?? "", write ? "write" : "dry"]
      process.environment = childEnvironment
      let input = Pipe()
      let channel = Pipe()
      let errors = Pipe()
      process.standardInput = input
      process.standardOutput = channel
      process.standardError = errors
      do {
        try process.run()
      } catch {
        for path in remaining {
          handle(
            FileOutcome(
              broken: true, failed: true,
              errors: "\(path): error: cannot start a process to record the file: \(error)\n"))
        }
        return
      }
      // The files, as a JSON array: the child reads them all before it starts.
      let paths = (try? JSONEncoder().encode(remaining)) ?? Data("[]".utf8)
      let writer = Thread {
        try? input.fileHandleForWriting.write(contentsOf: paths)
        try? input.fileHandleForWriting.close()
      }
      writer.start()
      // Standard error is read on a thread of its own, so that neither pipe can fill up.
      let errorOutput = ErrorOutput()
      let reader = Thread { errorOutput.finish(errors.fileHandleForReading.readDataToEndOfFile()) }
      reader.start()

      var lastStep: String?
      var done = 0
      var lines = LineBuffer()
      let decoder = JSONDecoder()
      while true {
        let chunk = channel.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        for line in lines.append(chunk) {
          switch try? decoder.decode(ChildMessage.self, from: Data(line)) {
          case .step(let place)?:
            lastStep = place
          case .outcome(let outcome)?:
            lastStep = nil
            done += 1
            handle(outcome)
          case nil:
            break
          }
        }
      }
      process.waitUntilExit()
      let stderr = errorOutput.wait()
      next += done
      if done == remaining.count, process.terminationReason == .exit, process.terminationStatus == 0 {
        // What the scenarios printed goes on to standard error, as a run's workers' does.
        if !stderr.isEmpty { handle(FileOutcome(errors: String(decoding: stderr, as: UTF8.self))) }
        return
      }
      guard next < files.count else { return }
      let what =
        process.terminationReason == .uncaughtSignal
        ? "crashed with signal \(SignalName.describe(process.terminationStatus))"
        : "ended with status \(process.terminationStatus)"
      let place = lastStep.map { "in the step at \($0)" } ?? "before its first step"
      let tail = WorkerPool.tail(of: Array(stderr), lines: WorkerPool.quotedErrorLines)
      let quote = tail.isEmpty ? "" : "\nIts last lines on standard error:\n" + tail
      handle(
        FileOutcome(
          broken: true, failed: true,
          errors: "\(files[next]): error: recording \(what) \(place); the file was left as it is\(quote)\n"))
      next += 1
    }
  }

  /// Serves ``recordWorkerArgument``: records the files that standard input lists (a JSON
  /// array), reporting on the channel that was standard output (standard output itself
  /// goes to standard error, so that what a reducer prints cannot break the messages).
  /// Returns the exit status.
  @MainActor
  static func serve(arguments: [String], engine: any ScenarioEngine) async -> Int32 {
    guard arguments.count == 3, let engine = engine as? SpecEngine,
      let files = try? JSONDecoder().decode([String].self, from: FileHandle.standardInput.readDataToEndOfFile())
    else { return 64 }
    let channel = WorkerMain.duplicateStandardOutput()
    let encoder = LineEncoder()
    func send(_ message: ChildMessage) {
      let bytes = encoder.encode(message)
      if !bytes.withUnsafeBytes({ writeAll(channel, $0) }) { _exit(4) }  // The command is gone.
    }
    for path in files {
      let outcome = await recordFile(
        path, filter: arguments[1].isEmpty ? nil : arguments[1], write: arguments[2] == "write", engine: engine,
        onStep: { send(.step($0.description)) })
      send(.outcome(outcome))
    }
    return 0
  }
}

/// The first argument that starts an executable as the process that records one file.
let recordWorkerArgument = "__record"

/// A child's standard error, read to its end on another thread.
private final class ErrorOutput: @unchecked Sendable {
  private let condition = NSCondition()
  private var data: Data?

  func finish(_ data: Data) {
    condition.lock()
    self.data = data
    condition.signal()
    condition.unlock()
  }

  func wait() -> Data {
    condition.lock()
    defer { condition.unlock() }
    while data == nil { condition.wait() }
    return data!
  }
}
