import ArgumentParser
import Foundation
import SpecProcess
import SpecRunner
import SpecYAML

/// What every subcommand works with: the registered features, the environment, and the
/// process's output.
@MainActor
struct CommandContext {
  /// Loads and binds spec files against the registered features, in this process.
  var engine: SpecEngine
  /// Makes the engine of a run: the command's own (for `--list`) and each worker's.
  var makeScenarioEngine: @MainActor () -> any ScenarioEngine
  var environment: [String: String]
  /// Whether standard output is a terminal (for `--color auto`).
  var isTerminal: Bool
  /// Writes text (with its line breaks) to standard output.
  var output: (String) -> Void
  /// Writes text (with its line breaks) to standard error.
  var errorOutput: (String) -> Void
  /// Writes UTF-8 bytes to standard output, as ``output`` writes a string's: a run's
  /// reports, which wait as bytes in an `OutputBuffer`, go out without becoming a string.
  /// `nil` (tests that read the output as strings): they go through ``output``.
  var outputBytes: ((UnsafeRawBufferPointer) -> Void)? = nil
}

/// One subcommand of `reducer-spec`: ArgumentParser reads its options (its `--help`, its
/// usage errors), then ``run(in:)`` does the work and returns the exit status.
protocol Subcommand: ParsableCommand {
  @MainActor func run(in context: CommandContext) async throws -> Int32
}

/// The root of the command line: `reducer-spec [run] …`, `reducer-spec check …` and the
/// other subcommands. It is never run itself: ``ReducerSpecCommand`` parses the arguments
/// with it and runs the subcommand they name.
struct RootCommand: ParsableCommand {
  static var configuration: CommandConfiguration {
    let name = ProgramName.current
    return CommandConfiguration(
      commandName: name,
      abstract: "Runs YAML spec files as exhaustive TestStore tests.",
      usage: "\(name) [<subcommand>] [<options>] [<path> ...]",
      discussion: """
        Without a subcommand, \(name) runs the specs: `\(name) specs/` is \
        `\(name) run specs/`. A directory named like a subcommand is given as `./check`.
        """,
      version: ReducerSpecCommand.version,
      subcommands: [
        RunCommand.self, CheckCommand.self, FeaturesCommand.self, SchemaCommand.self, DocCommand.self,
        RecordCommand.self, CoverageCommand.self,
      ],
      defaultSubcommand: RunCommand.self
    )
  }
}
