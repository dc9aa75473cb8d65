import Foundation
import TestSupport
import Testing

/// The authoring commands on ReducerCore's collections and navigation: `features`, `schema`,
/// `doc` and `record` on the `Roster` fixture (Tests/SpecFixtures/Roster.swift: an identified
/// list with bindings, a presented sheet that saves through a delegate and dismisses itself,
/// an alert, a stack) and on the `Checklist` fixture's long-living effects.
@Suite(.serialized) struct NavigationAuthoringEndToEndTests {
  static var fixtures: URL { ReducerSpecEndToEndTests.fixtures }

  @Test func featuresDescribesIdentifiedListsPresentationStacksBindingsAndAlerts() async throws {
    let run = try await BuiltCommand.run(["features", "Roster"], executable: Self.fixtures)
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(
      run.stdout == """
        Roster

        Default state (what `initialState:` assigns onto):
          members: []
          destination: null
          path: []

        State fields (assign them in `state:` and `initialState:`):
          members: [RosterMember.State] (identified by id)
          destination: Roster.Destination.State? (presented)
          path: [{ id: Int, state: MemberDetail.State }] (a navigation stack)

        Actions (`send:` and `receive:`):
          addButtonTapped
          clearButtonTapped
          destination: { presented: { addMember: AddMember.Action } | { alert: confirmClear } } | dismiss
          members: { element: { id: UUID, action: { binding: { name: String } | { isFavorite: Bool } } } }
          memberTapped: { id: UUID }
          path: { push: { id: Int, state: MemberDetail.State } } | { popFrom: { id: Int } } | { element: { id: Int, action: closeButtonTapped } }

        Stubs (under `dependencies:`):
          (none)

        Built-in stubs:
          uuid: `incrementing` or a list of UUIDs
          date: a date (2024-05-01T09:00:00Z)
          random: `{ seed: 42 }`
          locale: a locale identifier (en_US)
          timeZone: a time zone identifier (UTC, Europe/Paris)
          calendar: a calendar identifier (gregorian)
          clock: `test` (the default) or `immediate`

        Types:
          RosterMember.State:
            id: UUID
            name: String
            isFavorite: Bool
          Roster.Destination.State, one of:
            addMember: AddMember.State
            alert: AlertState<Roster.Action.Alert>
          MemberDetail.State:
            member: RosterMember.State
          AddMember.Action, one of:
            cancelButtonTapped
            delegate: { saveMember: RosterMember.State }
            saveButtonTapped
            setName: String
          AddMember.State:
            member: RosterMember.State
          AlertState<Roster.Action.Alert>:
            title: String
            message: String?
            buttons: [{ label: String, role: (cancel | destructive)?, action: confirmClear? }] (may be left out)

        """)
  }

  /// Spec files that the runner rejects, for the new keys, and jsonschema's first error.
  static let invalidSpecs: [(name: String, yaml: String, error: String)] = [
    ("misspelt assert", "      - asert: { members: [] }",
     "scenarios/0/steps/0: {'asert': {'members': []}} is not valid under any of the given schemas"),
    ("misspelt as", "      - send: addButtonTapped\n        az: sheet",
     "scenarios/0/steps/0: Additional properties are not allowed ('az' was unexpected)"),
    ("misspelt showSkippedAssertions", "      - exhaustivity: { off: { showSkipedAssertions: true } }",
     "scenarios/0/steps/0/exhaustivity: {'off': {'showSkipedAssertions': True}} is not valid under any of the given schemas"),
    ("finish false", "      - finish: false",
     "scenarios/0/steps/0/finish: False is not valid under any of the given schemas"),
    ("misspelt case in an action path key", "      - send:\n          membrs[id=0].binding.isFavorite: true",
     "scenarios/0/steps/0/send: {'membrs[id=0].binding.isFavorite': True} is not valid under any of the given schemas"),
    ("misspelt case in a dotted action", "      - send: destination.presentd.addMember.saveButtonTapped",
     "scenarios/0/steps/0/send: 'destination.presentd.addMember.saveButtonTapped' is not valid under any of the given schemas"),
    ("misspelt bindable field", "      - send: { members: { element: { id: 0, action: { binding: { isFavourite: true } } } } }",
     "scenarios/0/steps/0/send: {'members': {'element': {'id': 0, 'action': {'binding': {'isFavourite': True}}}}} is not valid under any of the given schemas"),
    ("misspelt key of a stack element", "      - send: addButtonTapped\n        state: { path: [{ id: 0, stat: { member: { id: 0, name: x } } }] }",
     "scenarios/0/steps/0/state/path: [{'id': 0, 'stat': {'member': {'id': 0, 'name': 'x'}}}] is not valid under any of the given schemas"),
    ("unknown stream", "      - emit: { screen: 1 }",
     "scenarios/0/steps/0/emit: Additional properties are not allowed ('screen' was unexpected)"),
    ("close of a stream of another feature", "      - close: screen.messages",
     "scenarios/0/steps/0/close: 'screen.messages' is not valid under any of the given schemas"),
  ]

