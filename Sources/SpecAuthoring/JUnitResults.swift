import Foundation
import SpecRunner
import SpecYAML

/// The outcomes of a run, read from a JUnit XML file, for `reducer-spec doc --results FILE`.
///
/// Each `testcase` is found by its spec file and its name, as ``JUnitReporter`` writes
/// them: the `file` attribute of the test case (or of its `testsuite`, or the suite's
/// `name`), a path taken from the current directory when relative, and the `name`. A test
/// case with a `failure` failed; with an `error`, it could not finish; with `skipped`, it
/// was skipped; otherwise it passed.
///
/// The XML is read by a small scanner of its own (elements, attributes, entities;
/// comments, CDATA, processing instructions and the DOCTYPE skipped) rather than
/// FoundationXML, which would make every process of the runner, workers included, load
/// libxml2 and the libraries it brings, at the start of every process (Benchmarks/README.md,
/// "What the executable links").
package struct JUnitResults: Sendable {
  package enum Outcome: Sendable, Equatable {
    case passed
    case failed
    /// The scenario did not finish (an `error` element).
    case error
    /// With the reason, when the file gives one.
    case skipped(String?)
  }

  package struct Result: Sendable, Equatable {
    package var outcome: Outcome
    /// The `time` attribute as written (seconds), when there is one.
    package var time: String?
  }

  private struct Key: Hashable {
    package var file: String
    package var name: String
  }

  private var results: [Key: Result] = [:]
  private let currentDirectory: String

  /// The number of test cases read.
  package var count: Int { results.count }

  /// Why a results file cannot be used.
  package struct ReadError: Error, Equatable, CustomStringConvertible {
    package var description: String
  }

  /// Reads the file at `path`.
  package static func read(path: String, currentDirectory: String = FileManager.default.currentDirectoryPath)
    throws(ReadError) -> JUnitResults
  {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw ReadError(description: "cannot read the results file '\(path)': no such file")
    }
    guard !isDirectory.boolValue, let data = FileManager.default.contents(atPath: path) else {
      throw ReadError(
        description: "cannot read the results file '\(path)': "
          + (isDirectory.boolValue ? "it is a directory" : "it cannot be opened"))
    }
    do {
      return try JUnitResults(xml: String(decoding: data, as: UTF8.self), currentDirectory: currentDirectory)
    } catch {
      throw ReadError(description: "'\(path)' is not a JUnit XML file: \(error.description)")
    }
  }

  /// Reads a JUnit document. The errors say what is wrong, without the file's name.
  package init(xml: String, currentDirectory: String) throws(ReadError) {
    self.currentDirectory = currentDirectory
    guard let first = xml.unicodeScalars.first(where: { !" \t\r\n\u{FEFF}".unicodeScalars.contains($0) }) else {
      throw ReadError(description: "it is empty")
    }
    guard first == "<" else { throw ReadError(description: "it is not XML (it does not start with `<`)") }
    var scanner = XMLScanner(Array(xml.utf8))
    var stack: [(name: String, attributes: [String: String])] = []
    var sawRoot = false
    var current: (key: Key, result: Result)?
    while let token = try scanner.next() {
      switch token {
      case .start(let name, let attributes, let isEmpty):
        if !sawRoot {
          sawRoot = true
          guard name == "testsuites" || name == "testsuite" else {
            throw ReadError(description: "its root element is <\(name)>, not <testsuites> or <testsuite>")
          }
        } else if stack.isEmpty {
          throw ReadError(description: "a second root element <\(name)> at line \(scanner.line)")
        }
        switch name {
        case "testcase":
          let suite = stack.last { $0.name == "testsuite" }?.attributes
          let file = attributes["file"] ?? suite?["file"] ?? suite?["name"] ?? ""
          current = (Key(file: normalize(file), name: attributes["name"] ?? ""),
                     Result(outcome: .passed, time: attributes["time"]))
        case "failure" where current != nil:
          if current!.result.outcome == .passed { current!.result.outcome = .failed }
        case "error" where current != nil:
          current!.result.outcome = .error
        case "skipped" where current != nil:
          current!.result.outcome = .skipped(attributes["message"].flatMap { $0.isEmpty ? nil : $0 })
        default:
          break
        }
        if isEmpty {
          if name == "testcase", let done = current {
            results[done.key] = done.result
            current = nil
          }
        } else {
          stack.append((name, attributes))
        }
      case .end(let name):
        guard let open = stack.popLast(), open.name == name else {
          throw ReadError(description: "the end tag </\(name)> at line \(scanner.line) closes no element")
        }
        if name == "testcase", let done = current {
          results[done.key] = done.result
          current = nil
        }
      }
    }
    guard sawRoot else { throw ReadError(description: "it has no root element") }
    guard stack.isEmpty else {
      throw ReadError(description: "it ends before the element <\(stack.last!.name)> is closed")
    }
  }

  /// The outcome of the test case `name` of the spec file `file` (a path as the run names
  /// it), when the file has it.
  package func result(file: String, name: String) -> Result? {
    results[Key(file: normalize(file), name: name)]
  }

  /// An absolute path without `.`, `..` or doubled slashes.
  private func normalize(_ path: String) -> String {
    let absolute = path.hasPrefix("/") ? path : currentDirectory + "/" + path
    var parts: [Substring] = []
    for part in absolute.split(separator: "/") {
      switch part {
      case ".": continue
      case "..": _ = parts.popLast()
      default: parts.append(part)
      }
    }
    return "/" + parts.joined(separator: "/")
  }
}

