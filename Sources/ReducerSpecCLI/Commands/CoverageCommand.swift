import ArgumentParser
import Foundation
import SpecRunner

/// `reducer-spec coverage [PATH…]`: what the selected specs cover of their features'
/// behaviour (``BehaviourCoverage``): the action cases that steps send or receive, the state
/// fields that `state:` and `assert:` steps check, the stubs that specs stub. Read from the
/// specs in this process, as `check` reads them; nothing runs.
struct CoverageCommand: Subcommand {
  static let configuration = CommandConfiguration(
    commandName: "coverage",
    abstract: "Reports which actions, state fields and stubs of each feature the specs cover.",
    usage: "reducer-spec coverage [<options>] [<path> ...]",
    discussion: """
      For each feature that the specs name: its action cases (nested ones too) that no step \
      sends or receives, its state fields that no `state:` or `assert:` step checks, and its \
      stubs that no spec stubs. The specs are read, not run. Exit status: 0, or 1 when a file \
      has errors or a kind of a feature is below --minimum, 64 for a usage error.
      """)

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

  @OptionGroup var colorOption: ColorOption

  func validate() throws {
    if let minimum, !(0...100).contains(minimum) {
      throw ValidationError("--minimum takes a percentage from 0 to 100, not \(Self.number(minimum))")
    }
  }

  @MainActor
  func run(in context: CommandContext) throws -> Int32 {
    let files = try SpecPaths.expand(paths)
    let coverage = BehaviourCoverage(files: files, engine: context.engine)
    switch format {
    case .console:
      let style = TerminalStyle(enabled: colorOption.isOn(in: context))
      context.output(CoverageReports.console(coverage, headings: style.headings))
    case .json:
      context.output(CoverageReports.json(coverage).text() + "\n")
    }
    var written: [(path: String, text: String)] = []
    if let lcov { written.append((lcov, CoverageReports.lcov(coverage))) }
    if let cobertura {
      let timestamp =
        context.environment["SOURCE_DATE_EPOCH"].flatMap(Int.init).map { $0 * 1000 }
        ?? Int(Date().timeIntervalSince1970 * 1000)
      written.append((cobertura, CoverageReports.cobertura(coverage, timestamp: timestamp)))
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
    var status: Int32 = coverage.failedFiles.isEmpty ? 0 : 1
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
    }
    return status
  }

  /// `80`, or `80.5`.
  static func number(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
  }
}
