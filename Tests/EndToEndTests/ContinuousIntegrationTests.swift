import Testing
import TestSupport

/// In CI, a test that needs a tool runs whether or not the tool is there, and fails with a
/// message naming the tool and its package when it is not; elsewhere it is skipped.
@Suite struct ContinuousIntegrationTests {
  @Test func aTestThatNeedsAToolRunsInCIWithoutIt() {
    #expect(ContinuousIntegration.runs(whenFound: true, environment: [:]))
    #expect(!ContinuousIntegration.runs(whenFound: false, environment: [:]))
    #expect(!ContinuousIntegration.runs(whenFound: false, environment: ["CI": "false"]))
    #expect(ContinuousIntegration.runs(whenFound: false, environment: ["CI": "true"]))
  }

  @Test func itsFailureNamesTheToolAndItsPackage() {
    #expect(
      MissingTool("xmllint", debianPackage: "libxml2-utils").description
        == "xmllint is not installed (Debian: libxml2-utils), and with CI=true every test that needs it runs")
  }
}
