import Foundation
import Testing

/// What the compiler tells a team that registers a feature whose types specs cannot read:
/// registrations type-checked against the modules built for these tests.
@Suite struct FeatureRegistrationDiagnosticsTests {
  /// A registration of a reducer whose `State` and `Action` have the conformances given.
  static func registration(state: String, action: String) -> String {
    """
    import ReducerCore
    import ReducerCoreSpecs

    struct Note: Reducer {
      struct State\(state) { var text = "" }
      enum Action\(action) { case textChanged(String) }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .textChanged(let text):
          state.text = text
          return .none
        }
      }
    }

    let features = [Feature("Note", initialState: Note.State()) { Note() }]

    """
  }

  @Test func aRegistrationOfCodableEquatableTypesCompiles() async throws {
    let errors = try await SwiftTypeCheck.errors(in: Self.registration(state: ": Codable, Equatable", action: ": Codable, Equatable"))
    #expect(errors == [])
  }

  @Test func aStateThatIsNotCodableIsNamedWithWhatToAdd() async throws {
    let errors = try await SwiftTypeCheck.errors(in: Self.registration(state: ": Equatable", action: ": Codable, Equatable"))
    #expect(errors == [
      """
      registration.swift:16:17: error: 'init(_:initialState:stubs:reducer:)' is unavailable: specs read and compare \
      a feature's State: declare it Codable and Equatable ('struct State: Codable, Equatable'; an enum state likewise)
      """
    ])
  }

  @Test func anActionThatIsNotEquatableIsNamedWithWhatToAdd() async throws {
    let errors = try await SwiftTypeCheck.errors(in: Self.registration(state: ": Codable, Equatable", action: ": Codable"))
    #expect(errors == [
      """
      registration.swift:16:17: error: 'init(_:initialState:stubs:reducer:)' is unavailable: specs read and compare \
      a feature's Action: declare it Codable and Equatable ('enum Action: Codable, Equatable'), with every payload \
      type Codable and Equatable
      """
    ])
  }

  @Test func bothTypesAreNamedWhenNeitherConforms() async throws {
    let errors = try await SwiftTypeCheck.errors(in: Self.registration(state: "", action: ""))
    #expect(errors == [
      """
      registration.swift:16:17: error: 'init(_:initialState:stubs:reducer:)' is unavailable: specs read and compare \
      a feature's State and Action: declare both Codable and Equatable ('struct State: Codable, Equatable', \
      'enum Action: Codable, Equatable')
      """
    ])
  }
}

/// Type-checks a Swift file against the modules of the products directory, as a team's own
/// executable would import them.
enum SwiftTypeCheck {
  struct Failed: Error, CustomStringConvertible {
    var description: String
  }

  /// The compiler's `error:` lines for `source`, written as `registration.swift`, each with
  /// its `file:line:column` relative to the file's directory.
  static func errors(in source: String) async throws -> [String] {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("typecheck-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try source.write(to: directory.appendingPathComponent("registration.swift"), atomically: true, encoding: .utf8)

    let products = BuiltCommand.productsDirectory
    let sources = BuiltCommand.packageRoot.appendingPathComponent("Sources")
    let arguments = [
      "swiftc", "-typecheck", "registration.swift",
      "-I", products.appendingPathComponent("Modules").path,
      // The C modules that ReducerCore and SpecYAML import.
      "-Xcc", "-fmodule-map-file=" + products.appendingPathComponent("CSwiftTaskHook.build/module.modulemap").path,
      "-Xcc", "-I" + sources.appendingPathComponent("CSwiftTaskHook/include").path,
      "-Xcc", "-fmodule-map-file=" + sources.appendingPathComponent("CYAML/module.modulemap").path,
    ]
    let run = try await BuiltCommand.run(
      arguments, executable: URL(fileURLWithPath: "/usr/bin/env"), directory: directory)
    let lines = (run.stdout + run.stderr).split(separator: "\n").map(String.init)
    let errors = lines.filter { $0.hasPrefix("registration.swift:") && $0.contains(": error: ") }
    if run.status != 0 && errors.isEmpty {
      throw Failed(description: "swiftc exited \(run.status) without an error of registration.swift:\n\(run.stderr)")
    }
    return errors
  }
}
