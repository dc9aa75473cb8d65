import SpecYAML

/// A spec file as the command sees it before running: the scenarios it holds (outline
/// rows expanded), or why it cannot run.
public struct LoadedFile: Sendable, Hashable, Codable {
  /// The path as the run names it.
  public var file: String
  /// The feature the file describes, when the file could be read that far.
  public var feature: String?
  /// Every scenario of the file in order, one per example row for an outline.
  public var scenarios: [PlannedScenario]
  /// The problems that keep the file from running; when not empty, no scenario runs.
  public var errors: [SpecFileError]

  public init(file: String, feature: String?, scenarios: [PlannedScenario], errors: [SpecFileError]) {
    self.file = file
    self.feature = feature
    self.scenarios = scenarios
    self.errors = errors
  }
}

/// What the command line and its workers need from the spec layer: reading spec files,
/// and running one scenario of them in this process.
///
/// Each worker process of a run has an engine of its own: the command hands it a file,
/// which it reads with ``load(files:)`` (the command selects from the scenarios it
/// answers with), then scenarios of that file by ``ScenarioID``, which it runs with
/// ``run(_:timeout:onStep:)``. The command itself calls ``load(files:)`` only for `--list`.
@MainActor
public protocol ScenarioEngine: AnyObject {
  /// Reads, parses and validates spec files, in the order given.
  func load(files: [String]) -> [LoadedFile]

  /// Runs one scenario in this process and returns its result.
  ///
  /// - Parameters:
  ///   - id: A scenario of a file that ``load(files:)`` can read.
  ///   - timeout: How long the scenario may take (the worker's parent enforces it too, by
  ///     killing a worker that is stuck).
  ///   - onStep: Called as each step starts, with the step's location, so that the parent
  ///     can say which step a scenario was stuck in when it crashes or times out.
  func run(_ id: ScenarioID, timeout: Duration, onStep: (FileLocation) -> Void) async -> ScenarioResult

  /// Forgets every file read so far: the next ``load(files:)`` or ``run(_:timeout:onStep:)``
  /// reads them again, as they are now (`reducer-spec --watch` keeps its workers between
  /// runs, and the files change). An engine that keeps nothing does nothing.
  func forgetFiles()
}

extension ScenarioEngine {
  public func forgetFiles() {}
}
