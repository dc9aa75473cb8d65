/// Which of the scenarios of the loaded files a run executes: `--filter` (and Bazel's
/// `TESTBRIDGE_TEST_ONLY`), `--tag`, then `--shard` (or Bazel's shard variables).
struct ScenarioSelection: Hashable, Sendable {
  /// Texts that a scenario's ``PlannedScenario/qualifiedName`` must all contain
  /// (case-sensitive): `--filter` and `TESTBRIDGE_TEST_ONLY`, when set.
  var filters: [String] = []
  var tags = TagExpression()
  var shard: Shard?

  /// The selected scenarios, in the order given (run order). Filters and tags apply first;
  /// the shard then partitions what they selected.
  ///
  /// - Complexity: O(*n* × (*f* + *t*)) for *n* scenarios, *f* filters and *t* tags.
  func apply(to scenarios: [PlannedScenario]) -> [PlannedScenario] {
    let matching = scenarios.filter { scenario in
      filters.allSatisfy { scenario.qualifiedName.contains($0) } && tags.matches(scenario.tags)
    }
    return shard?.select(matching) ?? matching
  }

  /// Whether this selection reports the errors of files that cannot be read. Every shard
  /// but the first leaves them out, so that a broken file is reported once per run.
  var reportsFileErrors: Bool { (shard?.index ?? 1) == 1 }
}
