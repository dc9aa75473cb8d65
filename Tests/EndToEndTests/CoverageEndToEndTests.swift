import Foundation
import Testing
import TestSupport

/// `reducer-spec coverage` run for real (`reducer-spec-fixtures coverage`) on the `Gauge`
/// fixture feature (Tests/SpecFixtures/Gauge.swift), whose spec (Tests/Fixtures/coverage)
/// leaves an action case, a nested case, a field and a stub out on purpose, and on the
/// `Roster` fixture's spec for the nested cases of collections and navigation: the exact
/// console output, the JSON, the lcov file (read by a strict reader) and the Cobertura file
/// (validated with `xmllint --dtdvalid` against Tests/Fixtures/cobertura-coverage-04.dtd).
@Suite(.serialized) struct CoverageEndToEndTests {
  static func run(_ arguments: [String]) async throws -> BuiltCommand.Run {
    try await BuiltCommand.run(
      ["coverage"] + arguments, environment: ["SOURCE_DATE_EPOCH": "1700000000"],
      executable: ReducerSpecEndToEndTests.fixtures)
  }

  @Test func consoleTableAndWhatIsNotCovered() async throws {
    let run = try await Self.run(["Tests/Fixtures/coverage"])
    // The run's report: passes are left out, so only its summary.
    #expect(run.stderr == "3 passed, 0 failed, 0 skipped\n")
    #expect(run.status == 0)
    #expect(run.stdout == Self.gaugeConsole)
  }

