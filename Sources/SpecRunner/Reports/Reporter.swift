import SpecYAML

/// A scenario that a run will execute: what reporters know of it before it runs.
public struct PlannedScenario: Sendable, Hashable, Codable {
  public var id: ScenarioID
  /// The name, with an outline's placeholders filled in.
  public var name: String
  public var location: FileLocation
  public var tags: [String]

  public init(id: ScenarioID, name: String, location: FileLocation, tags: [String]) {
    self.id = id
    self.name = name
    self.location = location
    self.tags = tags
  }

  /// `specs/counter.yaml › Incrementing twice counts to two`: what `--filter` matches.
  public var qualifiedName: String { "\(id.file) › \(name)" }
}

/// What a run is about to do. Its scenarios are not known yet: the workers read the files
/// as the run goes, and each file's scenarios are reported as they run.
public struct RunPlan: Sendable, Hashable, Codable {
  /// The spec files to read, in run order.
  public var files: [String]
  /// The most worker processes the run starts.
  public var jobs: Int

  public init(files: [String], jobs: Int) {
    self.files = files
    self.jobs = jobs
  }
}

/// Receives the events of a run, in a deterministic order: a file's errors and its
/// scenarios' results arrive in the order of the files and of the scenarios in them,
/// whatever worker ran them and however many there are.
///
/// Every method has a default that does nothing, so a reporter implements only what it
/// needs: the console prints as results arrive, the JUnit writer writes at the end.
public protocol RunReporter: AnyObject {
  /// Before anything runs.
  func runStarted(_ plan: RunPlan)
  /// A spec file could not be read, parsed or validated; none of its scenarios run.
  func fileFailed(_ error: SpecFileError)
  /// Just before ``scenarioFinished(_:)`` for the same scenario.
  func scenarioStarted(_ scenario: PlannedScenario)
  func scenarioFinished(_ result: ScenarioResult)
  /// After everything, also when the run was interrupted (then with what had finished).
  func runFinished(_ result: RunResult) throws
}

extension RunReporter {
  public func runStarted(_ plan: RunPlan) {}
  public func fileFailed(_ error: SpecFileError) {}
  public func scenarioStarted(_ scenario: PlannedScenario) {}
  public func scenarioFinished(_ result: ScenarioResult) {}
  public func runFinished(_ result: RunResult) throws {}
}
