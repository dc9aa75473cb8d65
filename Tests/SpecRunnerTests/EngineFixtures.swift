import Foundation
import SpecFixtures
import TestSupport
@testable import SpecRunner

/// Loads a spec and runs every scenario of it, in order.
@MainActor
func runSpec(_ text: String, features: [Feature] = [tallyFeature]) async throws -> (
  file: String, loaded: LoadedFile, results: [ScenarioResult]
) {
  let spec = try TemporaryFile(Array(text.utf8))
  defer { withExtendedLifetime(spec) {} }
  let path = spec.path
  let engine = SpecEngine(features: features)
  let loaded = engine.load(files: [path])[0]
  var results: [ScenarioResult] = []
  for scenario in loaded.scenarios {
    results.append(await engine.run(scenario.id, timeout: .seconds(60)) { _ in })
  }
  return (path, loaded, results)
}
