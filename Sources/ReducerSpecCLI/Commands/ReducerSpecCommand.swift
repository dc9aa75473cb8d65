import ArgumentParser
import Foundation
import SpecRunner
import SpecYAML

/// The `reducer-spec` command line, for an executable to hand over to.
///
/// A team's executable registers its features and calls ``main(engine:)``:
///
/// ```swift
/// // Sources/my-specs/main.swift
/// import SpecRunner
///
/// await ReducerSpecCommand.main { SpecEngine(registry: .myFeatures) }
/// ```
///
/// The same executable is started again as the worker processes that run the scenarios
/// (and record the files for `reducer-spec record`), so everything before the call must be
/// safe to run more than once.
public enum ReducerSpecCommand {
  /// What `--version` prints.
  public static let version = "0.1.0"

  /// Reads the command line, runs the specs it names, and exits with the run's status:
  /// 0 when every scenario passed or was skipped, 1 when one failed or a file has an
  /// error, 64 for a usage error, 130 when interrupted with Ctrl-C.
  ///
  /// - Parameter engine: Makes the engine that loads and runs specs. Called once in the
  ///   command, to plan the run, and once in each worker process.
  @MainActor
  public static func main(engine: @MainActor () -> any ScenarioEngine) async -> Never {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.first == workerArgument {
      exit(await WorkerMain.serve(engine: engine()))
    }
    exit(await run(arguments: arguments, environment: ProcessInfo.processInfo.environment, engine: engine))
  }

  // MARK: - The command

  /// Runs the command with `arguments` (without the program name); returns its exit status.
  @MainActor
  static func run(
    arguments: [String], environment: [String: String], engine: @MainActor () -> any ScenarioEngine
  ) async -> Int32 {
    if let first = arguments.first, let subcommand = AuthoringSubcommand(rawValue: first) {
      return await runAuthoring(
        subcommand, arguments: Array(arguments.dropFirst()), environment: environment, engine: engine,
        output: writeOutput, errorOutput: writeError)
    }
    let settings: RunSettings
    do {
      settings = try self.settings(arguments: arguments, environment: environment)
    } catch {
      let status = CommandOptions.exitCode(for: error).rawValue
      let message = CommandOptions.fullMessage(for: error)
      if status == 0 { writeOutput(message + "\n") } else { writeError(message + "\n") }
      return status
    }
    if let path = settings.shardStatusFile, !FileManager.default.fileExists(atPath: path) {
      _ = FileManager.default.createFile(atPath: path, contents: nil)
    }

    var workerEnvironment = environment
    // Swift's crash backtraces are long and slow to print; a crashed scenario's report
    // quotes the end of the worker's standard error, which should be the fatal error.
    // SWIFT_BACKTRACE set by the user is kept.
    if workerEnvironment["SWIFT_BACKTRACE"] == nil { workerEnvironment["SWIFT_BACKTRACE"] = "enable=no" }
    let output = OutputBuffer(write: writeOutput)
    defer { output.flush() }
    let run = SpecRun(
      settings: settings,
      engine: engine(),
      reporters: makeReporters(
        settings, environment: environment, isTerminal: isatty(1) == 1, standardOutput: output.append),
      worker: WorkerPool.Configuration(
        executable: currentExecutable(), environment: workerEnvironment, jobs: settings.jobs,
        timeout: settings.timeout, stopAfterFailure: settings.failFast),
      output: output.append,
      errorOutput: { text in
        // What goes to standard error comes after the report lines written before it.
        output.flush()
        writeError(text)
      },
      flushOutput: output.flush)
    return settings.list ? run.list() : run.run()
  }

  /// Parses and checks the command line.
  ///
  /// - Throws: ArgumentParser's errors (their message and exit status come from
  ///   `CommandOptions.fullMessage(for:)` and `exitCode(for:)`), or a `ValidationError`.
  static func settings(arguments: [String], environment: [String: String]) throws -> RunSettings {
    let options = try CommandOptions.parse(arguments)
    return try RunSettings(options: options, environment: environment)
  }

  // MARK: - Process

  /// This process's executable, to start again as a worker.
  static func currentExecutable() -> String {
    #if os(Linux)
      if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        return path
      }
    #endif
    return Bundle.main.executablePath ?? CommandLine.arguments[0]
  }

  /// Writes to standard output at once (the run's reports go through an `OutputBuffer`,
  /// which calls this whenever the command is about to wait).
  static func writeOutput(_ text: String) {
    try? FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
  }

  static func writeError(_ text: String) {
    try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
  }
}
