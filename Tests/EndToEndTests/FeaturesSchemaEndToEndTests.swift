import Foundation
import TestSupport
import Testing

/// `reducer-spec features` and `reducer-spec schema`, run as processes on the example features
/// (`reducer-spec`) and the fixture features (`reducer-spec-fixtures`).
@Suite(.serialized) struct FeaturesSchemaEndToEndTests {
  static var examples: URL { ReducerSpecEndToEndTests.examples }
  static var fixtures: URL { ReducerSpecEndToEndTests.fixtures }

  static func run(_ arguments: [String], executable: URL = examples) async throws -> BuiltCommand.Run {
    try await BuiltCommand.run(arguments, executable: executable)
  }

  static func temporaryPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)").path
  }

  // MARK: - features

  @Test func featuresListsTheRegisteredFeatures() async throws {
    let run = try await Self.run(["features"])
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(
      run.stdout == """
        Archive           6 actions, 4 stubs
        Contacts          4 actions, 0 stubs
        Counter           4 actions, 1 stub
        ReadingList       5 actions, 0 stubs
        ReduxArchive      7 actions, 4 stubs
        RepositorySearch  4 actions, 1 stub
        Stopwatch         5 actions, 1 stub
        TicTacToe         2 actions, 1 stub
        Todos             6 actions, 0 stubs
        WeatherSearch     4 actions, 2 stubs

        Describe one with `reducer-spec features NAME`.

        """)
  }

  /// A team's own executable (`shopping-list-specs`) is named as it was invoked, in its
  /// usage, its help and its hints, not as `reducer-spec`.
  @Test func messagesNameTheExecutableAsItWasInvoked() async throws {
    let directory = URL(fileURLWithPath: Self.temporaryPath("own-executable"))
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let executable = directory.appendingPathComponent("shopping-list-specs")
    try FileManager.default.createSymbolicLink(at: executable, withDestinationURL: Self.examples)

    let features = try await Self.run(["features"], executable: executable)
    #expect(features.stdout.hasSuffix("\nDescribe one with `shopping-list-specs features NAME`.\n"))

    let usage = try await Self.run(["check", "--frobnicate"], executable: executable)
    #expect(usage.status == 64)
    #expect(
      usage.stderr == """
        Error: Unknown option '--frobnicate'
        Usage: shopping-list-specs check [<options>] [<path> ...]
          See 'shopping-list-specs check --help' for more information.

        """)

    let help = try await Self.run(["--help"], executable: executable)
    #expect(help.status == 0)
    #expect(help.stdout.contains("USAGE: shopping-list-specs [<subcommand>] [<options>] [<path> ...]\n"))
    #expect(
      help.stdout.replacingOccurrences(of: "\n", with: " ").contains(
        "Without a subcommand, shopping-list-specs runs the specs: `shopping-list-specs specs/` is `shopping-list-specs run specs/`."
      ))
    #expect(help.stdout.contains("See 'shopping-list-specs help <subcommand>' for detailed help."))
    #expect(!help.stdout.contains("reducer-spec"))
  }

  @Test func featuresDescribesOneFeature() async throws {
    let run = try await Self.run(["features", "RepositorySearch"])
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(
      run.stdout == """
        RepositorySearch

        Default state (what `initialState:` assigns onto):
          searchText: ""
          isLoading: false
          repositories: []

        State fields (assign them in `state:` and `initialState:`):
          searchText: String
          isLoading: Bool
          repositories: [Repository]
          alert: AlertState?

        Actions (`send:` and `receive:`):
          onTextChanged: String
          onSearchButtonTapped
          fetchRepositoriesResponse: { success: [Repository] } | { failure: String }
          alert: retry | dismiss

        Stubs (under `dependencies:`):
          repositoryClient.fetchRepositories: an endpoint; one response, or a list of them (one per call)
            returns: [Repository]
            throws: MESSAGE
            after: DURATION (optional)
            calls: [String] (optional: the inputs, in order)

        Built-in stubs:
          uuid: `incrementing` or a list of UUIDs
          date: a date (2024-05-01T09:00:00Z)
          random: `{ seed: 42 }`
          locale: a locale identifier (en_US)
          timeZone: a time zone identifier (UTC, Europe/Paris)
          calendar: a calendar identifier (gregorian)
          clock: `test` (the default) or `immediate`

        Types:
          Repository:
            id: Int
            fullName: String
            description: String?
            stars: Int
          AlertState:
            title: String
            message: String?
            buttons: [AlertState.Button]
          AlertState.Button:
            title: String
            action: (retry | dismiss)?

        """)
  }

  @Test func featuresDescribesEnumStatesNestedActionsAndEndpointsWithoutInput() async throws {
    let ticTacToe = try await Self.run(["features", "TicTacToe"])
    #expect(ticTacToe.status == 0)
    #expect(
      ticTacToe.stdout.contains(
        """
        State cases (assign `self: { CASE: … }`, or `CASE.FIELD: …` in the current case):
          login: Login.State
          newGame: NewGame.State

        Actions (`send:` and `receive:`):
          login: Login.Action
          newGame: NewGame.Action
        """))
    #expect(
      ticTacToe.stdout.contains(
        """
          Login.State:
            email: String (may be left out)
            password: String (may be left out)
            isFormValid: Bool (may be left out)
            isLoginRequestInFlight: Bool (may be left out)
            alert: String?
        """))
    #expect(
      ticTacToe.stdout.contains(
        """
          Login.Action, one of:
            emailChanged: String
            passwordChanged: String
            loginButtonTapped
            loginResponse: { success: AuthenticationResponse } | { failure: String }
            alertDismissed
        """))
    let archive = try await Self.run(["features", "Archive"])
    #expect(
      archive.stdout.contains(
        """
          archiveLoaded: { entries: [ArchiveEntry], storedIds: [Int] }
          archiveFailed
          toggleStored: { id: Int }
        """))
    #expect(
      archive.stdout.contains(
        """
          storedArchive.storedIds: an endpoint; one response, or a list of them (one per call)
            returns: [Int]
            after: DURATION (optional)
            calls: [null] (optional: no input, one null per call)
          storedArchive.add: an endpoint; one response, or a list of them (one per call)
            returns: null
        """))
  }

  @Test func featuresOfTheFixtureRunner() async throws {
    let run = try await Self.run(["features", "Trapper"], executable: Self.fixtures)
    #expect(run.status == 0)
    #expect(
      run.stdout.hasPrefix(
        """
        Trapper

        Default state (what `initialState:` assigns onto):
          values:
            - 1
            - 2
            - 3
          last: 0

        State fields (assign them in `state:` and `initialState:`):
          values: [Int]
          last: Int

        Actions (`send:` and `receive:`):
          read: { index: Int }
          divide: { by: Int }
          giveUp

        Stubs (under `dependencies:`):
          (none)

        """))
  }

  @Test func featuresWithAnUnknownName() async throws {
    let run = try await Self.run(["features", "Countr"])
    #expect(run.status == 64)
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "Error: unknown feature `Countr`; did you mean `Counter`?; the registered features are `Archive`, `Contacts`, `Counter`, `ReadingList`, `ReduxArchive`, `RepositorySearch`, `Stopwatch`, `TicTacToe`, `Todos`, `WeatherSearch`\n"
    )
  }

  @Test func featuresWithTwoNames() async throws {
    let run = try await Self.run(["features", "Counter", "Archive"])
    #expect(run.status == 64)
    #expect(run.stdout == "")
    #expect(
      run.stderr == """
        Error: Unexpected argument 'Archive'
        Usage: reducer-spec features [<name>] [--color <mode>]
          See 'reducer-spec features --help' for more information.

        """)
  }

  // MARK: - schema

  @Test func schemaWithAnUnknownName() async throws {
    let run = try await Self.run(["schema", "Taly"], executable: Self.fixtures)
    #expect(run.status == 64)
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "Error: unknown feature `Taly`; did you mean `Tally`?; the registered features are `Checklist`, `Forever`, `Gauge`, `Roster`, `Stamper`, `Tally`, `Trapper`\n"
    )
  }

  @Test func schemaWithTwoNames() async throws {
    let run = try await Self.run(["schema", "Counter", "Archive"])
    #expect(run.status == 64)
    #expect(
      run.stderr == """
        Error: Unexpected argument 'Archive'
        Usage: reducer-spec schema [<name>] [--output <FILE>]
          See 'reducer-spec schema --help' for more information.

        """)
  }

  @Test func schemaToAFileThatCannotBeWritten() async throws {
    let directory = Self.temporaryPath("no-such-directory")
    let run = try await Self.run(["schema", "-o", directory + "/schema.json"])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(run.stderr == "Error: cannot write the schema to \(directory)/schema.json: No such file or directory\n")
  }

  @Test func schemaToAFileIsWhatItPrints() async throws {
    let path = Self.temporaryPath("schema") + ".json"
    defer { try? FileManager.default.removeItem(atPath: path) }
    let written = try await Self.run(["schema", "--output", path])
    #expect(written.status == 0)
    #expect(written.stdout == "")
    #expect(written.stderr == "")
    let printed = try await Self.run(["schema"])
    #expect(try String(contentsOfFile: path, encoding: .utf8) == printed.stdout)
    #expect(printed.stdout.hasPrefix("{\n  \"$schema\": \"http://json-schema.org/draft-07/schema#\",\n"))
  }

  @Test func theSchemaOfOneFeatureNamesIt() async throws {
    let run = try await Self.run(["schema", "Counter"])
    #expect(run.status == 0)
    #expect(
      run.stdout.contains(
        """
            "feature": {
              "description": "The registered feature this file describes.",
              "const": "Counter"
            },
        """))
    #expect(!run.stdout.contains("RepositorySearch"))
  }

  // MARK: - Validation with jsonschema

  /// Spec files that the runner rejects, and the first error jsonschema gives for each.
  static let invalidSpecs: [(name: String, yaml: String, error: String)] = [
    (
      "misspelt step key",
      """
      feature: Counter
      scenarios:
        - name: A
          steps:
            - send: increment
              stat: { count: 1 }
      """,
      "scenarios/0/steps/0: Additional properties are not allowed ('stat' was unexpected)"
    ),
    (
      "misspelt scenario key",
      """
      feature: Counter
      scenarios:
        - name: A
          step: []
      """,
      "scenarios/0: 'steps' is a required property"
    ),
    (
      "unknown feature",
      """
      feature: Countr
      scenarios: [{ name: A, steps: [] }]
      """,
      "feature: 'Countr' is not one of ['Archive', 'Contacts', 'Counter', 'ReadingList', 'ReduxArchive', 'RepositorySearch', 'Stopwatch', 'TicTacToe', 'Todos', 'WeatherSearch']"
    ),
    (
      "unknown action",
      """
      feature: Counter
      scenarios:
        - name: A
          steps:
            - send: incremnt
      """,
      "scenarios/0/steps/0/send: 'incremnt' is not valid under any of the given schemas"
    ),
    (
      "unknown nested action",
      """
      feature: TicTacToe
      scenarios:
        - name: A
          steps:
            - send: { login: { emailChange: blob@example.com } }
      """,
      "scenarios/0/steps/0/send: {'login': {'emailChange': 'blob@example.com'}} is not valid under any of the given schemas"
    ),
    (
      "wrong payload type",
      """
      feature: Archive
      scenarios:
        - name: A
          steps:
            - send: { toggleStored: { id: abc } }
      """,
      "scenarios/0/steps/0/send: {'toggleStored': {'id': 'abc'}} is not valid under any of the given schemas"
    ),
    (
      "unknown state field",
      """
      feature: Counter
      initialState: { cont: 1 }
      scenarios: [{ name: A, steps: [] }]
      """,
      #"initialState: 'cont' does not match any of the regexes: '^(?:count([.\\[].*)?|secret([.\\[].*)?)$'"#
    ),
    (
      "unknown field in a state path",
      """
      feature: RepositorySearch
      scenarios:
        - name: A
          steps:
            - send: onSearchButtonTapped
              state: { alert.titel: Oops }
      """,
      #"scenarios/0/steps/0/state: 'alert.titel' does not match any of the regexes: '^(?:searchText([.\\[].*)?|isLoading([.\\[].*)?|repositories([.\\[].*)?|alert(\\.(?:title([.\\[].*)?|message([.\\[].*)?|buttons([.\\[].*)?)|\\[.*)?)$'"#
    ),
    (
      "wrong state type",
      """
      feature: Counter
      scenarios:
        - name: A
          steps:
            - send: increment
              state: { count: one }
      """,
      "scenarios/0/steps/0/state/count: 'one' is not valid under any of the given schemas"
    ),
    (
      "unknown case path",
      """
      feature: RepositorySearch
      scenarios:
        - name: A
          steps:
            - receive: .fetchResponse.success
      """,
      "scenarios/0/steps/0/receive: '.fetchResponse.success' is not valid under any of the given schemas"
    ),
    (
      "unknown stub",
      """
      feature: Counter
      dependencies: { generateRandm: 4 }
      scenarios: [{ name: A, steps: [] }]
      """,
      "dependencies: Additional properties are not allowed ('generateRandm' was unexpected)"
    ),
    (
      "misspelt response key",
      """
      feature: RepositorySearch
      dependencies:
        repositoryClient.fetchRepositories: { return: [] }
      scenarios: [{ name: A, steps: [] }]
      """,
      "dependencies/repositoryClient.fetchRepositories: {'return': []} is not valid under any of the given schemas"
    ),
    (
      "two kinds in a step",
      """
      feature: Counter
      scenarios:
        - name: A
          steps:
            - { send: increment, advance: 1s }
      """,
      "scenarios/0/steps/0: {'send': 'increment', 'advance': '1s'} is valid under each of {'required': ['advance']}, {'required': ['send']}"
    ),
  ]

  @Test(
    .enabled(
      if: ContinuousIntegration.runs(whenFound: SchemaValidation.python != nil),
      "python3 with jsonschema is not installed (Debian: python3-jsonschema), so the schema was NOT validated"))
  func everyExampleSpecValidatesAndBrokenSpecsDoNot() async throws {
    let schema = try await Self.run(["schema"])
    #expect(schema.status == 0)
    let specs = try FileManager.default.contentsOfDirectory(atPath: BuiltCommand.packageRoot.appendingPathComponent("specs").path)
      .filter { $0.hasSuffix(".yaml") }.sorted()
    #expect(specs.count == 10)
    var instances: [(name: String, json: String)] = []
    for spec in specs {
      instances.append(
        (spec, try SchemaValidation.json(ofYAMLFile: BuiltCommand.packageRoot.appendingPathComponent("specs/\(spec)").path)))
    }
    for invalid in Self.invalidSpecs {
      instances.append((invalid.name, try SchemaValidation.json(ofYAML: invalid.yaml)))
    }
    let results = try await SchemaValidation.validate(schema: schema.stdout, instances: instances)
    for spec in specs {
      #expect(results[spec] == "valid", "\(spec)")
    }
    for invalid in Self.invalidSpecs {
      #expect(results[invalid.name] == invalid.error, "\(invalid.name)")
    }
  }

  @Test(
    .enabled(
      if: ContinuousIntegration.runs(whenFound: SchemaValidation.python != nil),
      "python3 with jsonschema is not installed (Debian: python3-jsonschema), so the schema was NOT validated"))
  func theSchemaOfOneFeatureRejectsTheOthers() async throws {
    let schema = try await Self.run(["schema", "Counter"])
    let counter = try SchemaValidation.json(
      ofYAMLFile: BuiltCommand.packageRoot.appendingPathComponent("specs/counter.yaml").path)
    let search = try SchemaValidation.json(
      ofYAMLFile: BuiltCommand.packageRoot.appendingPathComponent("specs/repository-search.yaml").path)
    let results = try await SchemaValidation.validate(schema: schema.stdout, instances: [("counter", counter), ("search", search)])
    #expect(results["counter"] == "valid")
    // Errors come sorted by path: its stubs are not Counter's, nor is its feature.
    #expect(
      results["search"]
        == "dependencies: Additional properties are not allowed ('repositoryClient.fetchRepositories' was unexpected)")
  }

  @Test(
    .enabled(
      if: ContinuousIntegration.runs(whenFound: SchemaValidation.python != nil),
      "python3 with jsonschema is not installed (Debian: python3-jsonschema), so the schema was NOT validated"))
  func theFixtureSpecsThatParseValidate() async throws {
    let schema = try await Self.run(["schema"], executable: Self.fixtures)
    let directory = BuiltCommand.packageRoot.appendingPathComponent("Tests/Fixtures/specs").path
    let specs = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".yaml") }.sorted()
    let instances = try specs.map { ($0, try SchemaValidation.json(ofYAMLFile: directory + "/" + $0)) }
    let results = try await SchemaValidation.validate(schema: schema.stdout, instances: instances)
    #expect(specs.map { results[$0] } == specs.map { _ in "valid" })
  }
}
