import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// Asserts that `source` expands to `expanded` with exactly `diagnostics`, and that applying
/// every fix-it to `source` gives `fixed`: swift-syntax's `assertMacroExpansion`, each failure
/// a Swift Testing issue at the caller.
///
/// swift-syntax's own test support, not swift-macro-testing: that one brings
/// swift-snapshot-testing, whose swift-custom-dump dependency turns on the FoundationNetworking
/// trait for the whole package graph, and so for the command (ModuleBoundaryTests).
func assertExpansion(
  _ source: String,
  expandsTo expanded: String,
  diagnostics: [DiagnosticSpec] = [],
  fixed: String? = nil,
  macros: [String: MacroSpec],
  sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  assertMacroExpansion(
    source,
    expandedSource: expanded,
    diagnostics: diagnostics,
    macroSpecs: macros,
    fixedSource: fixed,
    indentationWidth: .spaces(2),
    failureHandler: { failure in
      Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
    })
}
