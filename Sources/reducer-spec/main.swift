import ReducerSpecCLI
import SpecRunner

await ReducerSpecCommand.main { SpecEngine(features: exampleFeatures) }
