// One `import ReducerCore` gives a feature file what `import ComposableArchitecture` gives it:
// case paths and `@CasePathable`, dependencies and `@DependencyClient`, identified arrays,
// clocks, concurrency helpers, dumps and diffs, and issue reporting.
@_exported import CasePaths
@_exported import Clocks
@_exported import ConcurrencyExtras
@_exported import CustomDump
@_exported import Dependencies
@_exported import DependenciesMacros
@_exported import IdentifiedCollections
@_exported import IssueReporting
