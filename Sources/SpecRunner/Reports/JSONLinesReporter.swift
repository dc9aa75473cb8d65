import Foundation
import SpecYAML

/// The run as JSON Lines (`--format json`): one JSON object per line per event, keys
/// sorted, each with an `"event"` naming it, for tools that follow a run as it goes.
///
/// ```
/// {"event":"runStarted","files":1,"jobs":2,"scenarios":2}
/// {"column":5,"event":"scenarioStarted","file":"specs/counter.yaml","id":"specs/counter.yaml#0","line":5,"name":"Incrementing counts up","tags":["smoke"]}
/// {"duration":0.012,"event":"scenarioFinished","failures":0,"file":"specs/counter.yaml","id":"specs/counter.yaml#0","name":"Incrementing counts up","outcome":"passed"}
/// {"duration":0.5,"event":"summary","exitStatus":0,"failed":0,"fileErrors":0,"interrupted":false,"passed":1,"skipped":0}
/// ```
///
/// | event | when | fields besides `event` |
/// | --- | --- | --- |
/// | `runStarted` | before anything runs | `scenarios`, `files`, `jobs` (counts) |
/// | `fileFailed` | a file could not run | `file`, `line`, `column`, `message`, `sourceLine`? |
/// | `scenarioStarted` | a scenario's result is about to be reported | `id`, `file`, `name`, `line`, `column`, `tags` |
/// | `stepFailed` | once per failure, before `scenarioFinished` | `id`, `scenario` (its name), `file`, `line`, `column`, `summary`, `message`, `sourceLine`? |
/// | `scenarioFinished` | a scenario ended | `id`, `file`, `name`, `outcome`, `duration`, `failures` (count), `skipReason`?, `errorMessage`? |
/// | `summary` | the run ended | `passed`, `failed`, `skipped`, `fileErrors`, `interrupted`, `duration`, `exitStatus` |
///
/// Fields marked `?` are left out when there is nothing to say. Durations are seconds,
/// rounded to the millisecond. `id` is the scenario's ``ScenarioID`` description,
/// `specs/counter.yaml#2` (or `#2.1` for an example row).
public final class JSONLinesReporter: RunReporter {
  private let sink: (String) -> Void
  private let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }()

  /// - Parameter sink: Receives each line, without its line break; standard output by default.
  public init(sink: @escaping (String) -> Void = StandardOutput.writeLine) {
    self.sink = sink
  }

  // MARK: - Events

  public func runStarted(_ plan: RunPlan) {
    emit(RunStarted(files: plan.files.count, jobs: plan.jobs))
  }

  public func fileFailed(_ error: SpecFileError) {
    emit(
      FileFailed(
        file: error.file, line: error.location.line, column: error.location.column, message: error.message,
        sourceLine: error.sourceLine))
  }

  public func scenarioStarted(_ scenario: PlannedScenario) {
    emit(
      ScenarioStarted(
        id: scenario.id.description, file: scenario.id.file, name: scenario.name,
        line: scenario.location.line, column: scenario.location.column, tags: scenario.tags))
  }

  public func scenarioFinished(_ result: ScenarioResult) {
    for failure in result.failures {
      emit(
        StepFailed(
          id: result.id.description, scenario: result.name, file: failure.location.file,
          line: failure.location.line, column: failure.location.column, summary: failure.summary,
          message: failure.message, sourceLine: failure.sourceLine))
    }
    emit(
      ScenarioFinished(
        id: result.id.description, file: result.id.file, name: result.name, outcome: result.outcome.rawValue,
        duration: roundedSeconds(result.duration), failures: result.failures.count,
        skipReason: result.skipReason, errorMessage: result.errorMessage))
  }

  public func runFinished(_ summary: RunSummary) throws {
    emit(
      Summary(
        passed: summary.passed, failed: summary.failed, skipped: summary.skipped,
        fileErrors: summary.fileErrors, interrupted: summary.wasInterrupted,
        duration: roundedSeconds(summary.duration), exitStatus: summary.exitStatus))
  }

  private func emit<Event: Encodable>(_ event: Event) {
    // Encoding these plain structs cannot fail: no floats that are not finite, no
    // non-string keys.
    guard let data = try? encoder.encode(event) else { return }
    sink(String(decoding: data, as: UTF8.self))
  }
}

// MARK: - The events

extension JSONLinesReporter {
  private struct RunStarted: Encodable {
    var event = "runStarted"
    var files: Int
    var jobs: Int
  }

  private struct FileFailed: Encodable {
    var event = "fileFailed"
    var file: String
    var line: Int
    var column: Int
    var message: String
    var sourceLine: String?
  }

  private struct ScenarioStarted: Encodable {
    var event = "scenarioStarted"
    var id: String
    var file: String
    var name: String
    var line: Int
    var column: Int
    var tags: [String]
  }

  private struct StepFailed: Encodable {
    var event = "stepFailed"
    var id: String
    var scenario: String
    var file: String
    var line: Int
    var column: Int
    var summary: String
    var message: String
    var sourceLine: String?
  }

  private struct ScenarioFinished: Encodable {
    var event = "scenarioFinished"
    var id: String
    var file: String
    var name: String
    var outcome: String
    var duration: Double
    var failures: Int
    var skipReason: String?
    var errorMessage: String?
  }

  private struct Summary: Encodable {
    var event = "summary"
    var passed: Int
    var failed: Int
    var skipped: Int
    var fileErrors: Int
    var interrupted: Bool
    var duration: Double
    var exitStatus: Int32
  }
}
