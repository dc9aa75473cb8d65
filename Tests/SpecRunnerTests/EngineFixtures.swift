import Foundation
import SpecFixtures
@testable import SpecRunner

/// Writes a spec to a temporary file and returns its path.
func writeSpec(_ text: String, name: String = "spec.yaml") throws -> String {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("reducer-spec-tests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  let url = directory.appendingPathComponent(name)
  try text.write(to: url, atomically: true, encoding: .utf8)
  return url.path
}

/// Loads a spec and runs every scenario of it, in order.
@MainActor
func runSpec(_ text: String, features: [Feature] = [tallyFeature]) async throws -> (
  file: String, loaded: LoadedFile, results: [ScenarioResult]
) {
  let path = try writeSpec(text)
  let engine = SpecEngine(features: features)
  let loaded = engine.load(files: [path])[0]
  var results: [ScenarioResult] = []
  for scenario in loaded.scenarios {
    results.append(await engine.run(scenario.id, timeout: .seconds(10)) { _ in })
  }
  return (path, loaded, results)
}
