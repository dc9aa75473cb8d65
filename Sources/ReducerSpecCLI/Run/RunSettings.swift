import ArgumentParser
import Foundation
import SpecRunner
import SpecYAML

/// Everything a run needs to know, checked: the command line's options combined with the
/// environment (Bazel's test protocol), the paths expanded to spec files.
struct RunSettings: Sendable {
  var files: [String]
  var jobs: Int
  /// How long one scenario may take.
  var timeout: Duration
  var selection: ScenarioSelection
  var list: Bool
  var failFast: Bool
  /// `--rerun-failed`: run only what failed in the last run (see ``LastRunRecord``).
  var rerunFailed: Bool
  /// Whether the run updates `.reducer-spec/last-run.json` (not with `--no-record`).
  var writesRecord: Bool
  /// `--junit`, or else Bazel's `XML_OUTPUT_FILE`.
  var junitPath: String?
  var format: OutputFormat
  var color: ColorMode
  var githubAnnotations: GitHubAnnotationsMode
  /// Bazel's `TEST_SHARD_STATUS_FILE`: touched to say that this runner shards.
  var shardStatusFile: String?
  /// `--watch`: the paths to watch (those given, or `specs`); `nil` without it.
  var watchRoots: [String]?

  /// The settings of a run that another command makes (`reducer-spec coverage`): no
  /// listing, no watching, no record of the run, the console's report.
  init(
    files: [String], jobs: Int, timeout: Duration, selection: ScenarioSelection, failFast: Bool, junitPath: String?,
    color: ColorMode
  ) {
    self.files = files
    self.jobs = jobs
    self.timeout = timeout
    self.selection = selection
    self.list = false
    self.failFast = failFast
    self.rerunFailed = false
    self.writesRecord = false
    self.junitPath = junitPath
    self.format = .console
    self.color = color
    self.githubAnnotations = .off
  }

  // MARK: - Resolving

  /// `--timeout`'s value (a run's, and `record`'s).
  static func timeout(_ text: String) throws(ValidationError) -> Duration {
    guard let timeout = DurationText.parse(text), timeout > .zero else {
      throw ValidationError(
        "--timeout expects a duration longer than zero, like 300ms, 1.5s, 2m or 10 (seconds); got '\(text)'")
    }
    return timeout
  }

  /// Checks `options` and combines them with `environment`.
  ///
  /// - Throws: A `ValidationError` whose message names the option (or the environment
  ///   variable) and the value that is wrong: a usage error, exit status 64.
  init(
    options: RunCommand, environment: [String: String],
    processorCount: Int = ProcessInfo.processInfo.activeProcessorCount,
    fileManager: FileManager = .default
  ) throws(ValidationError) {
    jobs = try options.scope.jobs(processorCount: processorCount)

    timeout = try Self.timeout(options.timeoutOption.timeout)

    selection = try options.scope.selection(extraFilters: [environment["TESTBRIDGE_TEST_ONLY"]])
    if let shard = options.shard {
      selection.shard = try Shard(parsing: shard)
    } else {
      selection.shard = try Shard.fromBazel(environment)
    }

    list = options.list
    if options.watch {
      if options.list { throw ValidationError("--watch cannot be used with --list: --list runs nothing to watch") }
      watchRoots = options.paths.isEmpty ? [SpecPaths.defaultDirectory] : options.paths
    }
    failFast = options.scope.failFast
    rerunFailed = options.rerunFailed
    writesRecord = !options.noRecord
    junitPath = options.reports.junit ?? environment["XML_OUTPUT_FILE"].flatMap { $0.isEmpty ? nil : $0 }
    format = options.reports.format
    color = options.reports.color
    githubAnnotations = options.reports.githubAnnotations
    shardStatusFile = environment["TEST_SHARD_STATUS_FILE"].flatMap { $0.isEmpty ? nil : $0 }

    // Last: the only check that reads the file system.
    files = try SpecPaths.expand(options.paths, fileManager: fileManager)
  }
}
