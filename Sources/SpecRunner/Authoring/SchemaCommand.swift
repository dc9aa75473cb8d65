import ArgumentParser

/// `reducer-spec schema`: not built yet.
struct SchemaCommand: AuthoringCommand {
  static let configuration = CommandConfiguration(
    commandName: "reducer-spec schema",
    abstract: "Writes a JSON Schema of spec files for editors (yaml-language-server).")

  func run(in context: AuthoringContext) throws -> Int32 {
    context.errorOutput("Error: `reducer-spec schema` is not built yet\n")
    return 64
  }
}
