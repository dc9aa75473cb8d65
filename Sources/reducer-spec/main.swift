import Foundation
import SpecRunner

// Temporary in-process runner until the command line lands.
@MainActor func runAll() async -> Int32 {
  let engine = SpecEngine(features: exampleFeatures)
  var result = RunResult(suites: [], duration: 0)
  let paths = Array(CommandLine.arguments.dropFirst())
  for file in engine.load(files: paths) {
    var suite = SuiteResult(file: file.file, feature: file.feature, errors: file.errors)
    for scenario in file.scenarios {
      suite.scenarios.append(await engine.run(scenario.id, timeout: .seconds(10)) { _ in })
    }
    result.suites.append(suite)
  }
  let console = ConsoleReporter(color: false)
  for suite in result.suites {
    for error in suite.errors { console.fileFailed(error) }
    for scenario in suite.scenarios { console.scenarioFinished(scenario) }
  }
  try? console.runFinished(result)
  return result.exitStatus
}
exit(await runAll())
