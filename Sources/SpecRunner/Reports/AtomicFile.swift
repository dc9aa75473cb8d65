#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation

/// A file written whole or not at all: into a temporary file beside it, renamed over it
/// when complete, so a reader never sees half of it. Its directories are made as needed.
///
/// Reports written piece by piece (the JUnit file, the run record) use it, so a large one
/// is never held in memory as one string.
package struct AtomicFile {
  /// Why the file could not be written: one sentence, without the path.
  package struct Failure: Error, CustomStringConvertible {
    package var reason: String
    package var description: String { reason }
  }

  package let path: String
  private let temporary: String
  private var descriptor: Int32
  private var buffer: [UInt8] = []

  /// Opens the temporary file beside `path`, making `path`'s directories first.
  package init(path: String) throws(Failure) {
    self.path = path
    let directory = (path as NSString).deletingLastPathComponent
    if let reason = Self.makeDirectories(directory) { throw Failure(reason: reason) }
    let name = (path as NSString).lastPathComponent
    var template = Array(((directory.isEmpty ? "" : directory + "/") + "." + name + ".XXXXXX").utf8CString)
    descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else {
      throw Failure(reason: "cannot make a file in \(directory.isEmpty ? "." : directory): \(Self.systemError())")
    }
    temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    // As a file made with open(2) would be, not mkstemp's 0600.
    let mask = umask(0)
    umask(mask)
    fchmod(descriptor, 0o666 & ~mask)
  }

  package mutating func write(_ text: String) throws(Failure) {
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= 1 << 16 { try flush() }
  }

  package mutating func write(_ bytes: [UInt8]) throws(Failure) {
    try flush()
    try writeAll(bytes)
  }

  /// Renames the whole file over `path`.
  package mutating func commit() throws(Failure) {
    do {
      try flush()
    } catch {
      discard()
      throw error
    }
    let closed = close(descriptor)
    descriptor = -1
    guard closed == 0 else {
      let reason = "cannot write it: \(Self.systemError())"
      unlink(temporary)
      throw Failure(reason: reason)
    }
    guard rename(temporary, path) == 0 else {
      let reason = "cannot replace it: \(Self.systemError())"
      unlink(temporary)
      throw Failure(reason: reason)
    }
  }

  /// Leaves `path` as it was.
  package mutating func discard() {
    guard descriptor >= 0 else { return }
    close(descriptor)
    descriptor = -1
    unlink(temporary)
  }

  private mutating func flush() throws(Failure) {
    guard !buffer.isEmpty else { return }
    let bytes = buffer
    buffer.removeAll(keepingCapacity: true)
    try writeAll(bytes)
  }

  private func writeAll(_ bytes: [UInt8]) throws(Failure) {
    var offset = 0
    while offset < bytes.count {
      let count = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress! + offset, $0.count - offset) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { throw Failure(reason: "cannot write it: \(Self.systemError())") }
      offset += count
    }
  }

  /// Makes `directory` and its parents; the reason when one cannot be made.
  private static func makeDirectories(_ directory: String) -> String? {
    guard !directory.isEmpty else { return nil }
    var status = stat()
    if stat(directory, &status) == 0 {
      return status.st_mode & S_IFMT == S_IFDIR ? nil : "\(directory) is not a directory"
    }
    let parent = (directory as NSString).deletingLastPathComponent
    if parent != directory, let reason = makeDirectories(parent) { return reason }
    guard mkdir(directory, 0o777) == 0 || errno == EEXIST else {
      return "cannot make the directory \(directory): \(systemError())"
    }
    return nil
  }

  private static func systemError() -> String {
    String(cString: strerror(errno)).lowercased()
  }
}

/// write(2), by a name that the methods called `write` do not hide.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}