/// Reads XML into start and end tags: what ``JUnitResults`` needs, and the well-formedness
/// checks that tell an XML file from another one.
private struct XMLScanner {
  package enum Token {
    case start(String, [String: String], isEmpty: Bool)
    case end(String)
  }

  private let bytes: [UInt8]
  private var position = 0
  /// The line of the position, from 1.
  package private(set) var line = 1

  package init(_ bytes: [UInt8]) {
    self.bytes = bytes
    // A byte order mark.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
  }

  private func error(_ message: String) -> JUnitResults.ReadError {
    JUnitResults.ReadError(description: "\(message) at line \(line)")
  }

  package mutating func next() throws(JUnitResults.ReadError) -> Token? {
    while position < bytes.count {
      guard bytes[position] == UInt8(ascii: "<") else {
        advance()
        continue
      }
      if starts(with: "<?") {
        try skip(past: "?>", what: "a processing instruction")
      } else if starts(with: "<!--") {
        try skip(past: "-->", what: "a comment")
      } else if starts(with: "<![CDATA[") {
        try skip(past: "]]>", what: "a CDATA section")
      } else if starts(with: "<!") {
        try skipDeclaration()
      } else if starts(with: "</") {
        position += 2
        let name = try self.name()
        skipSpace()
        try expect(">")
        return .end(name)
      } else {
        position += 1
        let name = try self.name()
        var attributes: [String: String] = [:]
        while true {
          let hadSpace = skipSpace()
          guard position < bytes.count else { throw error("the tag <\(name)> is not closed") }
          if starts(with: "/>") {
            position += 2
            return .start(name, attributes, isEmpty: true)
          }
          if bytes[position] == UInt8(ascii: ">") {
            position += 1
            return .start(name, attributes, isEmpty: false)
          }
          guard hadSpace else { throw error("unexpected text in the tag <\(name)>") }
          let attribute = try self.name()
          skipSpace()
          try expect("=")
          skipSpace()
          guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'")
          else { throw error("the attribute `\(attribute)` of <\(name)> has no quoted value") }
          let quote = bytes[position]
          advance()
          let start = position
          while position < bytes.count, bytes[position] != quote {
            guard bytes[position] != UInt8(ascii: "<") else { throw error("a `<` in an attribute value") }
            advance()
          }
          guard position < bytes.count else { throw error("the attribute `\(attribute)` of <\(name)> is not closed") }
          let raw = String(decoding: bytes[start..<position], as: UTF8.self)
          position += 1
          attributes[attribute] = try decodeEntities(raw)
        }
      }
    }
    return nil
  }

  private mutating func advance() {
    if bytes[position] == UInt8(ascii: "\n") { line += 1 }
    position += 1
  }

  private func starts(with text: String) -> Bool {
    let utf8 = Array(text.utf8)
    return position + utf8.count <= bytes.count && bytes[position..<position + utf8.count].elementsEqual(utf8)
  }

  private mutating func skip(past end: String, what: String) throws(JUnitResults.ReadError) {
    let startLine = line
    while position < bytes.count, !starts(with: end) { advance() }
    guard position < bytes.count else {
      throw JUnitResults.ReadError(description: "\(what) at line \(startLine) is not closed")
    }
    position += end.utf8.count
  }

  /// `<!DOCTYPE …>`, with an internal subset in brackets.
  private mutating func skipDeclaration() throws(JUnitResults.ReadError) {
    let startLine = line
    var depth = 0
    while position < bytes.count {
      let byte = bytes[position]
      advance()
      if byte == UInt8(ascii: "[") { depth += 1 }
      if byte == UInt8(ascii: "]") { depth -= 1 }
      if byte == UInt8(ascii: ">"), depth <= 0 { return }
    }
    throw JUnitResults.ReadError(description: "a declaration at line \(startLine) is not closed")
  }

  @discardableResult
  private mutating func skipSpace() -> Bool {
    let start = position
    while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { advance() }
    return position > start
  }

  private mutating func expect(_ character: Character) throws(JUnitResults.ReadError) {
    guard position < bytes.count, bytes[position] == character.asciiValue! else {
      throw error("expected `\(character)`")
    }
    position += 1
  }

  private mutating func name() throws(JUnitResults.ReadError) -> String {
    let start = position
    while position < bytes.count {
      let byte = bytes[position]
      let isNameByte =
        byte >= 0x80 || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
        || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        || byte == UInt8(ascii: ":")
      guard isNameByte else { break }
      position += 1
    }
    guard position > start else { throw error("expected a name") }
    return String(decoding: bytes[start..<position], as: UTF8.self)
  }

  private func decodeEntities(_ text: String) throws(JUnitResults.ReadError) -> String {
    guard text.contains("&") else { return text }
    var out = ""
    var rest = Substring(text)
    while let amp = rest.firstIndex(of: "&") {
      out += rest[..<amp]
      guard let semicolon = rest[amp...].firstIndex(of: ";") else { throw error("a `&` that starts no entity") }
      let entity = rest[rest.index(after: amp)..<semicolon]
      switch entity {
      case "lt": out += "<"
      case "gt": out += ">"
      case "amp": out += "&"
      case "quot": out += "\""
      case "apos": out += "'"
      default:
        let number: UInt32? =
          entity.hasPrefix("#x") ? UInt32(entity.dropFirst(2), radix: 16)
          : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
        guard let number, let scalar = Unicode.Scalar(number) else { throw error("an unknown entity `&\(entity);`") }
        out.unicodeScalars.append(scalar)
      }
      rest = rest[rest.index(after: semicolon)...]
    }
    return out + rest
  }
}
