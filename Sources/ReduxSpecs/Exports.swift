// A module that registers Redux features needs `Feature` and `Stub` too: importing
// ReduxSpecs is enough.
@_exported import SpecRunner
