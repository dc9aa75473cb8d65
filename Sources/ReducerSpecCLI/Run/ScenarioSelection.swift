import SpecRunner
import SpecYAML

/// Which of the scenarios of the loaded files a run executes: `--filter` (and Bazel's
/// `TESTBRIDGE_TEST_ONLY`), `--tag`, then `--shard` (or Bazel's shard variables); with
/// `--rerun-failed`, from what failed in the last run only.
struct ScenarioSelection: Hashable, Sendable {
  /// Texts that a scenario's ``PlannedScenario/qualifiedName`` must all contain
  /// (case-sensitive): `--filter` and `TESTBRIDGE_TEST_ONLY`, when set.
  var filters: [String] = []
  var tags = TagExpression()
  var shard: Shard?
  /// `--rerun-failed`: only what failed in the last run, before everything else.
  var rerun: RerunSelection?

  /// The selected scenarios, in the order given (run order). Filters and tags apply first;
  /// the shard then partitions what they selected.
  ///
  /// - Complexity: O(*n* × (*f* + *t*)) for *n* scenarios, *f* filters and *t* tags.
  func apply(to scenarios: [PlannedScenario]) -> [PlannedScenario] {
    var position = 0
    return apply(to: scenarios, position: &position)
  }

  /// The selected scenarios of one file of a run whose earlier files had `position`
  /// scenarios that filters and tags kept (the shard's round-robin counts on from there);
  /// `position` counts this file's on.
  func apply(to scenarios: [PlannedScenario], position: inout Int) -> [PlannedScenario] {
    scenarios.filter { scenario in
      guard rerun?.contains(scenario) ?? true,
        filters.allSatisfy({ scenario.qualifiedName.contains($0) }) && tags.matches(scenario.tags) else {
        return false
      }
      defer { position += 1 }
      return shard?.contains(position: position) ?? true
    }
  }

  /// Whether this selection reports the errors of files that cannot be read. Every shard
  /// but the first leaves them out, so that a broken file is reported once per run.
  var reportsFileErrors: Bool { (shard?.index ?? 1) == 1 }
}
