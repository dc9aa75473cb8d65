import ArgumentParser

/// `reducer-spec doc`: not built yet.
struct DocCommand: AuthoringCommand {
  static let configuration = CommandConfiguration(
    commandName: "reducer-spec doc",
    abstract: "Writes Markdown documentation of spec files.")

  func run(in context: AuthoringContext) throws -> Int32 {
    context.errorOutput("Error: `reducer-spec doc` is not built yet\n")
    return 64
  }
}
