// What a spec runner's API is made of: locations, source files and YAML nodes come from
// the YAML layer, so a module that imports SpecRunner can name them without importing it.
@_exported import SpecYAML
