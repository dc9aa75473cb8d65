import ArgumentParser
import Foundation
import SpecAuthoring
import SpecProcess
import SpecRunner
import SpecWorkers
import SpecYAML

/// The `reducer-spec` command line, for an executable to hand over to.
///
/// A team's executable registers its features and calls ``main(features:)``:
///
/// ```swift
/// // Sources/my-specs/main.swift
/// import ReducerSpecCLI
///
/// await ReducerSpecCommand.main(features: [counterFeature, searchFeature])
/// ```
///
/// The same executable is started again as the worker processes that run the scenarios
/// and record the files, so everything before the call must be safe to run more than once.
public enum ReducerSpecCommand {
  /// What `--version` prints.
  public static let version = ProgramName.version

  /// Reads the command line, runs the subcommand it names (`run` when it names none), and
  /// exits with its status: for a run, 0 when every scenario passed or was skipped, 1 when
  /// one failed or a file has an error, 64 for a usage error, 130 when interrupted with Ctrl-C.
  ///
  /// - Parameter features: The features that spec files name. Two features with the same
  ///   name are a programming error.
  @MainActor
  public static func main(features: [Feature]) async -> Never {
    // One engine serves everything a process does: a worker's runs and recordings, the
    // command's authoring subcommands and `--list`.
    await main(makeEngine: { SpecEngine(features: features) }, scenarioEngine: { $0 })
  }

  /// ``main(features:)`` with another engine for runs: for the tests of the worker pool,
  /// which run the command with an engine that fails, traps and hangs on purpose.
  @MainActor
  package static func main(features: [Feature], scenarioEngine: @escaping @MainActor () -> any ScenarioEngine)
    async -> Never
  {
    await main(makeEngine: { SpecEngine(features: features) }, scenarioEngine: { _ in scenarioEngine() })
  }

  /// Serves as a worker (started with ``workerArgument``) or runs the command line.
  ///
  /// - Parameters:
  ///   - makeEngine: Makes the features' engine: `record` requests and the authoring
  ///     subcommands. Not for `--version`, which needs no features.
  ///   - scenarioEngine: Makes the engine of runs, given the features' engine.
  @MainActor
  private static func main(
    makeEngine: () -> SpecEngine, scenarioEngine: @escaping @MainActor (SpecEngine) -> any ScenarioEngine
  ) async -> Never {
    let arguments = Array(CommandLine.arguments.dropFirst())
    ProgramName.current = ProgramName.name(invokedAs: CommandLine.arguments.first)
    // An executable built for code coverage writes its profile where `LLVM_PROFILE_FILE`
    // says (as `coverage --code` tells its workers), and else nowhere: not a
    // `default.profraw` in the user's directory from every command and worker. (`getenv`:
    // `ProcessInfo`'s `environment` builds a dictionary of every variable.)
    if getenv("LLVM_PROFILE_FILE") == nil, ProfileRuntime.isInstrumented(executable: WorkerProcess.currentExecutable()) == true {
      ProfileRuntime.redirectOwnProfile(to: "/dev/null")
    }
    // Before the engine, which indexes every feature's actions and state, which `--version`
    // does not need (`run(arguments:in:)` answers it the same way).
    if arguments == ["--version"] {
      writeOutput(version + "\n")
      exit(0)
    }
    let engine = makeEngine()
    if arguments.first == workerArgument {
      exit(await WorkerMain.serve(engine: scenarioEngine(engine), recorder: engine))
    }
    let context = CommandContext(
      engine: engine, makeScenarioEngine: { scenarioEngine(engine) },
      environment: ProcessInfo.processInfo.environment, isTerminal: isatty(1) == 1, output: writeOutput,
      errorOutput: writeError, outputBytes: { _ = writeAll(1, $0) })
    exit(await run(arguments: arguments, in: context))
  }

  // MARK: - The command

  /// Runs the command with `arguments` (without the program name); returns its exit status:
  /// the subcommand's, 0 for `--help` and `--version`, 64 for a usage error.
  @MainActor
  static func run(arguments: [String], in context: CommandContext) async -> Int32 {
    // `--version` alone is answered before ArgumentParser builds the command tree, which
    // asks the runtime about every option's type. It prints what ArgumentParser would
    // (`RunOptionsTests` compares the two).
    if arguments == ["--version"] {
      context.output(version + "\n")
      return 0
    }
    let subcommand: any Subcommand
    do {
      var command = try RootCommand.parseAsRoot(arguments)
      guard let parsed = command as? any Subcommand else {
        // `--help` and `reducer-spec help NAME` parse as ArgumentParser's help command,
        // whose run throws the help of the subcommand asked about.
        try command.run()
        throw CleanExit.helpRequest(RootCommand.self)
      }
      subcommand = parsed
    } catch {
      return report(error, as: RootCommand.self, in: context)
    }
    do {
      return try await subcommand.run(in: context)
    } catch {
      // A `ValidationError` from the work itself: a usage error of that subcommand.
      return report(error, as: type(of: subcommand), in: context)
    }
  }

  /// Writes a usage error (or `--help`, `--version`) as ArgumentParser words it, with the
  /// usage of `command`; returns the exit status: 0, or 64 for a usage error.
  @MainActor
  private static func report(_ error: any Error, as command: any ParsableCommand.Type, in context: CommandContext)
    -> Int32
  {
    let status = command.exitCode(for: error).rawValue
    var message = command.fullMessage(for: error)
    // A subcommand's type, asked alone, does not know whose it is.
    let name = command.configuration.commandName ?? ""
    if command != RootCommand.self {
      let program = ProgramName.current
      message = message.replacingOccurrences(of: "See '\(name) --help'", with: "See '\(program) \(name) --help'")
        .replacingOccurrences(of: "Usage: \(name) ", with: "Usage: \(program) \(name) ")
    }
    if status == 0 { context.output(message + "\n") } else { context.errorOutput(message + "\n") }
    return status
  }

  // MARK: - Process

  /// Writes to standard output at once (a run's reports go through an `OutputBuffer`,
  /// which calls this whenever the command is about to wait).
  static func writeOutput(_ text: String) {
    write(text, to: 1)
  }

  static func writeError(_ text: String) {
    write(text, to: 2)
  }

  /// Writes the text's bytes as they are, with no `Data` made on the way: a run writes
  /// its reports after almost every answer from its workers.
  private static func write(_ text: String, to descriptor: Int32) {
    var text = text
    _ = text.withUTF8 { writeAll(descriptor, UnsafeRawBufferPointer($0)) }
  }
}
