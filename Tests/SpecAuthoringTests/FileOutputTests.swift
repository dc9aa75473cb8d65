import Foundation
import TestSupport
import Testing
@testable import SpecAuthoring
@testable import SpecRunner

/// How `schema -o`, `doc` and `record` write their files, and the reasons they give when
/// they cannot.
@Suite struct FileOutputTests {
  let directory: String

  init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("file-output-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  }

  func mode(_ path: String) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
  }

  func entries() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
  }

  @Test func aReplacedFileKeepsItsModeAndLeavesNoTemporaryFile() throws {
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/spec.yaml"
    try Data("old\n".utf8).write(to: URL(fileURLWithPath: path))
    chmod(path, 0o640)
    #expect(FileOutput.replace(Array("new\n".utf8), at: path) == nil)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
    #expect(try mode(path) == 0o640)
    #expect(try entries() == ["spec.yaml"])
  }

  @Test func aLinkStaysALinkAndItsTargetIsReplaced() throws {
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let target = directory + "/target.yaml"
    let link = directory + "/link.yaml"
    try Data("old\n".utf8).write(to: URL(fileURLWithPath: target))
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.yaml")
    #expect(FileOutput.replace(Array("new\n".utf8), at: link) == nil)
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "target.yaml")
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "new\n")
    #expect(try entries() == ["link.yaml", "target.yaml"])
  }

  @Test func aNewFileIsCreated() throws {
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(FileOutput.replace(Array("page\n".utf8), at: directory + "/README.md") == nil)
    #expect(FileOutput.write(Array("{}\n".utf8), to: directory + "/schema.json") == nil)
    #expect(try String(contentsOfFile: directory + "/README.md", encoding: .utf8) == "page\n")
    #expect(try String(contentsOfFile: directory + "/schema.json", encoding: .utf8) == "{}\n")
    #expect(try entries() == ["README.md", "schema.json"])
  }

  /// The temporary file beside a file whose name is as long as a name can be (255 bytes)
  /// takes a short name of its own: `.NAME.tmp-…` would be too long to make.
  @Test func aFileWithTheLongestNameIsReplaced() throws {
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let name = String(repeating: "n", count: 250) + ".yaml"
    let path = directory + "/" + name
    try Data("old\n".utf8).write(to: URL(fileURLWithPath: path))
    #expect(FileOutput.replace(Array("new\n".utf8), at: path) == nil)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
    #expect(try entries() == [name])
    #expect(AtomicFile.temporaryPrefix(for: name) == ".reducer-spec.tmp-\(getpid())-")
    #expect(AtomicFile.temporaryPrefix(for: "spec.yaml") == ".spec.yaml.tmp-\(getpid())-")
  }

  @Test func theReasonIsTheSystems() throws {
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try FileManager.default.createDirectory(atPath: directory + "/page.md", withIntermediateDirectories: false)
    #expect(FileOutput.replace(Array("x".utf8), at: directory + "/page.md") == "Is a directory")
    #expect(FileOutput.write(Array("x".utf8), to: directory + "/page.md") == "Is a directory")
    #expect(FileOutput.replace(Array("x".utf8), at: directory + "/none/page.md") == "No such file or directory")
    #expect(FileOutput.write(Array("x".utf8), to: directory + "/none/page.md") == "No such file or directory")
    // Nothing is left behind by a replacement that failed.
    #expect(try entries() == ["page.md"])
  }
}
