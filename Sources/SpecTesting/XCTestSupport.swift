#if canImport(XCTest)
import Foundation
import SpecRunner
import XCTest

extension XCTestCase {
  /// Runs every scenario of the spec files at `path` in this process, and records each
  /// failure as a test failure at its step's line in the spec file, with the console
  /// report's text for it. For XCTest users; with Swift Testing, use ``SpecSuite`` for one
  /// test case per scenario.
  ///
  /// ```swift
  /// final class SpecTests: XCTestCase {
  ///   func testSpecs() async { await assertSpecsPass(in: "specs", features: myFeatures) }
  /// }
  /// ```
  ///
  /// Each failure's description starts with the scenario, `file › name: `. A skipped
  /// scenario passes; so does the test when no scenario failed. The path is resolved as
  /// ``SpecSuite/scenarios(in:features:relativeTo:)`` resolves it.
  public func assertSpecsPass(in path: String, features: [Feature], relativeTo directory: String? = nil) async {
    for scenario in SpecSuite.scenarios(in: path, features: features, relativeTo: directory) {
      for issue in await scenario.issues() where !issue.isWarning {
        recordSpecFailure("\(scenario): \(issue.text)", at: issue.location)
      }
    }
  }

  private func recordSpecFailure(_ description: String, at location: FileLocation) {
    #if canImport(Darwin)
      let place = XCTSourceCodeLocation(filePath: location.absolutePath, lineNumber: max(location.line, 1))
      record(
        XCTIssue(
          type: .assertionFailure, compactDescription: description,
          sourceCodeContext: XCTSourceCodeContext(location: place)))
    #else
      recordFailure(
        withDescription: description, inFile: location.absolutePath, atLine: max(location.line, 1), expected: true)
    #endif
  }
}
#endif
