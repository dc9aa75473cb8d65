import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin that provides ReducerCore's macros (Sources/ReducerCore/Macros.swift).
@main
struct ReducerCoreMacrosPlugin: CompilerPlugin {
  let providingMacros: [any Macro.Type] = [
    CodableDefaultsMacro.self,
    ObservableStateMacro.self,
    ObservationStateIgnoredMacro.self,
    PresentsMacro.self,
    ReducerCaseEphemeralMacro.self,
    ReducerCaseIgnoredMacro.self,
    ReducerMacro.self,
  ]
}
