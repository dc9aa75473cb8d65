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
