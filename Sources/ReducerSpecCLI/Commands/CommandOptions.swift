import ArgumentParser
import SpecRunner
import SpecYAML

/// The command line of `reducer-spec`, as ArgumentParser reads it. Values are checked and
/// combined with the environment by ``RunSettings``; this type only describes the flags.
struct CommandOptions: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "reducer-spec",
    abstract: "Runs YAML spec files as exhaustive TestStore tests.",
    usage: "reducer-spec [<options>] [<path> ...]",
    discussion: """
      Each scenario runs in a worker process, so a reducer that traps fails only its own \
      scenario. Exit status: 0 when every scenario passed or was skipped, 1 when any failed \
      or a file has an error, 64 for a usage error, 130 when interrupted.

      For writing specs: reducer-spec check, features, schema, doc and record \
      (reducer-spec COMMAND --help).
      """,
    version: ReducerSpecCommand.version
  )

  @Argument(help: ArgumentHelp(
    "Spec files, and directories to search recursively for *.yaml and *.yml files. (default: specs)",
    valueName: "path"))
  var paths: [String] = []

  @Option(help: ArgumentHelp("How many scenarios run at once, each in its own worker process. (default: the number of cores)", valueName: "n"))
  var jobs: Int?

  @Option(help: ArgumentHelp("How long one scenario may take before its worker is stopped: 300ms, 1.5s, 2m, or seconds.", valueName: "duration"))
  var timeout: String = "10s"

  @Option(help: ArgumentHelp("Run only the scenarios whose 'file › name' contains this text.", valueName: "text"))
  var filter: String?

  @Option(help: ArgumentHelp("Run only the scenarios with this tag; !tag leaves out those with it. Repeatable: a scenario must have every tag and none of the !tags.", valueName: "tag"))
  var tag: [String] = []

  @Flag(help: "Print the selected scenarios, one per line, and run nothing.")
  var list = false

  @Flag(name: .customLong("fail-fast"), help: "Start no more scenarios after the first failure.")
  var failFast = false

  @Option(help: ArgumentHelp("Run only shard K of N (from 1): every Nth scenario of the selection, starting at the Kth.", valueName: "K/N"))
  var shard: String?

  @OptionGroup var reports: ReportOptions
}

/// The reports' options, shared by a run and `reducer-spec check`.
struct ReportOptions: ParsableArguments {
  @Option(help: ArgumentHelp("Write a JUnit XML report to this file.", valueName: "file"))
  var junit: String?

  @Option(help: ArgumentHelp("The report on standard output.", valueName: "format"))
  var format: OutputFormat = .console

  @Option(help: ArgumentHelp("Colour the console report (auto: on a terminal, unless NO_COLOR is set).", valueName: "mode"))
  var color: ColorMode = .auto

  @Option(
    name: .customLong("github-annotations"),
    help: ArgumentHelp("Annotate failures for GitHub Actions (auto: when GITHUB_ACTIONS is true).", valueName: "mode"))
  var githubAnnotations: GitHubAnnotationsMode = .auto
}

// MARK: - Choices

/// `--format`: the report written to standard output.
enum OutputFormat: String, CaseIterable, ExpressibleByArgument, Sendable {
  /// Lines for a person to read.
  case console
  /// One JSON object per event, for a program to read.
  case json
}

/// `--color auto|always|never`.
extension ColorMode: ExpressibleByArgument {}

/// `--github-annotations auto|on|off`.
extension GitHubAnnotationsMode: ExpressibleByArgument {}