  @Test func nestedCasesOfCollectionsAndNavigation() async throws {
    let run = try await Self.run(["Tests/Fixtures/roster", "Tests/Fixtures/coverage"])
    #expect(run.stderr == "6 passed, 0 failed, 0 skipped\n")
    #expect(run.status == 0)
    #expect(run.stdout == """
      feature        actions         fields        stubs
      Gauge       5/9  55.6%     4/5  80.0%   1/3  33.3%
      Roster    11/14  78.6%   16/16 100.0%            -

      Gauge
        actions that no step sends or receives:
          lower
          readResponse.failure
          saveTapped
          calibrateTapped
        fields that no `state:` or `assert:` checks:
          label
        stubs that no spec stubs:
          gauge.save
        stubs that specs stub but no scenario called:
          gauge.calibrate

      Roster
        actions that no step sends or receives:
          destination.presented.addMember.cancelButtonTapped
          members.element.binding.name
          path.push

      """)
  }

  @Test func jsonAndMinimum() async throws {
    let run = try await Self.run(["--format", "json", "--minimum", "75", "Tests/Fixtures/coverage"])
    #expect(run.status == 1)
    #expect(run.stderr == """
      3 passed, 0 failed, 0 skipped
      Error: Gauge's actions are 55.6% covered (5 of 9), below the minimum of 75%
      Error: Gauge's stubs are 33.3% covered (1 of 3), below the minimum of 75%

      """)
    #expect(run.stdout == """
      {
        "features": [
          {
            "name": "Gauge",
            "files": ["Tests/Fixtures/coverage/gauge.yaml"],
            "actions": {
              "covered": 5,
              "total": 9,
              "percent": "55.6",
              "items": [
                {
                  "name": "raise",
                  "sent": 2,
                  "received": 0
                },
                {
                  "name": "lower",
                  "sent": 0,
                  "received": 0
                },
                {
                  "name": "readTapped",
                  "sent": 1,
                  "received": 0
                },
                {
                  "name": "readResponse.success",
                  "sent": 0,
                  "received": 1
                },
                {
                  "name": "readResponse.failure",
                  "sent": 0,
                  "received": 0
                },
                {
                  "name": "settings.setUnit",
                  "sent": 1,
                  "received": 0
                },
                {
                  "name": "settings.setStep",
                  "sent": 1,
                  "received": 0
                },
                {
                  "name": "saveTapped",
                  "sent": 0,
                  "received": 0
                },
                {
                  "name": "calibrateTapped",
                  "sent": 0,
                  "received": 0
                }
              ]
            },
            "fields": {
              "covered": 4,
              "total": 5,
              "percent": "80.0",
              "items": [
                {
                  "name": "level",
                  "asserted": 3
                },
                {
                  "name": "label",
                  "asserted": 0
                },
                {
                  "name": "settings",
                  "asserted": 2
                },
                {
                  "name": "settings.unit",
                  "asserted": 1
                },
                {
                  "name": "settings.step",
                  "asserted": 2
                }
              ]
            },
            "stubs": {
              "covered": 1,
              "total": 3,
              "percent": "33.3",
              "items": [
                {
                  "name": "gauge.read",
                  "stubbed": 1,
                  "called": 1
                },
                {
                  "name": "gauge.save",
                  "stubbed": 0,
                  "called": 0
                },
                {
                  "name": "gauge.calibrate",
                  "stubbed": 1,
                  "called": 0
                }
              ]
            }
          }
        ],
        "failedFiles": []
      }

      """)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    let features = try #require(object["features"] as? [[String: Any]])
    #expect(features.map { $0["name"] as? String } == ["Gauge"])
  }

  @Test func onlyTheScenariosThatRunAreCounted() async throws {
    // `--filter` keeps "Reading the gauge": it sends `readTapped`, receives the success,
    // checks `level`, stubs `gauge.read` (called once) and `gauge.calibrate` (never called).
    let run = try await Self.run(["--filter", "Reading", "--format", "json", "Tests/Fixtures/coverage"])
    #expect(run.status == 0)
    #expect(run.stderr == "1 passed, 0 failed, 0 skipped\n")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    let gauge = try #require((object["features"] as? [[String: Any]])?.first)
    func covered(_ kind: String) -> [String] {
      let items = ((gauge[kind] as? [String: Any])?["items"] as? [[String: Any]]) ?? []
      return items.filter { item in
        let counts = ["sent", "received", "asserted"].compactMap { item[$0] as? Int }
        if kind == "stubs" { return (item["stubbed"] as? Int ?? 0) > 0 && (item["called"] as? Int ?? 0) > 0 }
        return counts.reduce(0, +) > 0
      }.compactMap { $0["name"] as? String }
    }
    #expect(covered("actions") == ["readTapped", "readResponse.success"])
    #expect(covered("fields") == ["level"])
    #expect(covered("stubs") == ["gauge.read"])
    let stubs = try #require((gauge["stubs"] as? [String: Any])?["items"] as? [[String: Any]])
    #expect(stubs.map { "\($0["name"]!) \($0["stubbed"]!) \($0["called"]!)" } == [
      "gauge.read 1 1", "gauge.save 0 0", "gauge.calibrate 1 0",
    ])
  }

  @Test func aFailingScenarioIsReportedOnStandardErrorAndExits1() async throws {
    let source = try String(
      contentsOf: BuiltCommand.packageRoot.appendingPathComponent("Tests/Fixtures/coverage/gauge.yaml"), encoding: .utf8)
    let spec = try TemporaryFile(Array(source.replacingOccurrences(of: "state: { level: 6 }", with: "state: { level: 5 }").utf8))
    let run = try await Self.run([spec.path])
    #expect(run.status == 1)
    #expect(run.stderr.hasPrefix("\(spec.path)\n  ✗ Raising by the step ("))
    #expect(run.stderr.contains("\(spec.path):13:9: error: A state change does not match expectation"))
    #expect(run.stderr.hasSuffix("\n2 passed, 1 failed, 0 skipped\n"))
    // The coverage is still reported: the specs as written, of the scenarios that ran.
    #expect(run.stdout.hasPrefix("""
      feature      actions       fields        stubs
      Gauge     5/9  55.6%   4/5  80.0%   1/3  33.3%

      """))
  }

  @Test func codeCoverageNeedsAnInstrumentedExecutableAndSaysHowToBuildOne() async throws {
    // The usual debug build is not instrumented: nothing runs, and the message gives the
    // one line that builds and runs an instrumented one. (An instrumented build is checked
    // end to end by scripts/check-code-coverage, which CI runs.)
    let run = try await Self.run(["--code", "Tests/Fixtures/coverage"])
    let executable = ReducerSpecEndToEndTests.fixtures.resolvingSymlinksInPath().path
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(run.stderr == """
      Error: --code needs an executable built for code coverage, and \(executable) was not; build and run it \
      with: swift build --scratch-path .build-coverage --enable-code-coverage --product reducer-spec-fixtures \
      && .build-coverage/debug/reducer-spec-fixtures coverage --code specs/

      """)
    for option in [["--code-source", "Sources"], ["--code-profiles", "profiles"]] {
      let usage = try await Self.run(option + ["Tests/Fixtures/coverage"])
      #expect(usage.status == 64)
      #expect(usage.stderr.hasPrefix("Error: \(option[0]) needs --code\nUsage: reducer-spec-fixtures coverage [<options>]"))
    }
  }

  @Test func minimumMetAndOutOfRange() async throws {
    let met = try await Self.run(["--minimum", "33.3", "Tests/Fixtures/coverage"])
    #expect(met.status == 0)
    #expect(met.stderr == "3 passed, 0 failed, 0 skipped\n")
    let wrong = try await Self.run(["--minimum", "120", "Tests/Fixtures/coverage"])
    #expect(wrong.status == 64)
    #expect(wrong.stderr.hasPrefix("Error: --minimum takes a percentage from 0 to 100, not 120\n"))
  }

  @Test func filesWithErrorsAreNotCounted() async throws {
    let run = try await Self.run(["Tests/Fixtures/checklist/invalid/flow-key.yaml", "Tests/Fixtures/coverage"])
    #expect(run.status == 1)
    #expect(run.stdout.hasSuffix("""

      Not counted: 1 file with errors (`reducer-spec-fixtures check` lists them):
        Tests/Fixtures/checklist/invalid/flow-key.yaml

      """))
  }

  static let gaugeConsole = """
    feature      actions       fields        stubs
    Gauge     5/9  55.6%   4/5  80.0%   1/3  33.3%

    Gauge
      actions that no step sends or receives:
        lower
        readResponse.failure
        saveTapped
        calibrateTapped
      fields that no `state:` or `assert:` checks:
        label
      stubs that no spec stubs:
        gauge.save
      stubs that specs stub but no scenario called:
        gauge.calibrate

    """
}

/// The files for dashboards: lcov read back strictly, Cobertura validated against the DTD.
@Suite(.serialized) struct CoverageFilesEndToEndTests {
  @Test func lcovAndCoberturaFiles() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("coverage-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let lcov = directory.appendingPathComponent("lcov.info").path
    let cobertura = directory.appendingPathComponent("coverage.xml").path
    let listing = directory.appendingPathComponent("listing").path
    let run = try await CoverageEndToEndTests.run([
      "--lcov", lcov, "--cobertura", cobertura, "--listing", listing, "Tests/Fixtures/coverage",
    ])
    #expect(run.stderr == "3 passed, 0 failed, 0 skipped\n")
    #expect(run.status == 0)

    let lcovText = try String(contentsOfFile: lcov, encoding: .utf8)
    let records = try LcovReader.read(lcovText)
    #expect(records.map(\.source) == ["reducer-spec-coverage/Gauge.txt"])
    let gauge = try #require(records.first)
    #expect(gauge.lines.count == 17)
    #expect(gauge.lines.filter { $0.hits > 0 }.count == 10)
    #expect(gauge.functions.filter { $0.hits == 0 }.map(\.name) == [
      "action:lower", "action:readResponse.failure", "action:saveTapped", "action:calibrateTapped", "field:label",
      "stub:gauge.save", "stub:gauge.calibrate",
    ])
    #expect(lcovText == Self.lcov)

    let listingText = try String(contentsOfFile: listing + "/Gauge.txt", encoding: .utf8)
    #expect(listingText.split(separator: "\n").count == gauge.lines.count)
    #expect(listingText.hasPrefix("action raise\naction lower\n"))

    let xml = try String(contentsOfFile: cobertura, encoding: .utf8)
    #expect(xml == Self.cobertura)
    let dtd = BuiltCommand.packageRoot.appendingPathComponent("Tests/Fixtures/cobertura-coverage-04.dtd").path
    let xmllint = try #require(
      ["/usr/bin/xmllint", "/usr/local/bin/xmllint", "/opt/homebrew/bin/xmllint"].first {
        FileManager.default.isExecutableFile(atPath: $0)
      }, "xmllint is needed (Debian: libxml2-utils) to validate the Cobertura file")
    let check = try await BuiltCommand.run(
      ["--noout", "--nonet", "--dtdvalid", dtd, cobertura], executable: URL(fileURLWithPath: xmllint))
    // xmllint warns that it did not fetch the DOCTYPE's DTD (--nonet); it validates against the copy.
    #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    #expect(!check.stderr.contains("validity error"))
    // The validation has teeth: a class without its `complexity` does not validate.
    let broken = directory.appendingPathComponent("broken.xml").path
    try xml.replacingOccurrences(
      of: #"branch-rate="1" complexity="0">"# + "\n          <methods>",
      with: #"branch-rate="1">"# + "\n          <methods>")
      .write(toFile: broken, atomically: true, encoding: .utf8)
    let failing = try await BuiltCommand.run(
      ["--noout", "--nonet", "--dtdvalid", dtd, broken], executable: URL(fileURLWithPath: xmllint))
    #expect(failing.status != 0)
  }

  static let lcov = """
    TN:behaviour
    SF:reducer-spec-coverage/Gauge.txt
    FN:1,action:raise
    FN:2,action:lower
    FN:3,action:readTapped
    FN:4,action:readResponse.success
    FN:5,action:readResponse.failure
    FN:6,action:settings.setUnit
    FN:7,action:settings.setStep
    FN:8,action:saveTapped
    FN:9,action:calibrateTapped
    FN:10,field:level
    FN:11,field:label
    FN:12,field:settings
    FN:13,field:settings.unit
    FN:14,field:settings.step
    FN:15,stub:gauge.read
    FN:16,stub:gauge.save
    FN:17,stub:gauge.calibrate
    FNDA:2,action:raise
    FNDA:0,action:lower
    FNDA:1,action:readTapped
    FNDA:1,action:readResponse.success
    FNDA:0,action:readResponse.failure
    FNDA:1,action:settings.setUnit
    FNDA:1,action:settings.setStep
    FNDA:0,action:saveTapped
    FNDA:0,action:calibrateTapped
    FNDA:3,field:level
    FNDA:0,field:label
    FNDA:2,field:settings
    FNDA:1,field:settings.unit
    FNDA:2,field:settings.step
    FNDA:1,stub:gauge.read
    FNDA:0,stub:gauge.save
    FNDA:0,stub:gauge.calibrate
    FNF:17
    FNH:10
    DA:1,2
    DA:2,0
    DA:3,1
    DA:4,1
    DA:5,0
    DA:6,1
    DA:7,1
    DA:8,0
    DA:9,0
    DA:10,3
    DA:11,0
    DA:12,2
    DA:13,1
    DA:14,2
    DA:15,1
    DA:16,0
    DA:17,0
    LF:17
    LH:10
    end_of_record

    """

  static let cobertura = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE coverage SYSTEM "http://cobertura.sourceforge.net/xml/coverage-04.dtd">
    <coverage line-rate="0.5882" branch-rate="1" lines-covered="10" lines-valid="17" branches-covered="0" branches-valid="0" complexity="0" version="reducer-spec 0.1.0" timestamp="1700000000000">
      <sources>
        <source>.</source>
      </sources>
      <packages>
        <package name="Gauge" line-rate="0.5882" branch-rate="1" complexity="0">
          <classes>
            <class name="Gauge.actions" filename="reducer-spec-coverage/Gauge.txt" line-rate="0.5556" branch-rate="1" complexity="0">
              <methods>
                <method name="raise" signature="" line-rate="1" branch-rate="1" complexity="0">
                  <lines>
                    <line number="1" hits="2" branch="false"/>
                  </lines>
                </method>
                <method name="lower" signature="" line-rate="0" branch-rate="1" complexity="0">
                  <lines>
                    <line number="2" hits="0" branch="false"/>
                  </lines>
                </method>
                <method name="readTapped" signature="" line-rate="1" branch-rate="1" complexity="0">
                  <lines>
                    <line number="3" hits="1" branch="false"/>
                  </lines>
                </method>
                <method name="readResponse.success" signature="" line-rate="1" branch-rate="1" complexity="0">
                  <lines>
                    <line number="4" hits="1" branch="false"/>
                  </lines>
                </method>
                <method name="readResponse.failure" signature="" line-rate="0" branch-rate="1" complexity="0">
                  <lines>
                    <line number="5" hits="0" branch="false"/>
                  </lines>
                </method>
                <method name="settings.setUnit" signature="" line-rate="1" branch-rate="1" complexity="0">
                  <lines>
                    <line number="6" hits="1" branch="false"/>
                  </lines>
                </method>
                <method name="settings.setStep" signature="" line-rate="1" branch-rate="1" complexity="0">
                  <lines>
                    <line number="7" hits="1" branch="false"/>
                  </lines>
                </method>
                <method name="saveTapped" signature="" line-rate="0" branch-rate="1" complexity="0">
                  <lines>
                    <line number="8" hits="0" branch="false"/>
                  </lines>
                </method>
                <method name="calibrateTapped" signature="" line-rate="0" branch-rate="1" complexity="0">
                  <lines>
                    <line number="9" hits="0" branch="false"/>
                  </lines>
                </method>
              </methods>
              <lines>
                <line number="1" hits="2" branch="false"/>
                <line number="2" hits="0" branch="false"/>
                <line number="3" hits="1" branch="false"/>
                <line number="4" hits="1" branch="false"/>
                <line number="5" hits="0" branch="false"/>
                <line number="6" hits="1" branch="false"/>
                <line number="7" hits="1" branch="false"/>
                <line number="8" hits="0" branch="false"/>
                <line number="9" hits="0" branch="false"/>
              </lines>
            </class>
            <class name="Gauge.fields" filename="reducer-spec-coverage/Gauge.txt" line-rate="0.8000" branch-rate="1" complexity="0">
              <methods>
                <method name="level" signature="" line-rate="1" branch-rate="1" complexity="0">
                  <lines>
                    <line number="10" hits="3" branch="false"/>
                  </lines>
                </method>
                <method name="label" signature="" line-rate="0" branch-rate="1" complexity="0">
                  <lines>
                    <line number="11" hits="0" branch="false"/>
                  </lines>
                </method>
                <method name="settings" signature="" line-rate="1" branch-rate="1" complexity="0">
                  <lines>
                    <line number="12" hits="2" branch="false"/>
                  </lines>
                </method>
                <method name="settings.unit" signature="" line-rate="1" branch-rate="1" complexity="0">
                  <lines>
                    <line number="13" hits="1" branch="false"/>
                  </lines>
                </method>
                <method name="settings.step" signature="" line-rate="1" branch-rate="1" complexity="0">
                  <lines>
                    <line number="14" hits="2" branch="false"/>
                  </lines>
                </method>
              </methods>
              <lines>
                <line number="10" hits="3" branch="false"/>
                <line number="11" hits="0" branch="false"/>
                <line number="12" hits="2" branch="false"/>
                <line number="13" hits="1" branch="false"/>
                <line number="14" hits="2" branch="false"/>
              </lines>
            </class>
            <class name="Gauge.stubs" filename="reducer-spec-coverage/Gauge.txt" line-rate="0.3333" branch-rate="1" complexity="0">
              <methods>
                <method name="gauge.read" signature="" line-rate="1" branch-rate="1" complexity="0">
                  <lines>
                    <line number="15" hits="1" branch="false"/>
                  </lines>
                </method>
                <method name="gauge.save" signature="" line-rate="0" branch-rate="1" complexity="0">
                  <lines>
                    <line number="16" hits="0" branch="false"/>
                  </lines>
                </method>
                <method name="gauge.calibrate" signature="" line-rate="0" branch-rate="1" complexity="0">
                  <lines>
                    <line number="17" hits="0" branch="false"/>
                  </lines>
                </method>
              </methods>
              <lines>
                <line number="15" hits="1" branch="false"/>
                <line number="16" hits="0" branch="false"/>
                <line number="17" hits="0" branch="false"/>
              </lines>
            </class>
          </classes>
        </package>
      </packages>
    </coverage>

    """
}

/// Reads an lcov tracefile strictly: only the records `reducer-spec coverage` writes, every
/// count consistent with its lines, or it throws.
enum LcovReader {
  struct Record {
    var source: String
    var functions: [(line: Int, name: String, hits: Int)] = []
    var lines: [(number: Int, hits: Int)] = []
  }

