import ArgumentParser
import Foundation
import SpecAuthoring
import SpecProcess
import SpecRunner
import SpecWorkers

/// `reducer-spec coverage [PATH…]`: runs the selected specs as a run does (in workers), then
/// reports what they cover of their features' behaviour (``BehaviourCoverage``): the action
/// cases that steps send or receive, the state fields that `state:` and `assert:` steps
/// check, the stubs that specs stub and the run called.
struct CoverageCommand: Subcommand {
  static var configuration: CommandConfiguration {
    let name = ProgramName.current
    return CommandConfiguration(
      commandName: "coverage",
      abstract: "Runs specs and reports which actions, state fields and stubs of each feature they cover.",
      usage: "\(name) coverage [<options>] [<path> ...]",
      discussion: """
        Runs the specs as `\(name) run` does (failures are reported on standard error), \
        then reports for each feature that the specs name: its action cases (nested ones too) \
        that no step sends or receives, its state fields that no `state:` or `assert:` step \
        checks, and its stubs that no spec stubs or that the run never called. Exit status: 0, \
        or 1 when a scenario fails, a file has errors or a kind of a feature is below \
        --minimum, 64 for a usage error, 130 when interrupted.
        """)
  }

  @Argument(help: ArgumentHelp(
    "Spec files, and directories to search recursively for *.yaml and *.yml files. (default: specs)",
    valueName: "path"))
  var paths: [String] = []

  @Option(help: ArgumentHelp("The report on standard output.", valueName: "format"))
  var format: OutputFormat = .console

  @Option(help: ArgumentHelp("Write an lcov tracefile to this file.", valueName: "file"))
  var lcov: String?

  @Option(help: ArgumentHelp("Write a Cobertura XML report to this file.", valueName: "file"))
  var cobertura: String?

  @Option(help: ArgumentHelp(
    "Write each feature's pseudo source (line N: its Nth action, field or stub) into this directory.",
    valueName: "directory"))
  var listing: String?

  @Option(help: ArgumentHelp(
    "Fail (exit 1) when the actions, fields or stubs of a feature are covered below this percentage.",
    valueName: "percent"))
  var minimum: Double?

  @OptionGroup var scope: RunScopeOptions

  @OptionGroup var timeoutOption: TimeoutOption

  @Option(help: ArgumentHelp("Write a JUnit XML report of the run to this file.", valueName: "file"))
  var junit: String?

  @Flag(help: ArgumentHelp(
    "Also report code coverage of the feature sources, read from the profiles that an executable built with `swift build --enable-code-coverage` writes."))
  var code = false

  @Option(name: .customLong("code-source"), help: ArgumentHelp(
    "With --code: report only these source files or directories (repeatable). (default: every source but dependencies' and reducer-spec's own)",
    valueName: "path"))
  var codeSources: [String] = []

  @Option(name: .customLong("code-profiles"), help: ArgumentHelp(
    "With --code: keep the workers' profiles and merged.profdata in this directory.", valueName: "directory"))
  var codeProfiles: String?

  @OptionGroup var colorOption: ColorOption

  func validate() throws {
    if !code, !codeSources.isEmpty { throw ValidationError("--code-source needs --code") }
    if !code, codeProfiles != nil { throw ValidationError("--code-profiles needs --code") }
    if let minimum, !(0...100).contains(minimum) {
      throw ValidationError("--minimum takes a percentage from 0 to 100, not \(Self.number(minimum))")
    }
  }

