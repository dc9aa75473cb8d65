import ArgumentParser
import Foundation
import SpecRunner
import SpecYAML

/// The commands for writing specs, besides running them: `reducer-spec check`, `features`,
/// `schema`, `doc` and `record`. The first argument names one; any other first argument is
/// a run's (`reducer-spec specs/`), so a directory named like a command is given as
/// `./check`.
enum AuthoringSubcommand: String, CaseIterable, Sendable {
  case check, features, schema, doc, record

  /// The command's options type: its parsing, `--help` and usage errors.
  var command: any AuthoringCommand.Type {
    switch self {
    case .check: CheckCommand.self
    case .features: FeaturesCommand.self
    case .schema: SchemaCommand.self
    case .doc: DocCommand.self
    case .record: RecordCommand.self
    }
  }
}

/// What an authoring command works with: the engine with the registered features, the
/// environment, and the process's output.
@MainActor
struct AuthoringContext {
  var engine: SpecEngine
  var environment: [String: String]
  /// Whether standard output is a terminal (for `--color auto`).
  var isTerminal: Bool
  /// Writes text (with its line breaks) to standard output.
  var output: (String) -> Void
  /// Writes text (with its line breaks) to standard error.
  var errorOutput: (String) -> Void
}

/// One authoring command: ArgumentParser reads its options, then ``run(in:)`` does the work
/// and returns the exit status.
protocol AuthoringCommand: ParsableCommand {
  @MainActor func run(in context: AuthoringContext) throws -> Int32
}

/// An authoring command whose work awaits (it runs scenarios): ``runAsync(in:)`` is called
/// instead of ``AuthoringCommand/run(in:)``.
protocol AsyncAuthoringCommand: AuthoringCommand {
  @MainActor func runAsync(in context: AuthoringContext) async throws -> Int32
}

extension AsyncAuthoringCommand {
  @MainActor func run(in context: AuthoringContext) throws -> Int32 {
    context.errorOutput("Error: `reducer-spec` runs this command asynchronously\n")
    return 70
  }
}

extension ReducerSpecCommand {
  /// Runs `reducer-spec NAME ARGUMENTS…` for an authoring command; returns its exit
  /// status: its own, 0 for `--help`, 64 for a usage error.
  @MainActor
  static func runAuthoring(
    _ subcommand: AuthoringSubcommand, arguments: [String], environment: [String: String],
    engine: @MainActor () -> any ScenarioEngine, output: @escaping (String) -> Void,
    errorOutput: @escaping (String) -> Void
  ) async -> Int32 {
    let type = subcommand.command
    do {
      let command = try type.parse(arguments)
      guard let specEngine = engine() as? SpecEngine else {
        errorOutput("Error: `reducer-spec \(subcommand.rawValue)` needs the features of a SpecEngine\n")
        return 64
      }
      let context = AuthoringContext(
        engine: specEngine, environment: environment, isTerminal: isatty(1) == 1, output: output,
        errorOutput: errorOutput)
      if let command = command as? any AsyncAuthoringCommand { return try await command.runAsync(in: context) }
      return try command.run(in: context)
    } catch {
      let status = type.exitCode(for: error).rawValue
      let message = type.fullMessage(for: error)
      if status == 0 { output(message + "\n") } else { errorOutput(message + "\n") }
      return status
    }
  }
}
