import ArgumentParser
import Foundation
import SpecAuthoring
import SpecProcess
import SpecRunner
import SpecWorkers
import SpecYAML

/// `reducer-spec record [PATH…] [--filter TEXT] [--timeout DURATION]`: runs the selected
/// scenarios and rewrites their expectations from what really happened, as snapshot
/// testing's record mode does; prints a unified diff of each file it changes. With `CI` set,
/// it writes nothing and fails when anything would change.
///
/// The files are recorded by the worker pool that runs a run's scenarios, each file by one
/// worker (``WorkerRequest/record(_:filter:)``), which answers with the file's new text; the
/// command writes it. A reducer that traps, or a scenario that runs past `--timeout`, ends
/// the recording of its file only: the file is left as it is, and the crash is reported as
/// a run reports it, with the step it happened in and the end of the worker's standard error.
struct RecordCommand: Subcommand {
  static let configuration = CommandConfiguration(
    commandName: "record",
    abstract: "Runs scenarios and rewrites their expectations from what really happened.",
    discussion: """
      Sets each step's `state:` to the changes that really happened, rewrites a `receive:` that \
      received another action, and inserts `receive:` steps for the actions that no step received. \
      Every other line of the file stays as it was. With CI set, it writes nothing and exits 1 when \
      a file would change.

      Each file is recorded in a worker process, as a run's scenarios run: a reducer that traps, \
      or a scenario that takes longer than --timeout, leaves its file as it is, and the other files \
      are recorded. What the reducers print goes to standard error.
      """)

  @Argument(help: ArgumentHelp(
    "Spec files, or directories to search for *.yaml and *.yml files. (default: specs)", valueName: "path"))
  var paths: [String] = []

  @Option(help: ArgumentHelp("Record only the scenarios whose 'file › name' contains this text.", valueName: "text"))
  var filter: String?

  @OptionGroup var timeoutOption: TimeoutOption

  @OptionGroup var colorOption: ColorOption

  func validate() throws {
    _ = try RunSettings.timeout(timeoutOption.timeout)
  }

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
    var handled = 0

    /// Reports one file's answer, and writes the file.
    func handle(_ file: String, _ answer: WorkerPool.RecordAnswer, output: [UInt8]) {
      handled += 1
      // What the scenarios printed goes to standard error, as a run's workers' does.
      if !output.isEmpty { context.errorOutput(Self.forwardedOutput(recording: file, output)) }
      switch answer {
      case .failed(let message, let quote):
        context.errorOutput("\(file): error: \(message); the file was left as it is\(quote)\n")
        status = 1
        brokenFiles += 1
      case .recorded(let recorded):
        if !recorded.errors.isEmpty {
          context.errorOutput(recorded.errors)
          status = 1
        }
        if recorded.broken { brokenFiles += 1 }
        if recorded.scenarios > 0 {
          recordedScenarios += recorded.scenarios
          recordedFiles += 1
        }
        notes += recorded.notes
        guard let rewritten = recorded.rewritten else { return }
        changedFiles += 1
        context.output(style.unifiedDiff(recorded.diff))
        if !isCI, let reason = FileOutput.replace(rewritten, at: file) {
          context.errorOutput("\(file): error: cannot write the file: \(reason)\n")
          status = 1
        }
      }
    }

    let environment = WorkerPool.Configuration.workerEnvironment(context.environment)
    let pool = WorkerPool(
      WorkerPool.Configuration(
        executable: WorkerProcess.currentExecutable(), environment: environment,
        jobs: max(1, min(files.count, ProcessInfo.processInfo.activeProcessorCount)),
        timeout: try RunSettings.timeout(timeoutOption.timeout), stopAfterFailure: false))
    // The answers come as the workers finish; they are reported in file order.
    var answers = AnswersInFileOrder<(answer: WorkerPool.RecordAnswer, output: [UInt8])> { index, ready in
      handle(files[index], ready.answer, output: ready.output)
    }
    let interrupt = InterruptPipe()
    let ending = pool.record(files: files, filter: filter, interrupt: interrupt) { index, answer, output in
      answers.add(index, (answer, output))
    }
    // Interrupted: the files recorded after one that was not are reported (and written) too.
    answers.finish()

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
    if case .interrupted(let signal) = ending {
      context.errorOutput(
        "\(ProgramName.current): interrupted by \(SignalName.name(signal)); \(files.count - handled) of \(counted(files.count, "file")) were not recorded and are left as they are\n")
      return 128 + signal
    }
    return status
  }

  /// What a worker wrote to standard error while it recorded a file, under a line that
  /// names the file, ending with a line break.
  static func forwardedOutput(recording file: String, _ bytes: [UInt8]) -> String {
    var text = String(decoding: bytes, as: UTF8.self)
    if !text.hasSuffix("\n") { text += "\n" }
    return "── output while recording \(file) ──\n" + text
  }
}