  struct Problem: Error, CustomStringConvertible {
    var description: String
  }

  static func read(_ text: String) throws -> [Record] {
    guard text.hasSuffix("end_of_record\n") else { throw Problem(description: "the file does not end a record") }
    var records: [Record] = []
    var current: Record?
    var testName: String?
    var counts: [String: Int] = [:]
    func int(_ text: Substring, _ line: String) throws -> Int {
      guard let value = Int(text), value >= 0 else { throw Problem(description: "not a count in `\(line)`") }
      return value
    }
    for line in text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      guard let colon = line.firstIndex(of: ":") ?? (line == "end_of_record" ? line.endIndex : nil) else {
        throw Problem(description: "not a record line: `\(line)`")
      }
      let tag = line[..<colon]
      let value = colon == line.endIndex ? "" : line[line.index(after: colon)...]
      if tag == "TN" {
        guard current == nil, testName == nil else { throw Problem(description: "TN inside a record") }
        testName = String(value)
        continue
      }
      if tag == "SF" {
        guard current == nil, !value.isEmpty else { throw Problem(description: "SF inside a record, or empty") }
        current = Record(source: String(value))
        counts = [:]
        continue
      }
      guard var record = current else { throw Problem(description: "`\(line)` outside a record") }
      let parts = value.split(separator: ",", maxSplits: 1)
      switch tag {
      case "FN":
        guard parts.count == 2, record.lines.isEmpty, !record.functions.contains(where: { $0.name == parts[1] })
        else { throw Problem(description: "bad or repeated FN: `\(line)`") }
        record.functions.append((try int(parts[0], line), String(parts[1]), 0))
      case "FNDA":
        guard parts.count == 2, let index = record.functions.firstIndex(where: { $0.name == parts[1] }) else {
          throw Problem(description: "FNDA of an undeclared function: `\(line)`")
        }
        record.functions[index].hits = try int(parts[0], line)
      case "DA":
        guard parts.count == 2 else { throw Problem(description: "bad DA: `\(line)`") }
        let number = try int(parts[0], line)
        guard number == (record.lines.last?.number ?? 0) + 1 else {
          throw Problem(description: "DA lines out of order: `\(line)`")
        }
        record.lines.append((number, try int(parts[1], line)))
      case "FNF", "FNH", "LF", "LH":
        guard counts[String(tag)] == nil else { throw Problem(description: "repeated \(tag)") }
        counts[String(tag)] = try int(value, line)
      case "end_of_record":
        let expected = [
          "FNF": record.functions.count, "FNH": record.functions.filter { $0.hits > 0 }.count,
          "LF": record.lines.count, "LH": record.lines.filter { $0.hits > 0 }.count,
        ]
        guard counts == expected else {
          throw Problem(description: "the counts of \(record.source) are \(counts), not \(expected)")
        }
        guard record.functions.map(\.line) == record.lines.map(\.number) else {
          throw Problem(description: "\(record.source): a function per line expected")
        }
        records.append(record)
        current = nil
        testName = nil
        continue
      default:
        throw Problem(description: "unknown record line: `\(line)`")
      }
      current = record
    }
    guard current == nil else { throw Problem(description: "a record is not ended") }
    return records
  }
}
