import SpecYAML

/// A scenario bound to its feature: every action decoded, every stub checked. Runs as
/// often as asked, each time with a fresh store and fresh stubs.
@MainActor
package protocol ScenarioProgram: AnyObject {
  /// Runs the scenario, reporting to `collector`, and returns how many times each stub
  /// whose uses can be counted was used (``ConfiguredStub/uses``), by name.
  @discardableResult
  func run(collector: IssueCollector, onStep: (FileLocation) -> Void) async -> [String: Int]
}

enum BindResult {
  case program(any ScenarioProgram)
  case errors([YAMLError])
}
