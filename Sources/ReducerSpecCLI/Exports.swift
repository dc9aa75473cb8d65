// An executable that registers features and hands over to the command line needs
// `Feature` and `Stub`: importing ReducerSpecCLI is enough.
@_exported import SpecRunner
// `Feature(_:initialState:stubs:reducer:)`, for a ReducerCore reducer.
@_exported import ReducerCoreSpecs
