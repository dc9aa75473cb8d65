import SpecYAML

/// A scenario bound to its feature: every action decoded, every stub checked. Runs as
/// often as asked, each time with a fresh store and fresh stubs.
@MainActor
package protocol ScenarioProgram: AnyObject {
  func run(collector: IssueCollector, onStep: (FileLocation) -> Void) async
}

enum BindResult {
  case program(any ScenarioProgram)
  case errors([YAMLError])
}
