#if canImport(XCTest)
import ExampleFeatureRegistry
import Foundation
import SpecTesting
import XCTest

/// The XCTest helper: every scenario of a spec file in one XCTest test.
final class ExampleSpecsXCTests: XCTestCase {
  func testTheCounterSpecPasses() async {
    await assertSpecsPass(in: "specs/counter.yaml", features: exampleFeatures)
  }
}

#if !canImport(Darwin)
/// A failing spec under the XCTest helper: the failure it records, caught before XCTest
/// counts it.
final class FailingSpecXCTests: XCTestCase {
  private var recorded: [(description: String, file: String, line: Int)] = []
  /// While the helper runs: its failures are caught, the test's own assertions are not.
  private var isCapturing = false

  override func recordFailure(
    withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
  ) {
    guard isCapturing else {
      return super.recordFailure(
        withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
    }
    recorded.append((description, filePath, lineNumber))
  }

  func testAFailedStepIsRecordedAtItsLineInTheSpec() async {
    isCapturing = true
    await assertSpecsPass(in: "Tests/Fixtures/spectesting/wrong-count.yaml", features: exampleFeatures)
    isCapturing = false
    let failures = recorded
    XCTAssertEqual(failures.count, 1)
    XCTAssertEqual(
      failures.first?.file, FileManager.default.currentDirectoryPath + "/Tests/Fixtures/spectesting/wrong-count.yaml")
    XCTAssertEqual(failures.first?.line, 9)
    XCTAssertEqual(
      failures.first?.description.hasPrefix(
        "Tests/Fixtures/spectesting/wrong-count.yaml › Incrementing twice is expected to give three: "
          + "A state change does not match expectation.\n      - send: increment\n        ^\n"), true)
  }
}
#endif
#endif
