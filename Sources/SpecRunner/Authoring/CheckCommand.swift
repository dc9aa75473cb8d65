import ArgumentParser

/// `reducer-spec check`: not built yet.
struct CheckCommand: AuthoringCommand {
  static let configuration = CommandConfiguration(
    commandName: "reducer-spec check",
    abstract: "Checks spec files without running them.")

  func run(in context: AuthoringContext) throws -> Int32 {
    context.errorOutput("Error: `reducer-spec check` is not built yet\n")
    return 64
  }
}
