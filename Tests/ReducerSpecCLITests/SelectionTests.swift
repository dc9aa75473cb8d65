import ArgumentParser
import Testing
@testable import ReducerSpecCLI
@testable import SpecRunner

@Suite struct SelectionTests {
  let plan = [
    scenario("specs/counter.yaml", 0, "Incrementing counts up", tags: ["smoke"]),
    scenario("specs/counter.yaml", 1, "Decrementing counts down", tags: ["smoke", "slow"]),
    scenario("specs/search.yaml", 0, "A search lists repositories", tags: ["network"]),
    scenario("specs/search.yaml", 1, "A failed search shows an alert", tags: ["network", "slow"]),
    scenario("specs/todos.yaml", 0, "Adding a todo", tags: []),
  ]

  @Test func filterMatchesASubstringOfTheQualifiedName() {
    #expect(names(ScenarioSelection(filters: ["counts"])) == ["Incrementing counts up", "Decrementing counts down"])
    #expect(names(ScenarioSelection(filters: ["search.yaml › A f"])) == ["A failed search shows an alert"])
    #expect(names(ScenarioSelection(filters: ["specs/todos"])) == ["Adding a todo"])
    // Case-sensitive, and every filter must match.
    #expect(names(ScenarioSelection(filters: ["COUNTS"])) == [])
    #expect(names(ScenarioSelection(filters: ["search", "alert"])) == ["A failed search shows an alert"])
    #expect(names(ScenarioSelection()) == plan.map(\.name))
  }

  @Test func tagsRequireEveryPlainTagAndNoNegatedOne() throws {
    #expect(names(tags: ["smoke"]) == ["Incrementing counts up", "Decrementing counts down"])
    #expect(names(tags: ["smoke", "slow"]) == ["Decrementing counts down"])
    #expect(names(tags: ["!slow"]) == ["Incrementing counts up", "A search lists repositories", "Adding a todo"])
    #expect(names(tags: ["network", "!slow"]) == ["A search lists repositories"])
    #expect(names(tags: ["!network", "!smoke"]) == ["Adding a todo"])
    #expect(names(tags: ["missing"]) == [])
  }

  @Test func tagExpressionsParse() throws {
    let expression = try TagExpression(parsing: ["smoke", "!slow", "fast"])
    #expect(expression.required == ["smoke", "fast"])
    #expect(expression.excluded == ["slow"])
    #expect(try TagExpression(parsing: []).isEmpty)
    for bad in ["", "!", "!!slow", "two words"] {
      #expect(tagError(bad) == "--tag expects a tag, or !tag to leave out the scenarios that have it; got '\(bad)'")
    }
  }

  @Test func theShardPartitionsWhatFilterAndTagsSelected() throws {
    var selection = ScenarioSelection(tags: try TagExpression(parsing: ["!slow"]))
    selection.shard = Shard(index: 1, count: 2)
    #expect(names(selection) == ["Incrementing counts up", "Adding a todo"])
    selection.shard = Shard(index: 2, count: 2)
    #expect(names(selection) == ["A search lists repositories"])
  }

  @Test func onlyTheFirstShardReportsFileErrors() {
    #expect(ScenarioSelection().reportsFileErrors)
    #expect(ScenarioSelection(shard: Shard(index: 1, count: 3)).reportsFileErrors)
    #expect(!ScenarioSelection(shard: Shard(index: 2, count: 3)).reportsFileErrors)
  }

  private func names(_ selection: ScenarioSelection) -> [String] { selection.apply(to: plan).map(\.name) }

  private func names(tags: [String]) -> [String] {
    names(ScenarioSelection(tags: try! TagExpression(parsing: tags)))
  }

  private func tagError(_ value: String) -> String {
    do {
      return "no error: \(try TagExpression(parsing: [value]))"
    } catch {
      return error.message
    }
  }
}

private func scenario(_ file: String, _ index: Int, _ name: String, tags: [String]) -> PlannedScenario {
  PlannedScenario(
    id: ScenarioID(file: file, scenario: index), name: name,
    location: FileLocation(file: file, line: 3 + 4 * index, column: 5), tags: tags)
}