  @Test(
    .enabled(
      if: ContinuousIntegration.runs(whenFound: SchemaValidation.python != nil),
      "python3 with jsonschema is not installed (Debian: python3-jsonschema), so the schema was NOT validated"))
  func theSchemaTakesTheNewKeysAndRejectsTheirTypos() async throws {
    let schema = try await BuiltCommand.run(["schema"], executable: Self.fixtures)
    #expect(schema.status == 0)
    let valid = [
      "Tests/Fixtures/roster/roster.yaml", "Tests/Fixtures/record/roster.yaml", "Tests/Fixtures/checklist/passing.yaml",
      "Tests/Fixtures/checklist/failing.yaml",
    ]
    var instances: [(name: String, json: String)] = []
    for path in valid {
      instances.append((path, try SchemaValidation.json(ofYAMLFile: BuiltCommand.packageRoot.appendingPathComponent(path).path)))
    }
    for invalid in Self.invalidSpecs {
      let yaml = "feature: Roster\nscenarios:\n  - name: A\n    steps:\n" + invalid.yaml + "\n"
      instances.append((invalid.name, try SchemaValidation.json(ofYAML: yaml)))
    }
    let results = try await SchemaValidation.validate(schema: schema.stdout, instances: instances)
    for path in valid {
      #expect(results[path] == "valid", "\(path)")
    }
    for invalid in Self.invalidSpecs {
      #expect(results[invalid.name] == invalid.error, "\(invalid.name)")
    }
  }

