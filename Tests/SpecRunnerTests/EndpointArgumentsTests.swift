import CasePaths
import Dependencies
import Foundation
import ReducerCore
import SpecFixtures
import SpecYAML
import Testing
@testable import SpecRunner

/// Endpoints of two and three arguments: `calls:` writes each call as the list of its arguments.
@Suite struct EndpointArgumentsTests {
  func failures(_ result: ScenarioResult, in file: String) -> [String] {
    result.failures.map { "\($0.location)".replacingOccurrences(of: file, with: "spec.yaml") + ": " + $0.message }
  }

  func errors(_ loaded: LoadedFile) -> [String] {
    loaded.errors.map { $0.description.replacingOccurrences(of: loaded.file, with: "spec.yaml") }
  }

  /// Runs a file of the Shelf feature with these scenarios (from its third line).
  func runShelf(_ scenarios: String) async throws -> (file: String, loaded: LoadedFile, results: [ScenarioResult]) {
    try await runSpec("feature: Shelf\nscenarios:\n" + scenarios, features: [shelfFeature])
  }

  @Test func eachCallIsTheListOfItsArguments() async throws {
    let run = try await runShelf(
      """
        - name: finds, then marks
          dependencies:
            shelfClient.find: { returns: [Dune], calls: [[dune, novels]] }
            shelfClient.mark: { returns: null, calls: [[Dune, 2, true]] }
          steps:
            - send: { find: { keyword: dune, category: novels } }
            - receive: { found: [Dune] }
              state: { titles: [Dune] }
            - send: { mark: Dune }
            - receive: marked
      """)
    #expect(errors(run.loaded) == [])
    #expect(failures(run.results[0], in: run.file) == [])
  }

  @Test func aCallWithOtherArgumentsFailsWithTheListsAsTheSpecWritesThem() async throws {
    let run = try await runShelf(
      """
        - name: the wrong category
          dependencies:
            shelfClient.find: { returns: [], calls: [[dune, novels]] }
          steps:
            - send: { find: { keyword: dune, category: films } }
            - receive: { found: [] }
      """)
    #expect(
      failures(run.results[0], in: run.file) == [
        """
        spec.yaml:5:40: `shelfClient.find` was not called with the inputs that `calls` lists: …

            \u{2007} [
            −   [0]: ["dune", "novels"]
            +   [0]: ["dune", "films"]
            \u{2007} ]

        (Expected: −, Actual: +)
        """
      ])
  }

  @Test func aCallWrittenWithTheWrongNumberOfArgumentsIsAnErrorAtIt() async throws {
    let run = try await runShelf(
      """
        - name: one argument short
          dependencies:
            shelfClient.find: { returns: [], calls: [[dune]] }
            shelfClient.mark: { returns: null, calls: [Dune] }
          steps:
            - send: { find: { keyword: dune, category: films } }
      """)
    #expect(
      errors(run.loaded) == [
        "spec.yaml:5:48: error: cannot decode `shelfClient.find`[0]: a call takes 2 arguments (String, String), but this list has 1",
        "spec.yaml:6:50: error: cannot decode `shelfClient.mark`[0]: a call takes 3 arguments (String, Int, Bool): write it as a list of them",
      ])
  }

  @Test func argumentsCompareAndPrintInOrder() {
    #expect(EndpointArguments("a", 1) == EndpointArguments("a", 1))
    #expect(EndpointArguments("a", 1) != EndpointArguments("a", 2))
    #expect(EndpointArguments("a", 1, true) != EndpointArguments("b", 1, true))
    var text = ""
    customDump(EndpointArguments("チーズ", 2, true), to: &text)
    #expect(text == #"["チーズ", 2, true]"#)
    #expect(ShapeProbe().shape(of: EndpointArguments<String, Int>.self) == .arguments([.scalar(.string), .scalar(.integer("Int"))]))
  }
}
