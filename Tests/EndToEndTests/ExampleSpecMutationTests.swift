import Foundation
import Testing

/// The example specs can fail: one expectation broken in each file is caught, with a message
/// at the line and column of its step, and every other scenario of the file still passes.
@Suite(.serialized) struct ExampleSpecMutationTests {
  /// A file of `specs/`, the line of a `state:` to break, and what to write there instead.
  static let mutations: [(file: String, line: Int, from: String, to: String)] = [
    ("archive.yaml", 52, "isLoading: true", "isLoading: false"),
    ("contacts.yaml", 50, "contact.name: Blob", "contact.name: Bob"),
    ("counter.yaml", 27, "count: 1", "count: 5"),
    ("repository-search.yaml", 35, "isLoading: true", "isLoading: false"),
    ("tic-tac-toe.yaml", 36, "login.email: blob@example.com", "login.email: bob@example.com"),
    ("weather-search.yaml", 45, "searchQuery: L", "searchQuery: Lo"),
  ]

  @Test(arguments: 0..<mutations.count)
  func aBrokenExpectationIsCaughtAtItsStep(_ index: Int) async throws {
    let mutation = Self.mutations[index]
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("mutated-\(UUID().uuidString)")
    let specs = root.appendingPathComponent("specs")
    try FileManager.default.createDirectory(at: specs, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    let original = try String(
      contentsOf: BuiltCommand.packageRoot.appendingPathComponent("specs/\(mutation.file)"), encoding: .utf8)
    var lines = original.components(separatedBy: "\n")
    #expect(lines[mutation.line - 1].contains(mutation.from), "the spec changed: update the mutation")
    lines[mutation.line - 1] = lines[mutation.line - 1].replacingOccurrences(of: mutation.from, with: mutation.to)
    try lines.joined(separator: "\n").write(to: specs.appendingPathComponent(mutation.file), atomically: true, encoding: .utf8)

    let run = try await BuiltCommand.run(
      ["specs/\(mutation.file)"], executable: BuiltCommand.productsDirectory.appendingPathComponent("reducer-spec"),
      directory: root)
    #expect(run.status == 1)
    // The step is the `send:` on the line before its `state:`, at column 9.
    #expect(
      run.stdout.contains(
        "specs/\(mutation.file):\(mutation.line - 1):9: error: A state change does not match expectation."),
      "\(run.stdout)")
    #expect(run.stdout.hasSuffix(", 1 failed, 0 skipped\n"), "\(run.stdout)")
  }
}