  @Test func docRendersTheNewStepsAndActionPaths() async throws {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("doc-roster-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: output) }
    let run = try await BuiltCommand.run(
      ["doc", "Tests/Fixtures/roster", "-o", output.path], executable: Self.fixtures, directory: BuiltCommand.packageRoot)
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(
      try String(contentsOf: output.appendingPathComponent("Roster.md"), encoding: .utf8) == """
        # Roster

        [All features](README.md)

        ## `Tests/Fixtures/roster/roster.yaml`

        A roster with a sheet that saves through a delegate, an alert, and a stack of details.

        - Dependencies: `uuid: incrementing`

        ### Adding a member through the sheet

        | # | Step | State changes | Note |
        | --- | --- | --- | --- |
        | 1 | send `addButtonTapped` | `destination: { addMember: { member: { id: 0, name: "", isFavorite: false } } }` |  |
        | 2 | send `destination.presented.addMember.setName: Blob` | `destination.addMember.member.name: Blob` |  |
        | 3 | send `destination.presented.addMember.saveButtonTapped` |  |  |
        | 4 | receive `.destination.presented.addMember.delegate.saveMember` | `members: [{ id: 0, name: Blob, isFavorite: false }]` |  |
        | 5 | receive `{ destination: dismiss }` | `destination: null` |  |

        ### Binding a member's field and opening its screen

        - Initial state: `members: [{ id: 0, name: Blob, isFavorite: false }]`

        | # | Step | State changes | Note |
        | --- | --- | --- | --- |
        | 1 | send `members[id=0].binding.isFavorite: true` | `members[id=0].isFavorite: true` |  |
        | 2 | send `{ memberTapped: { id: 0 } }` | `path: [{ id: 0, state: { member: { id: 0, name: Blob, isFavorite: true } } }]` |  |
        | 3 | send `path[id=0]: closeButtonTapped` as `detail` |  |  |
        | 4 | receive `{ path: { popFrom: { id: 0 } } }` | `path: []` |  |
        | 5 | finish `detail` |  |  |

        ### Clearing the roster after an alert

        - Initial state: `members: [{ id: 0, name: Blob, isFavorite: false }]`

        | # | Step | State changes | Note |
        | --- | --- | --- | --- |
        | 1 | send `clearButtonTapped` | `destination: { alert: { title: Remove everyone?, buttons: [{ label: Remove, role: destructive, action: confirmClear }, { label: Cancel, role: cancel }] } }` |  |
        | 2 | exhaustivity `off` |  |  |
        | 3 | send `{ destination: { presented: { alert: confirmClear } } }` |  |  |
        | 4 | assert `members: []`, `destination: null` |  |  |

        """)
  }

  @Test func recordWritesTheNewShapesAndInsertsTheDelegateActionAndTheDismissal() async throws {
    let root = try RecordEndToEndTests.copies(["Tests/Fixtures/record/roster.yaml"])
    defer { try? FileManager.default.removeItem(at: root) }
    let run = try await BuiltCommand.run(["record", "specs/roster.yaml"], executable: Self.fixtures, directory: root)
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(
      run.stdout == """
        --- a/specs/roster.yaml
        +++ b/specs/roster.yaml
        @@ -7,16 +7,30 @@
           - name: Adding a member through the sheet
             steps:
               - send: addButtonTapped
        +        state: { destination: { addMember: { member: { id: 0, name: "", isFavorite: false } } } }
               - send:
                   destination.presented.addMember.setName: Blob
        +        state: { destination: { addMember: { member: { id: 0, name: Blob, isFavorite: false } } } }
               - send: destination.presented.addMember.saveButtonTapped
        +      - receive:
        +          destination.presented.addMember.delegate.saveMember:
        +            id: 0
        +            name: Blob
        +            isFavorite: false
        +        state: { members: [{ id: 0, name: Blob, isFavorite: false }] }
        +      - receive: { destination: dismiss }
        +        state: { destination: null }
               - send:
                   members[id=0].binding.isFavorite: true
        +        state: { members: [{ id: 0, name: Blob, isFavorite: true }] }
               - assert:
                   members[id=0].name: Blob
               - send: { memberTapped: { id: 0 } }
        +        state: { path: [{ id: 0, state: { member: { id: 0, name: Blob, isFavorite: true } } }] }
               - exhaustivity: { off: { showSkippedAssertions: true } }
               - send:
                   path[id=0]: closeButtonTapped
                 as: detail
               - finish: detail
        +      - receive: { path: { popFrom: { id: 0 } } }
        +        state: { path: [] }
        Recorded 1 scenario in 1 file; 1 file changed.

        """)
    #expect(
      try RecordEndToEndTests.text(root, "specs/roster.yaml") == """
        # Steps without their expectations: `reducer-spec record` writes the states, and the
        # actions that the sheet's effect sends back (its delegate action, then its dismissal).
        feature: Roster
        dependencies:
          uuid: incrementing
        scenarios:
          - name: Adding a member through the sheet
            steps:
              - send: addButtonTapped
                state: { destination: { addMember: { member: { id: 0, name: "", isFavorite: false } } } }
              - send:
                  destination.presented.addMember.setName: Blob
                state: { destination: { addMember: { member: { id: 0, name: Blob, isFavorite: false } } } }
              - send: destination.presented.addMember.saveButtonTapped
              - receive:
                  destination.presented.addMember.delegate.saveMember:
                    id: 0
                    name: Blob
                    isFavorite: false
                state: { members: [{ id: 0, name: Blob, isFavorite: false }] }
              - receive: { destination: dismiss }
                state: { destination: null }
              - send:
                  members[id=0].binding.isFavorite: true
                state: { members: [{ id: 0, name: Blob, isFavorite: true }] }
              - assert:
                  members[id=0].name: Blob
              - send: { memberTapped: { id: 0 } }
                state: { path: [{ id: 0, state: { member: { id: 0, name: Blob, isFavorite: true } } }] }
              - exhaustivity: { off: { showSkippedAssertions: true } }
              - send:
                  path[id=0]: closeButtonTapped
                as: detail
              - finish: detail
              - receive: { path: { popFrom: { id: 0 } } }
                state: { path: [] }

        """)
    // What it recorded runs, and recording again changes nothing.
    let again = try await BuiltCommand.run(["record", "specs"], executable: Self.fixtures, directory: root)
    #expect(again.stdout == "Recorded 1 scenario in 1 file; no changes.\n")
    let passing = try await BuiltCommand.run(["specs"], executable: Self.fixtures, directory: root)
    #expect(passing.status == 0)
  }

  @Test func recordLeavesStreamsNamedSendsAndAssertionsAsTheyAre() async throws {
    let root = try RecordEndToEndTests.copies(["Tests/Fixtures/checklist/passing.yaml"])
    defer { try? FileManager.default.removeItem(at: root) }
    let before = try RecordEndToEndTests.text(root, "specs/passing.yaml")
    let run = try await BuiltCommand.run(["record", "specs"], executable: Self.fixtures, directory: root)
    #expect(run.status == 0)
    #expect(
      run.stdout == """
        specs/passing.yaml:74:5: note: exhaustivity is off: this scenario is left as it is
        Recorded 5 scenarios in 1 file; no changes.

        """)
    #expect(try RecordEndToEndTests.text(root, "specs/passing.yaml") == before)
  }
}
