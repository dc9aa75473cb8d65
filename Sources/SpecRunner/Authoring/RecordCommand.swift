import ArgumentParser

/// `reducer-spec record`: not built yet.
struct RecordCommand: AuthoringCommand {
  static let configuration = CommandConfiguration(
    commandName: "reducer-spec record",
    abstract: "Runs scenarios and rewrites their expectations from what really happened.")

  func run(in context: AuthoringContext) throws -> Int32 {
    context.errorOutput("Error: `reducer-spec record` is not built yet\n")
    return 64
  }
}
