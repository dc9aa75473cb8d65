import Foundation
import Testing

/// `reducer-spec doc` run for real on the fixture specs of Tests/Fixtures/doc: a feature
/// with an outline, notes, a skipped scenario; a second feature; a file with an error. The
/// index and the Tally page are checked character for character, with and without a JUnit
/// file of results.
@Suite(.serialized) struct DocEndToEndTests {
  static func run(_ arguments: [String]) async throws -> BuiltCommand.Run {
    try await BuiltCommand.run(["doc"] + arguments, executable: ReducerSpecEndToEndTests.fixtures)
  }

  /// A new empty directory, removed by the caller.
  static func temporaryDirectory() throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("reducer-spec-doc-\(UUID())")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.path
  }

  static func read(_ path: String) throws -> String {
    try String(contentsOfFile: path, encoding: .utf8)
  }

  static func files(in directory: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
  }

  static let plainIndex = #"""
        # Features

        | Feature | Files | Scenarios |
        | --- | --- | --- |
        | [Forever](Forever.md) | `Tests/Fixtures/doc/forever.yaml` | 1 |
        | [Tally](Tally.md) | `Tests/Fixtures/doc/tally.yaml` | 5 |

        ## Files with errors

        These files could not be read; a run reports every error.

        | File | First error |
        | --- | --- |
        | `Tests/Fixtures/doc/broken.yaml` | `Tests/Fixtures/doc/broken.yaml:6:9`: unknown key `stat` in a step; did you mean `state`? |

        """#

  static let plainTally = #"""
        # Tally

        [All features](README.md)

        ## `Tests/Fixtures/doc/tally.yaml`

        Counting up and down, and searching.
        A search shows its results when they arrive.

        - Tags: `tally`
        - Dependencies: `searchClient.log: { returns: null }`

        ### Counting up and down

        - Tags: `smoke`

        | # | Step | State changes | Note |
        | --- | --- | --- | --- |
        | 1 | send `increment` | `count: 1` | The count starts at **0**. |
        | 2 | send `decrement` | `count: 0` |  |

        ### Setting the count to \<text\>

        Text that reads as a number sets the count.

        | # | Step | State changes | Note |
        | --- | --- | --- | --- |
        | 1 | send `{ setCount: <text> }` | `count: <count>` |  |

        Examples:

        | # | `text` | `count` | Scenario |
        | --- | --- | --- | --- |
        | 1 | `"7"` | `7` | Setting the count to 7 |
        | 2 | `"-2"` | `-2` | Setting the count to -2 |

        ### A search answers after a second

        - Dependencies: `searchClient.search: { returns: ["a|b"], after: 1s }`

        | # | Step | State changes | Note |
        | --- | --- | --- | --- |
        | 1 | send `{ search: swift }` | `query: swift`<br>`isLoading: true` | Loading starts at once;<br>the answer takes `1s`. |
        | 2 | advance `1s` |  |  |
        | 3 | receive `.response.success` | `isLoading: false`<br>`results: ["a\|b"]` |  |
        | 4 | receive `logged`, timeout `2s` |  |  |

        ### Not written yet

        - Skipped: waiting for the design

        | # | Step | State changes | Note |
        | --- | --- | --- | --- |
        | 1 | send `increment` |  |  |

        """#

  static let resultsIndex = #"""
        # Features

        Results from `Tests/Fixtures/doc/results.xml`: 2 passed, 1 failed, 1 error, 1 skipped, 1 not run.

        | Feature | Files | Scenarios | Results |
        | --- | --- | --- | --- |
        | [Forever](Forever.md) | `Tests/Fixtures/doc/forever.yaml` | 1 | 1 passed |
        | [Tally](Tally.md) | `Tests/Fixtures/doc/tally.yaml` | 5 | 1 passed, 1 failed, 1 error, 1 skipped, 1 not run |

        ## Files with errors

        These files could not be read; a run reports every error.

        | File | First error |
        | --- | --- |
        | `Tests/Fixtures/doc/broken.yaml` | `Tests/Fixtures/doc/broken.yaml:6:9`: unknown key `stat` in a step; did you mean `state`? |

        """#

  static let resultsTally = #"""
        # Tally

        [All features](README.md)

        ## `Tests/Fixtures/doc/tally.yaml`

        Counting up and down, and searching.
        A search shows its results when they arrive.

        - Tags: `tally`
        - Dependencies: `searchClient.log: { returns: null }`

        ### Counting up and down

        - Tags: `smoke`
        - Result: ✓ passed (0.001s)

        | # | Step | State changes | Note |
        | --- | --- | --- | --- |
        | 1 | send `increment` | `count: 1` | The count starts at **0**. |
        | 2 | send `decrement` | `count: 0` |  |

        ### Setting the count to \<text\>

        Text that reads as a number sets the count.

        | # | Step | State changes | Note |
        | --- | --- | --- | --- |
        | 1 | send `{ setCount: <text> }` | `count: <count>` |  |

        Examples:

        | # | `text` | `count` | Scenario | Result |
        | --- | --- | --- | --- | --- |
        | 1 | `"7"` | `7` | Setting the count to 7 | ✗ failed (0.002s) |
        | 2 | `"-2"` | `-2` | Setting the count to -2 | not run |

        ### A search answers after a second

        - Dependencies: `searchClient.search: { returns: ["a|b"], after: 1s }`
        - Result: ✗ error (1.500s)

        | # | Step | State changes | Note |
        | --- | --- | --- | --- |
        | 1 | send `{ search: swift }` | `query: swift`<br>`isLoading: true` | Loading starts at once;<br>the answer takes `1s`. |
        | 2 | advance `1s` |  |  |
        | 3 | receive `.response.success` | `isLoading: false`<br>`results: ["a\|b"]` |  |
        | 4 | receive `logged`, timeout `2s` |  |  |

        ### Not written yet

        - Skipped: waiting for the design
        - Result: skipped

        | # | Step | State changes | Note |
        | --- | --- | --- | --- |
        | 1 | send `increment` |  |  |

        """#

  @Test func documentsEveryFeatureAndListsTheFileWithAnError() async throws {
    let temporary = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: temporary) }
    // The directory is created, parents included.
    let output = temporary + "/docs/features"
    let run = try await Self.run(["Tests/Fixtures/doc", "-o", output])
    #expect(run.status == 1)
    #expect(run.stdout == "Wrote \(output)/README.md and 2 feature pages for 2 spec files; 1 file with errors.\n")
    #expect(
      run.stderr
        == "Tests/Fixtures/doc/broken.yaml:6:9: error: unknown key `stat` in a step; did you mean `state`?\n")
    #expect(try Self.files(in: output) == [".reducer-spec-doc", "Forever.md", "README.md", "Tally.md"])
    #expect(try Self.read(output + "/README.md") == Self.plainIndex)
    #expect(try Self.read(output + "/Tally.md") == Self.plainTally)
    #expect(
      try Self.read(output + "/Forever.md") == #"""
        # Forever

        [All features](README.md)

        ## `Tests/Fixtures/doc/forever.yaml`

        A timer that ticks every second:

        - `start` starts it;
        - `stop` stops it.

        <!-- -->

        - Tags: `timer`

        ### A timer that is stopped

        - Exhaustivity: off (only what the steps state is checked)

        | # | Step | State changes | Note |
        | --- | --- | --- | --- |
        | 1 | send `start` |  |  |
        | 2 | advance `2s` |  |  |
        | 3 | receive `tick` | `ticks: 1` |  |
        | 4 | send `stop` |  |  |
        | 5 | finish |  |  |

        """#)

    // The same specs give the same pages, byte for byte.
    let again = try await Self.run(["Tests/Fixtures/doc/", "-o", output + "/"])
    #expect(again.status == 1)
    #expect(try Self.read(output + "/README.md") == Self.plainIndex)
    #expect(try Self.read(output + "/Tally.md") == Self.plainTally)
  }

  @Test func showsTheOutcomesOfAJUnitFile() async throws {
    let output = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: output) }
    let run = try await Self.run(["Tests/Fixtures/doc", "-o", output, "--results", "Tests/Fixtures/doc/results.xml"])
    #expect(run.status == 1)
    #expect(try Self.read(output + "/README.md") == Self.resultsIndex)
    #expect(try Self.read(output + "/Tally.md") == Self.resultsTally)
  }

  /// The JUnit file of a real run names every scenario as the pages do.
  @Test func matchesTheJUnitFileOfARun() async throws {
    let output = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: output) }
    let specs = ["Tests/Fixtures/doc/forever.yaml", "Tests/Fixtures/doc/tally.yaml"]
    let junit = output + "/run.xml"
    let test = try await BuiltCommand.run(specs + ["--junit", junit], executable: ReducerSpecEndToEndTests.fixtures)
    #expect(test.status == 0)
    let run = try await Self.run(specs + ["-o", output + "/docs", "--results", junit])
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(run.stdout == "Wrote \(output)/docs/README.md and 2 feature pages for 2 spec files.\n")
    let index = try Self.read(output + "/docs/README.md")
    #expect(index.contains("Results from `\(junit)`: 5 passed, 1 skipped.\n"))
    #expect(index.contains("| [Tally](Tally.md) | `Tests/Fixtures/doc/tally.yaml` | 5 | 4 passed, 1 skipped |\n"))
    let tally = try Self.read(output + "/docs/Tally.md")
    #expect(!tally.contains("not run"))
    #expect(tally.contains("| 2 | `\"-2\"` | `-2` | Setting the count to -2 | ✓ passed ("))
  }

  @Test func usageErrors() async throws {
    let output = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: output) }
    let usage = """
      Usage: reducer-spec-fixtures doc [<paths> ...] --output <directory> [--results <file>]
        See 'reducer-spec-fixtures doc --help' for more information.

      """
    func expectUsageError(_ arguments: [String], _ message: String, sourceLocation: SourceLocation = #_sourceLocation)
      async throws
    {
      let run = try await Self.run(arguments)
      #expect(run.status == 64, sourceLocation: sourceLocation)
      #expect(run.stdout == "", sourceLocation: sourceLocation)
      #expect(run.stderr == "Error: " + message + "\n" + usage, sourceLocation: sourceLocation)
    }
    let missingOutput = try await Self.run(["Tests/Fixtures/doc"])
    #expect(missingOutput.status == 64)
    #expect(
      missingOutput.stderr == """
        Error: Missing expected argument '--output <directory>'
        Help:  -o <directory>  The directory to write the pages into.

        """ + usage)
    try await expectUsageError(
      ["Tests/Fixtures/doc", "-o", output, "--results", "Tests/Fixtures/doc/none.xml"],
      "cannot read the results file 'Tests/Fixtures/doc/none.xml': no such file")
    try await expectUsageError(
      ["Tests/Fixtures/doc", "-o", output, "--results", "Tests/Fixtures/doc"],
      "cannot read the results file 'Tests/Fixtures/doc': it is a directory")
    try await expectUsageError(
      ["Tests/Fixtures/doc", "-o", output, "--results", "Tests/Fixtures/doc/tally.yaml"],
      "'Tests/Fixtures/doc/tally.yaml' is not a JUnit XML file: it is not XML (it does not start with `<`)")
    try await expectUsageError(
      ["Tests/Fixtures/doc", "-o", output, "--results", "Tests/Fixtures/junit-10-file-line.xsd"],
      "'Tests/Fixtures/junit-10-file-line.xsd' is not a JUnit XML file: its root element is <xs:schema>, not <testsuites> or <testsuite>"
    )
    try await expectUsageError(
      ["Tests/Fixtures/doc", "-o", "Package.swift"],
      "'Package.swift' is a file: -o names the directory to write the pages into")
    try await expectUsageError(
      ["Tests/Fixtures/nothing", "-o", output], "no such file or directory: 'Tests/Fixtures/nothing'")
    // Nothing was written.
    #expect(try Self.files(in: output) == [])
  }

  @Test func thePageOfAFeatureThatIsGoneIsRemoved() async throws {
    let temporary = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: temporary) }
    let output = temporary + "/docs"
    let first = try await Self.run(["Tests/Fixtures/doc/tally.yaml", "Tests/Fixtures/doc/forever.yaml", "-o", output])
    #expect(first.status == 0)
    #expect(try Self.files(in: output) == [".reducer-spec-doc", "Forever.md", "README.md", "Tally.md"])
    #expect(
      try Self.read(output + "/.reducer-spec-doc") == """
        # The pages that `reducer-spec doc` wrote here; it removes those it no longer writes.
        README.md
        Forever.md
        Tally.md

        """)
    // Files that doc did not write stay, whatever the list says.
    try #require(FileManager.default.createFile(atPath: output + "/notes.md", contents: Data("mine\n".utf8)))
    try #require(FileManager.default.createFile(atPath: temporary + "/outside.md", contents: Data()))
    let list = try Self.read(output + "/.reducer-spec-doc") + "../outside.md\n.hidden.md\n"
    try Data(list.utf8).write(to: URL(fileURLWithPath: output + "/.reducer-spec-doc"))

    let second = try await Self.run(["Tests/Fixtures/doc/tally.yaml", "-o", output])
    #expect(second.status == 0)
    #expect(
      second.stdout == """
        Removed \(output)/Forever.md: no spec file describes its feature now.
        Wrote \(output)/README.md and 1 feature page for 1 spec file.

        """)
    #expect(try Self.files(in: output) == [".reducer-spec-doc", "README.md", "Tally.md", "notes.md"])
    #expect(FileManager.default.fileExists(atPath: temporary + "/outside.md"))
    #expect(
      try Self.read(output + "/.reducer-spec-doc") == """
        # The pages that `reducer-spec doc` wrote here; it removes those it no longer writes.
        README.md
        Tally.md

        """)
  }

  @Test func directoriesAndPagesThatCannotBeWritten() async throws {
    let output = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: output) }
    try #require(FileManager.default.createFile(atPath: output + "/file", contents: Data()))
    let run = try await Self.run(["Tests/Fixtures/doc/tally.yaml", "-o", output + "/file/docs"])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(run.stderr == "Error: cannot create the directory '\(output)/file/docs': Not a directory\n")

    // A page that cannot replace what is at its path.
    try FileManager.default.createDirectory(atPath: output + "/docs/README.md", withIntermediateDirectories: true)
    let blocked = try await Self.run(["Tests/Fixtures/doc/tally.yaml", "-o", output + "/docs"])
    #expect(blocked.status == 1)
    #expect(blocked.stdout == "")
    #expect(blocked.stderr == "Error: cannot write '\(output)/docs/README.md': Is a directory\n")
    #expect(try Self.files(in: output + "/docs") == ["README.md"])
  }
}
