import Foundation

// MARK: - Wiring

/// The reporters of a run, from its options. The one place that knows the concrete
/// reporters.
///
/// - Parameters:
///   - standardOutput: Where console and JSON reports write.
///   - isTerminal: Whether standard output is a terminal (for `--color auto`).
///
// wired at merge: the reporters branch brings ConsoleReporter, JUnitReporter, the GitHub
// annotations reporter and JSONLinesReporter. Replace the body with:
//
//   var reporters: [any RunReporter] = []
//   switch settings.format {
//   case .console:
//     let color = ConsoleReporter.shouldUseColor(
//       mode: ColorMode(rawValue: settings.color.rawValue)!, isTerminal: isTerminal, environment: environment)
//     reporters.append(ConsoleReporter(sink: standardOutput, color: color))
//   case .json:
//     reporters.append(JSONLinesReporter(sink: standardOutput))   // its initializer, as it lands
//   }
//   if let path = settings.junitPath { reporters.append(JUnitReporter(path: path)) }
//   if GitHubAnnotationsReporter.isEnabled(flag: settings.githubAnnotations.flag, environment: environment) {
//     reporters.append(GitHubAnnotationsReporter(sink: standardOutput))
//   }
//   return reporters
//
// and delete `PlainConsoleReporter` below. Until then every format prints the plain
// console lines, and `--junit`, `--color` and `--github-annotations` are read and checked
// but change nothing.
@MainActor
func makeReporters(
  _ settings: RunSettings, environment: [String: String], isTerminal: Bool,
  standardOutput: @escaping (String) -> Void
) -> [any RunReporter] {
  [PlainConsoleReporter(sink: standardOutput)]
}

// MARK: - Until the merge

/// A minimal console report, so that the command runs and is tested before the real
/// reporters land: one line per scenario and per file error, the message of each failure,
/// and the summary.
private final class PlainConsoleReporter: RunReporter {
  private let sink: (String) -> Void
  private var planned = 0

  init(sink: @escaping (String) -> Void) { self.sink = sink }

  func runStarted(_ plan: RunPlan) { planned = plan.scenarios.count }

  func fileFailed(_ error: SpecFileError) { sink("error   \(error.description)\n") }

  func scenarioFinished(_ result: ScenarioResult) {
    let label = result.outcome.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
    var text = "\(label)\(result.id.file) › \(result.name) (\(DurationText.seconds(result.duration)))\n"
    for failure in result.failures { text += indent("\(failure.location): \(failure.message)") }
    if let reason = result.skipReason { text += indent(reason) }
    if let message = result.errorMessage { text += indent(message) }
    sink(text)
  }

  func runFinished(_ result: RunResult) throws {
    if result.wasInterrupted {
      sink("Stopped early: \(planned - result.scenarios.count) of \(planned) scenarios did not run.\n")
    }
    sink(result.summaryLine + "\n")
  }

  private func indent(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 + "\n" }.joined()
  }
}
