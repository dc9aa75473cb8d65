import ArgumentParser
import Foundation
import SpecAuthoring
import SpecRunner
import SpecYAML

/// `reducer-spec schema [NAME] [-o FILE]`: writes a JSON Schema (draft-07) of spec files for
/// the registered features (or one of them), for editors that check and complete YAML with
/// yaml-language-server.
struct SchemaCommand: Subcommand {
  static let configuration = CommandConfiguration(
    commandName: "schema",
    abstract: "Writes a JSON Schema of spec files for editors (yaml-language-server).")

  @Argument(help: "A feature: the schema then accepts only its spec files. Without it, every registered feature's.")
  var name: String?

  @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Writes the schema to FILE instead of standard output.", valueName: "FILE"))
  var output: String?

  func run(in context: CommandContext) throws -> Int32 {
    let features = context.engine.features
    var chosen = Array(features.values)
    if let name {
      guard let feature = features[name] else {
        context.errorOutput(FeatureCatalog.unknownFeature(name, in: features) + "\n")
        return 64
      }
      chosen = [feature]
    }
    let text = SpecSchema.document(for: chosen).text() + "\n"
    guard let output else {
      context.output(text)
      return 0
    }
    if let reason = FileOutput.write(Array(text.utf8), to: output) {
      context.errorOutput("Error: cannot write the schema to \(output): \(reason)\n")
      return 1
    }
    return 0
  }
}