  @MainActor
  func run(in context: CommandContext) throws -> Int32 {
    let settings = RunSettings(
      files: try SpecPaths.expand(paths), jobs: try scope.jobs(processorCount: ProcessInfo.processInfo.activeProcessorCount),
      timeout: try RunSettings.timeout(timeoutOption.timeout), selection: try scope.selection(), failFast: scope.failFast,
      junitPath: junit, color: colorOption.color)
    let style = TerminalStyle(enabled: colorOption.isOn(in: context))

    // The run: what fails is on standard error, as a run writes it (passes left out).
    let output = OutputBuffer(write: context.errorOutput)
    let color = ConsoleReporter.shouldUseColor(
      mode: settings.color, isTerminal: context.isTerminal, environment: context.environment)
    let results = RunResultKeeper()
    var reporters: [any RunReporter] = [
      ConsoleReporter(color: color, isCheck: false, showsPasses: false, sink: output.appendLine), results,
    ]
    if let junit {
      reporters.append(JUnitReporter(path: junit, relativeTo: FileManager.default.currentDirectoryPath))
    }
    var workerEnvironment = WorkerPool.Configuration.workerEnvironment(context.environment)
    let executable = WorkerProcess.currentExecutable()

    // --code: told before anything runs whether it can be measured.
    var measuring: (tools: CodeCoverage.Tools, profiles: CodeCoverage.ProfileDirectory)?
    if code {
      do {
        if ProfileRuntime.isInstrumented(executable: executable) == false {
          throw CodeCoverageError.notInstrumented(executable: executable)
        }
        let tools = try CodeCoverage.locateTools(environment: context.environment)
        let profiles = try CodeCoverage.ProfileDirectory(keeping: codeProfiles)
        // Each worker writes its own profile there, whatever LLVM_PROFILE_FILE the user set.
        workerEnvironment.merge(profiles.environment) { $1 }
        measuring = (tools, profiles)
      } catch {
        context.errorOutput("Error: \(error)\n")
        return 1
      }
    }
    defer { measuring?.profiles.remove() }

    let run = SpecRun(
      settings: settings, engine: context.makeScenarioEngine(), reporters: reporters,
      worker: WorkerPool.Configuration(
        executable: executable, environment: workerEnvironment, jobs: settings.jobs,
        timeout: settings.timeout, stopAfterFailure: settings.failFast),
      output: output.append, errorOutput: output.append, flushOutput: output.flush)
    let runStatus = run.run()
    output.flush()
    guard let result = results.result, !result.wasInterrupted else { return runStatus }

    let coverage = BehaviourCoverage(files: settings.files, engine: context.engine, result: result)
    // The workers have ended (and written their profiles): the toolchain measures.
    var codeReport: CodeCoverage.Report?
    if let measuring {
      do {
        codeReport = try CodeCoverage.measure(
          binary: executable, profiles: measuring.profiles.profiles, tools: measuring.tools,
          mergedProfile: measuring.profiles.mergedProfile, sources: codeSources)
      } catch {
        context.errorOutput("Error: \(error)\n")
        return 1
      }
    }
    switch format {
    case .console:
      var text = CoverageReports.console(coverage, headings: style.headings)
      if let codeReport { text += "\n" + CodeCoverage.console(codeReport, headings: style.headings) }
      context.output(text)
    case .json:
      var json = CoverageReports.json(coverage)
      if let codeReport, case .object(var entries) = json {
        entries.append(("code", CodeCoverage.json(codeReport)))
        json = .object(entries)
      }
      context.output(json.text() + "\n")
    }
    var written: [(path: String, text: String)] = []
    if let lcov { written.append((lcov, CoverageReports.lcov(coverage) + (codeReport?.lcov ?? ""))) }
    if let cobertura {
      let timestamp =
        context.environment["SOURCE_DATE_EPOCH"].flatMap(Int.init).map { $0 * 1000 }
        ?? Int(Date().timeIntervalSince1970 * 1000)
      written.append(
        (cobertura, CoverageReports.cobertura(coverage, timestamp: timestamp, code: codeReport.map(CodeCoverage.coberturaPackage))))
    }
    if let listing {
      do {
        try FileManager.default.createDirectory(atPath: listing, withIntermediateDirectories: true)
      } catch {
        context.errorOutput("Error: cannot create the directory '\(listing)': \(error.localizedDescription)\n")
        return 1
      }
      let prefix = listing.hasSuffix("/") ? listing : listing + "/"
      for feature in coverage.features {
        written.append((prefix + "\(feature.name).txt", CoverageReports.listing(of: feature)))
      }
    }
    for (path, text) in written {
      if let reason = FileOutput.write(Array(text.utf8), to: path) {
        context.errorOutput("Error: cannot write '\(path)': \(reason)\n")
        return 1
      }
    }
    var status: Int32 = coverage.failedFiles.isEmpty ? runStatus : 1
    if let minimum {
      for feature in coverage.features {
        for kind in BehaviourCoverage.Kind.allCases {
          guard let percent = feature.percent(kind), percent < minimum else { continue }
          let items = feature.items(kind)
          context.errorOutput(
            "Error: \(feature.name)'s \(kind.rawValue) are \(String(format: "%.1f", percent))% covered"
              + " (\(items.filter(\.isCovered).count) of \(items.count)), below the minimum of"
              + " \(Self.number(minimum))%\n")
          status = 1
        }
      }
      if let lines = codeReport?.totals.lines, let percent = lines.percent, percent < minimum {
        context.errorOutput(
          "Error: the code's lines are \(String(format: "%.1f", percent))% covered (\(lines.covered) of \(lines.total)),"
            + " below the minimum of \(Self.number(minimum))%\n")
        status = 1
      }
    }
    return status
  }

  /// `80`, or `80.5`.
  static func number(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
  }
}

/// Keeps the results of a run, for a command that reports on them afterwards.
final class RunResultKeeper: RunReporter {
  private var suites: [SuiteResult] = []
  private(set) var result: RunResult?

  func suiteFinished(_ suite: SuiteResult) { suites.append(suite) }

  func runFinished(_ summary: RunSummary) throws {
    result = RunResult(suites: suites, duration: summary.duration, wasInterrupted: summary.wasInterrupted)
  }
}
