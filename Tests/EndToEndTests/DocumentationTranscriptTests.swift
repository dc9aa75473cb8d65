import Foundation
import Testing

/// Keeps the documentation's terminal sessions true: in `README.md` and every `docs/*.md`,
/// each block after `<!-- transcript … -->` is run as a shell script, its `$ command` lines
/// one after another with their standard output and error, and what they print must be the
/// block, times aside. A failure names the document and the line of its block.
///
/// - `<!-- transcript -->`: `reducer-spec` is the built command, run in a scratch directory
///   that holds a copy of `specs/` and an empty `.build/`.
/// - `<!-- transcript: fixtures DEST=SOURCE … -->`: `reducer-spec` is the tests' executable
///   with its fixture features, and the scratch directory holds only the files named
///   (each `DEST` a copy of the package's `SOURCE`).
/// - `<!-- transcript file: PATH -->`: the block is the file `PATH` that the transcript
///   before it left in its scratch directory.
@Suite struct DocumentationTranscriptTests {
  struct Block {
    /// The document, relative to the package's root (`docs/command-line.md`).
    var document: String
    /// The document's line of the marker.
    var line: Int
    /// What follows `transcript` in the marker.
    var options: String
    var text: String
  }

  struct Transcript: CustomTestStringConvertible, Sendable {
    var document: String
    var line: Int
    var options: [String]
    var text: String
    /// The files it leaves behind that the document shows: path, the document's text, and
    /// the line where the document shows it.
    var files: [(path: String, text: String, line: Int)]

    /// `docs/command-line.md:42`: where the block is.
    var place: String { "\(document):\(line)" }
    var testDescription: String { place }
  }

  /// `README.md` and the Markdown files of `docs/`, in path order.
  static func documents() throws -> [String] {
    let docs = BuiltCommand.packageRoot.appendingPathComponent("docs")
    let pages = try FileManager.default.contentsOfDirectory(atPath: docs.path)
      .filter { $0.hasSuffix(".md") }
      .sorted()
    return ["README.md"] + pages.map { "docs/" + $0 }
  }

  /// Every marked block of every document, in order.
  static func blocks() throws -> [Block] {
    try documents().flatMap { try blocks(in: $0) }
  }

  /// Every marked block of one document, in order.
  static func blocks(in document: String) throws -> [Block] {
    let lines = try String(contentsOf: BuiltCommand.packageRoot.appendingPathComponent(document), encoding: .utf8)
      .split(separator: "\n", omittingEmptySubsequences: false)
    var blocks: [Block] = []
    var index = 0
    while index < lines.count {
      let line = lines[index].trimmingCharacters(in: .whitespaces)
      index += 1
      guard line.hasPrefix("<!-- transcript"), line.hasSuffix("-->") else { continue }
      let options = line.dropFirst("<!-- transcript".count).dropLast("-->".count)
        .trimmingCharacters(in: .whitespaces)
      guard index < lines.count, lines[index].hasPrefix("```") else { continue }
      var body: [Substring] = []
      index += 1
      while index < lines.count, lines[index] != "```" {
        body.append(lines[index])
        index += 1
      }
      blocks.append(
        Block(
          document: document, line: index - body.count - 1, options: options,
          text: body.joined(separator: "\n") + "\n"))
    }
    return blocks
  }

  static let transcripts: [Transcript] = {
    var transcripts: [Transcript] = []
    for block in (try? blocks()) ?? [] {
      if block.options.hasPrefix("file:") {
        // A file belongs to the transcript before it in the same document.
        let path = block.options.dropFirst("file:".count).trimmingCharacters(in: .whitespaces)
        if let last = transcripts.indices.last, transcripts[last].document == block.document {
          transcripts[last].files.append((path, block.text, block.line))
        }
      } else {
        let options = block.options.hasPrefix(":") ? block.options.dropFirst() : block.options[...]
        transcripts.append(
          Transcript(
            document: block.document, line: block.line, options: options.split(separator: " ").map(String.init),
            text: block.text, files: []))
      }
    }
    return transcripts
  }()

  /// `(0.003s)` → `(TIME)`.
  static func timeless(_ text: String) -> String {
    text.replacing(#/\(\d+\.\d+s\)/#, with: "(TIME)")
  }

  /// The shell script that prints each command as `$ command`, then what it prints.
  static func script(_ transcript: String) -> String {
    var script = "status=0\n"
    for line in transcript.split(separator: "\n") where line.hasPrefix("$ ") {
      let command = line.dropFirst(2)
      let quoted = "'" + line.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
      script += "printf '%s\\n' \(quoted)\n(exit $status)\n\(command) 2>&1\nstatus=$?\n"
    }
    return script
  }

  @Test func theDocumentationHasItsTranscripts() throws {
    // A marker without its block, or a file without its transcript, would be skipped.
    let documents = try Self.documents()
    #expect(documents.contains("docs/command-line.md"))
    #expect(documents.contains("docs/authoring.md"))
    let blocks = try Self.blocks()
    #expect(blocks.count >= 7)
    #expect(Self.transcripts.count + Self.transcripts.map(\.files.count).reduce(0, +) == blocks.count)
    for document in documents {
      let text = try String(contentsOf: BuiltCommand.packageRoot.appendingPathComponent(document), encoding: .utf8)
      let markers = text.split(separator: "\n")
        .filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("<!-- transcript") }.count
      #expect(try Self.blocks(in: document).count == markers, "\(document): a transcript marker is not followed by a block")
    }
  }

  @Test(arguments: transcripts) func theTranscriptIsWhatTheCommandsPrint(_ transcript: Transcript) async throws {
    let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("transcript-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: temporary) }
    let bin = temporary.appendingPathComponent("bin")
    let work = temporary.appendingPathComponent("work")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    let root = BuiltCommand.packageRoot

    let executable: String
    if transcript.options.first == "fixtures" {
      executable = "reducer-spec-fixtures"
      for copy in transcript.options.dropFirst() {
        let parts = copy.split(separator: "=", maxSplits: 1).map(String.init)
        try #require(parts.count == 2, "expected DEST=SOURCE, got \(copy)")
        let destination = work.appendingPathComponent(parts[0])
        try FileManager.default.createDirectory(
          at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: root.appendingPathComponent(parts[1]), to: destination)
      }
    } else {
      try #require(transcript.options.isEmpty, "unknown options \(transcript.options)")
      executable = "reducer-spec"
      try FileManager.default.copyItem(at: root.appendingPathComponent("specs"), to: work.appendingPathComponent("specs"))
      try FileManager.default.createDirectory(
        at: work.appendingPathComponent(".build"), withIntermediateDirectories: true)
    }
    try FileManager.default.createSymbolicLink(
      at: bin.appendingPathComponent("reducer-spec"),
      withDestinationURL: BuiltCommand.productsDirectory.appendingPathComponent(executable))

    let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    let run = try await BuiltCommand.run(
      ["-c", Self.script(transcript.text)], environment: ["PATH": path],
      executable: URL(fileURLWithPath: "/bin/sh"), directory: work)
    #expect(
      Self.timeless(run.stdout) == Self.timeless(transcript.text),
      "\(transcript.place): the commands printed\n\(run.stdout)")
    #expect(run.stderr == "", "\(transcript.place): the shell wrote on standard error")

    for file in transcript.files {
      let text = try String(contentsOf: work.appendingPathComponent(file.path), encoding: .utf8)
      #expect(text == file.text, "\(transcript.document):\(file.line): \(file.path) is\n\(text)")
    }
  }
}
