import Foundation
import TestSupport
import Testing
@testable import SpecRunner

/// GitHub Actions `::error` commands, character for character.
@Suite struct GitHubAnnotationsTests {
  private func output(_ run: RunResult, workingDirectory: String = "/repo", currentDirectory: String = "/repo")
    throws -> [String]
  {
    let lines = LineCollector()
    let reporter = GitHubAnnotationsReporter(
      workingDirectory: workingDirectory, currentDirectory: currentDirectory, sink: lines.append)
    try run.replay(into: reporter)
    return lines.lines
  }

  @Test func everyOutcome() throws {
    #expect(
      try output(ReporterFixtures.everyOutcome) == [
        "::error file=specs/counter.yaml,line=14,col=9,title=Decrementing stops at zero::A state change does not match expectation.%0A%0A    \u{2007} Counter.State(%0A    −   count: 0%0A    +   count: -1%0A    \u{2007} )%0A%0A(Expected: −, Actual: +)",
        "::error file=specs/search.yaml,line=12,col=9,title=Searching for swift::The worker stopped with signal 11 (SIGSEGV). It wrote:%0AFatal error: Unexpectedly found nil while unwrapping an Optional value%0A%0ACurrent stack trace:",
        #"::error file=specs/broken.yaml,line=1,col=10,title=Spec file error::unknown feature "Nope"; the registered features are Counter, RepositorySearch"#,
      ])
  }

  @Test func aPassingRunWritesNothing() throws {
    #expect(try output(ReporterFixtures.allPassing) == [])
  }

  @Test func escaping() throws {
    let file = "/repo/specs/a,b:c%.yaml"
    let scenario = ScenarioResult(
      id: ScenarioID(file: file, scenario: 0), name: "100%: a, b\r\nc", location: FileLocation(file: file, line: 2, column: 3),
      tags: [], outcome: .failed, duration: 0,
      failures: [
        StepFailure(location: FileLocation(file: file, line: 0, column: 0), message: "50% done\r\nnext: a, b\rc"),
        StepFailure(location: FileLocation(file: file, line: 7, column: 0), message: "::warning::not a command"),
      ])
    #expect(
      try output(RunResult(suites: [SuiteResult(file: file, scenarios: [scenario])], duration: 0)) == [
        "::error file=specs/a%2Cb%3Ac%25.yaml,title=100%25%3A a%2C b%0D%0Ac::50%25 done%0D%0Anext: a, b%0Dc",
        "::error file=specs/a%2Cb%3Ac%25.yaml,line=7,title=100%25%3A a%2C b%0D%0Ac::::warning::not a command",
      ])
  }

  @Test func escapingFunctions() {
    #expect(GitHubAnnotationsReporter.escapeData("%\r\n:,") == "%25%0D%0A:,")
    #expect(GitHubAnnotationsReporter.escapeProperty("%\r\n:,") == "%25%0D%0A%3A%2C")
  }

  @Test func pathsRelativeToTheWorkingDirectory() throws {
    func annotatedPath(_ file: String, currentDirectory: String) throws -> String {
      let error = SpecFileError(file: file, location: FileLocation(file: file, line: 1, column: 1), message: "Bad.")
      let lines = try output(
        RunResult(suites: [SuiteResult(file: file, errors: [error])], duration: 0), workingDirectory: "/repo",
        currentDirectory: currentDirectory)
      return String(lines[0].dropFirst("::error file=".count).prefix { $0 != "," })
    }
    #expect(try annotatedPath("/repo/specs/x.yaml", currentDirectory: "/") == "specs/x.yaml")
    #expect(try annotatedPath("specs/x.yaml", currentDirectory: "/repo") == "specs/x.yaml")
    #expect(try annotatedPath("./specs/x.yaml", currentDirectory: "/repo/sub") == "sub/specs/x.yaml")
    #expect(try annotatedPath("../specs/./x.yaml", currentDirectory: "/repo/sub") == "specs/x.yaml")
    #expect(try annotatedPath("/repo//specs/x.yaml", currentDirectory: "/") == "specs/x.yaml")
    #expect(try annotatedPath("/repository/x.yaml", currentDirectory: "/") == "/repository/x.yaml")
    #expect(try annotatedPath("/elsewhere/x.yaml", currentDirectory: "/repo") == "/elsewhere/x.yaml")
  }

  @Test func relativePaths() {
    #expect(RelativePath.make("/repo/a.yaml", relativeTo: "/repo/", currentDirectory: "/") == "a.yaml")
    #expect(RelativePath.make("a.yaml", relativeTo: ".", currentDirectory: "/repo") == "a.yaml")
    #expect(RelativePath.make("specs", relativeTo: "/repo/specs", currentDirectory: "/repo") == "/repo/specs")
    #expect(RelativePath.make("/repo/a.yaml", relativeTo: "/repo", currentDirectory: "/other") == "a.yaml")
    #expect(RelativePath.make("/a.yaml", relativeTo: "/", currentDirectory: "/other") == "a.yaml")
    // From the directory itself: a clean relative path is itself; anything else is resolved.
    let cases: [(String, String)] = [
      ("specs/a.yaml", "specs/a.yaml"), ("a", "a"), (".hidden/a.yaml", ".hidden/a.yaml"), ("..a/b", "..a/b"),
      ("./specs/a.yaml", "specs/a.yaml"), ("specs//a.yaml", "specs/a.yaml"), ("specs/./a.yaml", "specs/a.yaml"),
      ("specs/../a.yaml", "a.yaml"), ("../a.yaml", "/a.yaml"), ("specs/", "specs"), ("/repo/a.yaml", "a.yaml"),
      ("", "/repo"),
      // Absolute: a clean one inside is the rest of it, one outside is itself.
      ("/repo/specs/a.yaml", "specs/a.yaml"), ("/repository/a.yaml", "/repository/a.yaml"), ("/repo", "/repo"),
      ("/elsewhere/a.yaml", "/elsewhere/a.yaml"), ("/repo/specs/../a.yaml", "a.yaml"), ("/repo//a.yaml", "a.yaml"),
      ("/repo/./a.yaml", "a.yaml"), ("/", "/"),
    ]
    for (path, made) in cases {
      #expect(RelativePath.make(path, relativeTo: "/repo", currentDirectory: "/repo") == made, "\(path)")
    }
  }

  /// A run with one scenario that failed `count` times, at lines 1, 2, 3…
  private func run(failures count: Int) -> RunResult {
    let file = "specs/many.yaml"
    let scenario = ScenarioResult(
      id: ScenarioID(file: file, scenario: 0), name: "Many", location: FileLocation(file: file, line: 1, column: 1),
      tags: [], outcome: .failed, duration: 0,
      failures: (1...count).map {
        StepFailure(location: FileLocation(file: file, line: $0, column: 3), message: "Failure \($0)")
      })
    return RunResult(suites: [SuiteResult(file: file, scenarios: [scenario])], duration: 0)
  }

  @Test func atMostFiftyAnnotations() throws {
    #expect(try output(run(failures: 50)).count == 50)
    #expect(try output(run(failures: 50)).last == "::error file=specs/many.yaml,line=50,col=3,title=Many::Failure 50")

    let fiftyOne = try output(run(failures: 51))
    #expect(fiftyOne.count == 51)
    #expect(fiftyOne[49] == "::error file=specs/many.yaml,line=50,col=3,title=Many::Failure 50")
    #expect(fiftyOne[50] == "1 more failure was not annotated: at most 50 annotations are written.")

    let many = try output(run(failures: 123))
    #expect(many.count == 51)
    #expect(many.prefix(50) == fiftyOne.prefix(50))
    #expect(many[50] == "73 more failures were not annotated: at most 50 annotations are written.")
  }

  @Test(
    arguments: [
      (GitHubAnnotationsMode.on, [:], true),
      (.off, ["GITHUB_ACTIONS": "true"], false),
      (.auto, ["GITHUB_ACTIONS": "true"], true),
      (.auto, ["GITHUB_ACTIONS": "false"], false),
      (.auto, ["CI": "true"], false),
      (.auto, [:], false),
    ] as [(GitHubAnnotationsMode, [String: String], Bool)])
  func whetherToAnnotate(flag: GitHubAnnotationsMode, environment: [String: String], expected: Bool) {
    #expect(GitHubAnnotationsReporter.isEnabled(flag: flag, environment: environment) == expected)
  }
}
