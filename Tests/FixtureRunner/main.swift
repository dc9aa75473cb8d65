import SpecFixtures
import ReducerSpecCLI
import SpecRunner

// The command with the fixture features, for the end-to-end tests.
await ReducerSpecCommand.main(features: fixtureFeatures)
