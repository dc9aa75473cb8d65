import Foundation
import TestSupport
import SpecRunner

/// Spec files as the JSON that yaml-language-server checks against a schema: YAML read with
/// the repository's parser (anchors, aliases and merge keys resolved), each plain scalar
/// typed as YAML 1.2's core schema types it (yaml-language-server's default), and validated
/// with Python's `jsonschema` (Debian's python3-jsonschema, which `.ci/run` installs).
enum SchemaValidation {
  /// The JSON text of a YAML file.
  static func json(ofYAMLFile path: String) throws -> String {
    json(try YAMLParser.parse(contentsOf: path))
  }

  static func json(ofYAML text: String) throws -> String {
    json(try YAMLParser.parse(text))
  }

  static func json(_ node: YAMLNode) -> String {
    switch node.content {
    case .mapping(let mapping):
      return "{" + mapping.entries.map { quoted($0.name) + ": " + json($0.value) }.joined(separator: ", ") + "}"
    case .sequence(let elements):
      return "[" + elements.map(json).joined(separator: ", ") + "]"
    case .scalar(let scalar):
      guard scalar.style == .plain, node.tag != .string else { return quoted(scalar.value) }
      return coreScalar(scalar.value) ?? quoted(scalar.value)
    }
  }

  /// YAML 1.2 core schema: null, booleans, integers (decimal, `0o`, `0x`) and floats.
  private static func coreScalar(_ text: String) -> String? {
    switch text {
    case "", "~", "null", "Null", "NULL": return "null"
    case "true", "True", "TRUE": return "true"
    case "false", "False", "FALSE": return "false"
    default: break
    }
    if text.wholeMatch(of: /[-+]?[0-9]+/) != nil, let value = Int(text.hasPrefix("+") ? String(text.dropFirst()) : text) {
      return String(value)
    }
    if text.wholeMatch(of: /0o[0-7]+/) != nil, let value = Int(text.dropFirst(2), radix: 8) { return String(value) }
    if text.wholeMatch(of: /0x[0-9a-fA-F]+/) != nil, let value = Int(text.dropFirst(2), radix: 16) { return String(value) }
    if text.wholeMatch(of: /[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?/) != nil, let value = Double(text) {
      return "\(value)"
    }
    return nil
  }

  private static func quoted(_ text: String) -> String {
    let data = try! JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])
    return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
  }

  /// `python3` on the PATH, when it can `import jsonschema`.
  static let python: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    guard
      let python = path.split(separator: ":").map({ "\($0)/python3" })
        .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
    else { return nil }
    let check = try? run(python, ["-c", "import jsonschema"], input: nil)
    return check?.status == 0 ? python : nil
  }()

  /// Validates each JSON instance (by name) against the schema with `jsonschema`'s draft-07
  /// validator; returns, by name, the first error's message, or "valid".
  /// On a thread of its own: waiting for `python3` must not hold a thread that tasks need.
  static func validate(schema: String, instances: [(name: String, json: String)]) async throws -> [String: String] {
    try await BuiltCommand.onThread { try validateWaiting(schema: schema, instances: instances) }
  }

  private static func validateWaiting(schema: String, instances: [(name: String, json: String)]) throws
    -> [String: String]
  {
    let script = #"""
      import json, sys
      import jsonschema
      data = json.load(sys.stdin)
      schema = data["schema"]
      jsonschema.Draft7Validator.check_schema(schema)
      validator = jsonschema.Draft7Validator(schema)
      result = {}
      for name, instance in data["instances"].items():
          errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.absolute_path))
          result[name] = "valid" if not errors else "/".join(str(p) for p in errors[0].absolute_path) + ": " + errors[0].message
      print(json.dumps(result))
      """#
    let input =
      "{\"schema\": " + schema + ", \"instances\": {"
      + instances.map { quoted($0.name) + ": " + $0.json }.joined(separator: ", ") + "}}"
    guard let python else { throw MissingTool("python3 with jsonschema", debianPackage: "python3-jsonschema") }
    let result = try run(python, ["-c", script], input: input)
    guard result.status == 0 else { throw Failure(description: result.output) }
    let decoded = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: String]
    return decoded ?? [:]
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  private static func run(_ executable: String, _ arguments: [String], input: String?) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    let inputPipe = Pipe()
    process.standardOutput = output
    process.standardError = output
    process.standardInput = inputPipe
    try process.run()
    let writer = Thread {
      if let input { inputPipe.fileHandleForWriting.write(Data(input.utf8)) }
      try? inputPipe.fileHandleForWriting.close()
    }
    writer.start()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }
}
