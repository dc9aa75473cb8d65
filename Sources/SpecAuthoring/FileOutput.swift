import Foundation
import SpecProcess
import SpecRunner
import SpecYAML

/// Writes the files of the authoring commands (a schema, documentation pages, rewritten
/// specs). Each function returns `nil` when the file was written, or the system's reason
/// when it was not (`No such file or directory`, `Is a directory`), for the command's
/// message.
package enum FileOutput {
  /// Writes `bytes` to `path`, creating the file or truncating it: for outputs that may be
  /// a device or a pipe (`-o /dev/stdout`).
  package static func write(_ bytes: [UInt8], to path: String) -> String? {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else { return reason(errno) }
    defer { close(descriptor) }
    return writeAll(bytes, to: descriptor)
  }

  /// Replaces the file at `path` with `bytes` through a temporary file next to it and a
  /// rename (``AtomicFile``), so that a reader, or an interrupted run, sees the old file or
  /// the new one and never a part. A symbolic link is followed: its target is replaced and
  /// the link stays. An existing file keeps its permissions.
  package static func replace(_ bytes: [UInt8], at path: String) -> String? {
    do {
      var file = try AtomicFile(path: path, makingDirectories: false)
      try file.write(bytes)
      try file.commit()
      return nil
    } catch {
      return error.systemReason
    }
  }

  private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> String? {
    bytes.withUnsafeBytes { SpecProcess.writeAll(descriptor, $0) } ? nil : reason(errno)
  }

  private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}
