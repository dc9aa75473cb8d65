import SpecFixtures
import Testing
@testable import ReducerSpecCLI

/// `reducer-spec features NAME` for endpoints of several arguments: `calls:` is a list of
/// argument lists.
@MainActor @Suite struct FeaturesDescriptionTests {
  @Test func anEndpointOfSeveralArgumentsListsEachCallsArguments() throws {
    let text = try FeatureCatalog.describe(shelfFeature)
    let stubs = text.components(separatedBy: "\nStubs (under `dependencies:`):\n")[1]
      .components(separatedBy: "\n\nBuilt-in stubs:")[0]
    #expect(
      stubs == """
          shelfClient.find: an endpoint; one response, or a list of them (one per call)
            returns: [String]
            throws: MESSAGE
            after: DURATION (optional)
            calls: [[String, String]] (optional: each call's arguments, in order)
          shelfClient.mark: an endpoint; one response, or a list of them (one per call)
            returns: null
            after: DURATION (optional)
            calls: [[String, Int, Bool]] (optional: each call's arguments, in order)
        """)
  }
}
