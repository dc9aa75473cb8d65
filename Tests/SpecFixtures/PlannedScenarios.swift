import SpecRunner

/// Scenarios `s0`…, four to a file, in run order.
public func plannedScenarios(_ count: Int, tags: (Int) -> [String] = { _ in [] }) -> [PlannedScenario] {
  (0..<count).map { index in
    let file = "specs/f\(index / 4).yaml"
    return PlannedScenario(
      id: ScenarioID(file: file, scenario: index % 4), name: "s\(index)",
      location: FileLocation(file: file, line: index + 1, column: 5), tags: tags(index))
  }
}
