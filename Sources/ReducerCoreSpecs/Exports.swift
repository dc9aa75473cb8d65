// A module that registers ReducerCore features needs `Feature` and `Stub` too: importing
// ReducerCoreSpecs is enough.
@_exported import SpecRunner
