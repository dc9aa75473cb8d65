import ExampleFeatureRegistry
import ReducerSpecCLI
import SpecRunner

await ReducerSpecCommand.main(features: exampleFeatures)
