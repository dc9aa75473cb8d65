import ArgumentParser

/// `reducer-spec features`: not built yet.
struct FeaturesCommand: AuthoringCommand {
  static let configuration = CommandConfiguration(
    commandName: "reducer-spec features",
    abstract: "Lists the registered features, or describes one: its default state, its actions and its stubs.")

  func run(in context: AuthoringContext) throws -> Int32 {
    context.errorOutput("Error: `reducer-spec features` is not built yet\n")
    return 64
  }
}
