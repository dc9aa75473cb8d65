// A test-only executable: the reducer-spec command with a FAKE engine, for the end-to-end
// tests of the worker pool (Tests/EndToEndTests). It "loads" the files under
// Tests/Fixtures/pool/, which look like specs:
//
//   feature: Pool
//   scenarios:
//     - name: traps in the second step
//       tags: [crash]
//       steps:
//         - send: first
//         - send: second
//
// and runs each scenario by what its name says, at its last step: `fails` fails there,
// `traps` calls fatalError, `hangs` blocks the main thread forever, `exits` exits with
// status 3, `slow` sleeps 200ms, `writes-stderr` writes a line to standard error,
// `prints` prints a line to standard output, `skip` skips; anything else passes.
// A line `error: MESSAGE` makes the file fail to load at that line; a line
// `trap-while-loading` makes the worker trap as it reads the file, and `hang-while-loading`
// block there forever.
//
// With `POOL_FIXTURE_SCENARIO_MICROSECONDS` set, every scenario takes that long at its last
// step (a worker with work queued, for the command to send it files to read ahead).
//
// With `POOL_FIXTURE_WORKER_START_DELAY` set to a number of seconds (or `forever`), each
// worker writes a line to standard error and sleeps that long before it serves its first
// request: a worker that starts slowly, or never.

import Foundation
import ReducerSpecCLI
import SpecRunner

@MainActor
final class FakeEngine: ScenarioEngine {
  struct Scenario {
    var planned: PlannedScenario
    var steps: [FileLocation]
  }

  private var scenarios: [ScenarioID: Scenario] = [:]

  func load(files: [String]) -> [LoadedFile] {
    files.map(load(file:))
  }

  private func load(file: String) -> LoadedFile {
    if ProcessInfo.processInfo.environment["POOL_FIXTURE_LOG_LOADS"] != nil {
      FileHandle.standardError.write(Data("loading \(file)\n".utf8))
    }
    guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
      return LoadedFile(
        file: file, feature: nil, scenarios: [],
        errors: [SpecFileError(file: file, location: FileLocation(file: file, line: 0, column: 0), message: "cannot read the file")])
    }
    var feature: String?
    var errors: [SpecFileError] = []
    var found: [Scenario] = []
    for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let number = offset + 1
      let indent = line.prefix { $0 == " " }.count
      let content = line.dropFirst(indent)
      if content.hasPrefix("feature: ") {
        feature = String(content.dropFirst("feature: ".count))
      } else if content == "trap-while-loading" {
        FileHandle.standardError.write(Data("about to trap while reading \(file)\n".utf8))
        fatalError("the file traps on purpose")
      } else if content == "hang-while-loading" {
        FileHandle.standardError.write(Data("about to hang while reading \(file)\n".utf8))
        while true { sleep(60) }
      } else if content.hasPrefix("error: ") {
        errors.append(SpecFileError(
          file: file, location: FileLocation(file: file, line: number, column: indent + 1),
          message: String(content.dropFirst("error: ".count)), sourceLine: String(line)))
      } else if content.hasPrefix("- name: ") {
        let id = ScenarioID(file: file, scenario: found.count)
        let planned = PlannedScenario(
          id: id, name: String(content.dropFirst("- name: ".count)),
          location: FileLocation(file: file, line: number, column: indent + 3), tags: [])
        found.append(Scenario(planned: planned, steps: []))
      } else if content.hasPrefix("tags: ["), !found.isEmpty {
        found[found.count - 1].planned.tags = content.dropFirst("tags: [".count).dropLast()
          .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      } else if content.hasPrefix("- "), !found.isEmpty {
        found[found.count - 1].steps.append(FileLocation(file: file, line: number, column: indent + 3))
      }
    }
    for scenario in found { scenarios[scenario.planned.id] = scenario }
    return LoadedFile(file: file, feature: feature, scenarios: errors.isEmpty ? found.map(\.planned) : [], errors: errors)
  }

  func run(_ id: ScenarioID, timeout: Duration, onStep: (FileLocation) -> Void) async -> ScenarioResult {
    let started = ContinuousClock.now
    guard let scenario = scenarios[id] else {
      return ScenarioResult(
        id: id, name: "?", location: FileLocation(file: id.file, line: 0, column: 0), tags: [], outcome: .error,
        duration: 0, errorMessage: "not loaded")
    }
    let words = Set(scenario.planned.name.split(separator: " ").map(String.init))
    var outcome = ScenarioResult.Outcome.passed
    var failures: [StepFailure] = []
    var skipReason: String?
    for (index, step) in scenario.steps.enumerated() {
      onStep(step)
      guard index == scenario.steps.count - 1 else { continue }
      if words.contains("slow") { usleep(200_000) }
      if let delay = ProcessInfo.processInfo.environment["POOL_FIXTURE_SCENARIO_MICROSECONDS"].flatMap(UInt32.init) {
        usleep(delay)
      }
      if words.contains("writes-stderr") {
        FileHandle.standardError.write(Data("a line on standard error from '\(scenario.planned.name)'\n".utf8))
      }
      if words.contains("prints") { print("a line printed to standard output by '\(scenario.planned.name)'") }
      if words.contains("traps") {
        FileHandle.standardError.write(Data("about to trap\n".utf8))
        fatalError("the scenario traps on purpose")
      }
      if words.contains("hangs") {
        while true { sleep(1) }
      }
      if words.contains("exits") { exit(3) }
      if words.contains("fails") {
        outcome = .failed
        failures.append(StepFailure(location: step, message: "the step fails on purpose"))
      }
      if words.contains("skip") {
        outcome = .skipped
        skipReason = "skipped on purpose"
      }
    }
    return ScenarioResult(
      id: id, name: scenario.planned.name, location: scenario.planned.location, tags: scenario.planned.tags,
      outcome: outcome, duration: (ContinuousClock.now - started) / .seconds(1), failures: failures,
      skipReason: skipReason)
  }
}

if CommandLine.arguments.dropFirst().first == "__worker",
  let delay = ProcessInfo.processInfo.environment["POOL_FIXTURE_WORKER_START_DELAY"]
{
  FileHandle.standardError.write(Data("a worker starting slowly\n".utf8))
  if let seconds = Double(delay) {
    usleep(UInt32(seconds * 1_000_000))
  } else {
    while true { sleep(60) }
  }
}

await ReducerSpecCommand.main(features: [], scenarioEngine: { FakeEngine() })
