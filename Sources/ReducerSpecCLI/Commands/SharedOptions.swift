import ArgumentParser
import SpecRunner

/// The reports' options, shared by a run and `reducer-spec check`.
struct ReportOptions: ParsableArguments {
  @Option(help: ArgumentHelp("Write a JUnit XML report to this file.", valueName: "file"))
  var junit: String?

  @Option(help: ArgumentHelp("The report on standard output.", valueName: "format"))
  var format: OutputFormat = .console

  @OptionGroup var colorOption: ColorOption
  var color: ColorMode { colorOption.color }

  @Option(
    name: .customLong("github-annotations"),
    help: ArgumentHelp("Annotate failures for GitHub Actions (auto: when GITHUB_ACTIONS is true).", valueName: "mode"))
  var githubAnnotations: GitHubAnnotationsMode = .auto
}

/// `--color`, the same option on every subcommand that writes for a person to read.
struct ColorOption: ParsableArguments {
  @Option(help: ArgumentHelp("Colour the output (auto: on a terminal, unless NO_COLOR is set).", valueName: "mode"))
  var color: ColorMode = .auto

  /// Whether to colour standard output.
  @MainActor func isOn(in context: CommandContext) -> Bool {
    ConsoleReporter.shouldUseColor(mode: color, isTerminal: context.isTerminal, environment: context.environment)
  }
}

/// `--timeout`, the same option for a run and `record`: how long one scenario may take in
/// its worker process.
struct TimeoutOption: ParsableArguments {
  @Option(help: ArgumentHelp(
    "How long one scenario may take before its worker is stopped: 300ms, 1.5s, 2m, or seconds.",
    valueName: "duration"))
  var timeout: String = "10s"
}

/// What a run runs and how: `--jobs`, `--filter`, `--tag` and `--fail-fast`, the same on
/// `run` and `coverage`.
struct RunScopeOptions: ParsableArguments {
  @Option(help: ArgumentHelp("How many scenarios run at once, each in its own worker process. (default: the number of cores)", valueName: "n"))
  var jobs: Int?

  @Option(help: ArgumentHelp("Run only the scenarios whose 'file › name' contains this text.", valueName: "text"))
  var filter: String?

  @Option(help: ArgumentHelp("Run only the scenarios with this tag; !tag leaves out those with it. Repeatable: a scenario must have every tag and none of the !tags.", valueName: "tag"))
  var tag: [String] = []

  @Flag(name: .customLong("fail-fast"), help: "Start no more scenarios after the first failure.")
  var failFast = false

  /// `--jobs`, or the number of cores.
  func jobs(processorCount: Int) throws(ValidationError) -> Int {
    try Self.jobs(jobs, processorCount: processorCount)
  }

  /// A `--jobs` value, or the number of cores when there is none: the same rule for every
  /// subcommand that takes it.
  static func jobs(_ jobs: Int?, processorCount: Int) throws(ValidationError) -> Int {
    if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1; got \(jobs)") }
    return jobs ?? max(1, processorCount)
  }

  /// The selection that `--filter` (and `extraFilters`) and `--tag` make.
  func selection(extraFilters: [String?] = []) throws(ValidationError) -> ScenarioSelection {
    var selection = ScenarioSelection()
    selection.filters = ([filter] + extraFilters).compactMap { $0 }.filter { !$0.isEmpty }
    selection.tags = try TagExpression(parsing: tag)
    return selection
  }
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
