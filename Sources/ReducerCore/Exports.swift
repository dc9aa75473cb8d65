// One `import ReducerCore` gives a feature file what `import ComposableArchitecture` gives it:
// case paths and `@CasePathable`, dependencies and `@DependencyClient`, identified arrays,
// clocks, concurrency helpers, dumps and diffs, and issue reporting. Foundation too: a TCA file
// has it through SwiftUI, which does not exist here, and features use its UUID, Date and URL.
@_exported import CasePaths
@_exported import Clocks
@_exported import ConcurrencyExtras
@_exported import CustomDump
@_exported import Dependencies
@_exported import DependenciesMacros
@_exported import Foundation
@_exported import IdentifiedCollections
@_exported import IssueReporting
