import ArgumentParser
import Foundation
import SpecProcess
import SpecRunner
import SpecWorkers
import SpecYAML

/// `reducer-spec [run] [PATH…]`: runs the scenarios of spec files in worker processes. The
/// options are checked and combined with the environment by ``RunSettings``.
struct RunCommand: Subcommand {
  static var configuration: CommandConfiguration {
    let name = ProgramName.current
    return CommandConfiguration(
      commandName: "run",
      abstract: "Runs spec files (the default subcommand).",
      usage: "\(name) [run] [<options>] [<path> ...]",
      discussion: """
        Each scenario runs in a worker process, so a reducer that traps fails only its own \
        scenario. Exit status: 0 when every scenario passed or was skipped, 1 when any failed \
        or a file has an error, 64 for a usage error, 130 when interrupted.

        For writing specs: \(name) check, features, schema, doc and record \
        (\(name) COMMAND --help).
        """
    )
  }

  @Argument(help: ArgumentHelp(
    "Spec files, and directories to search recursively for *.yaml and *.yml files. (default: specs)",
    valueName: "path"))
  var paths: [String] = []

  @OptionGroup var scope: RunScopeOptions

  @OptionGroup var timeoutOption: TimeoutOption

  @Flag(help: "Print the selected scenarios, one per line, and run nothing.")
  var list = false

  @Flag(name: .customLong("rerun-failed"), help: "Run only the scenarios that failed in the last run, and the files that could not run (as .reducer-spec/last-run.json records them).")
  var rerunFailed = false

  @Flag(name: .customLong("no-record"), help: "Leave .reducer-spec/last-run.json, the record of the last run, as it is.")
  var noRecord = false

  @Option(help: ArgumentHelp("Run only shard K of N (from 1): every Nth scenario of the selection, starting at the Kth.", valueName: "K/N"))
  var shard: String?

  @Flag(help: "After the run, watch the spec files: rerun a file's scenarios when it changes or is added. Keys: a reruns all, f the failed ones, q quits.")
  var watch = false

  @OptionGroup var reports: ReportOptions

  @MainActor
  func run(in context: CommandContext) async throws -> Int32 {
    var settings = try RunSettings(options: self, environment: context.environment)
    var previous: LastRunRecord?
    if settings.rerunFailed {
      do {
        previous = try LastRunRecord.load()
      } catch {
        context.errorOutput("\(ProgramName.current): error: \(error); run without --rerun-failed to write a new record\n")
        return 1
      }
    }
    if settings.rerunFailed {
      switch Self.rerun(previous, files: settings.files) {
      case .nothing(let message):
        context.errorOutput("\(ProgramName.current): \(message)\n")
        return 0
      case .run(let files, let selection):
        settings.files = files
        settings.selection.rerun = selection
      }
    }
    if let path = settings.shardStatusFile, !FileManager.default.fileExists(atPath: path) {
      _ = FileManager.default.createFile(atPath: path, contents: nil)
    }
    let workerEnvironment = WorkerPool.Configuration.workerEnvironment(context.environment)
    let output = OutputBuffer(write: context.output, writeBytes: context.outputBytes)
    defer { output.flush() }
    let worker = WorkerPool.Configuration(
      executable: WorkerProcess.currentExecutable(), environment: workerEnvironment, jobs: settings.jobs,
      timeout: settings.timeout, stopAfterFailure: settings.failFast)
    /// A run with its own reporters (`--watch` makes one for each of its runs).
    func makeRun() -> SpecRun {
      var reporters = makeReporters(
        settings, environment: context.environment, isTerminal: context.isTerminal, writeLine: output.appendLine,
        writeLineBytes: output.appendLine(utf8:))
      if settings.writesRecord {
        // Merged into the record as it is when the run ends (for a watch's later runs, the
        // record that the runs before them wrote).
        reporters.append(
          LastRunRecorder { line in
            output.flush()
            context.errorOutput(line + "\n")
          })
      }
      return SpecRun(
        settings: settings,
        engine: context.makeScenarioEngine(),
        reporters: reporters,
        worker: worker,
        output: output.append,
        errorOutput: { text in
          // What goes to standard error comes after the report lines written before it.
          output.flush()
          context.errorOutput(text)
        },
        flushOutput: output.flush)
    }
    if let roots = settings.watchRoots {
      return WatchSession(
        roots: roots, worker: worker, makeRun: makeRun, isTerminal: context.isTerminal, output: output.append,
        flushOutput: output.flush
      ).run()
    }
    let run = makeRun()
    return settings.list ? run.list() : run.run()
  }

  /// What `--rerun-failed` does with the last run's record.
  enum Rerun: Equatable {
    /// Nothing to run, and why (a line for standard error, without `reducer-spec: `).
    case nothing(String)
    /// The files that hold something to rerun, and the selection of their scenarios.
    case run(files: [String], selection: RerunSelection)
  }

  /// What `--rerun-failed` runs of `files` (the paths expanded), after a last run recorded
  /// as `record` (`nil`: none).
  static func rerun(
    _ record: LastRunRecord?, files: [String], directory: String = FileManager.default.currentDirectoryPath
  ) -> Rerun {
    let path = LastRunRecord.path
    guard let record else { return .nothing("no record of a last run in \(path): nothing to rerun") }
    guard record.hasFailures else { return .nothing("nothing failed in the last run (\(path)): nothing to rerun") }
    let selection = record.rerun(in: directory)
    let chosen = files.filter { selection.includes(file: $0) }
    guard !chosen.isEmpty else {
      return .nothing("nothing that failed in the last run (\(path)) is in the given paths: nothing to rerun")
    }
    return .run(files: chosen, selection: selection)
  }
}
