import ExampleFeatureRegistry
import Foundation
import SpecTesting
import Testing

/// Every scenario of `specs/` (every example row) as a test case of its own, named as in
/// the JUnit report: what a team that uses SpecTesting writes.
@Test(arguments: SpecSuite.scenarios(in: "specs", features: exampleFeatures))
func exampleSpec(_ scenario: SpecScenario) async {
  await scenario.run()
}
