#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation

/// A file written whole or not at all: into a temporary file beside it, renamed over it
/// when complete, so that a reader, or an interrupted run, sees the old file or the new one
/// and never a part. A symbolic link is followed (its target is replaced and the link
/// stays); an existing file keeps its permissions, and a new one gets those the umask
/// gives.
///
/// The reports written piece by piece (the JUnit file, the run record) use it, so a large
/// one is never held in memory whole, and so do the files of the authoring commands
/// (`FileOutput`).
package struct AtomicFile {
  /// Why the file could not be written.
  package struct Failure: Error, CustomStringConvertible {
    /// One sentence, without the path: `cannot replace it: is a directory`.
    package var reason: String
    /// The system's own words for the cause: `Is a directory`.
    package var systemReason: String
    package var description: String { reason }
  }

  /// The file that is replaced (a symbolic link's target).
  package let path: String
  private let temporary: String
  private var descriptor: Int32
  private var buffer: [UInt8] = []

  /// Opens the temporary file beside `path`, making `path`'s directories first when
  /// `makingDirectories`.
  package init(path: String, makingDirectories: Bool = true) throws(Failure) {
    var target = path
    if let resolved = realpath(path, nil) {
      target = String(cString: resolved)
      free(resolved)
    }
    self.path = target
    let directory = (target as NSString).deletingLastPathComponent
    if makingDirectories { try Self.makeDirectories(directory) }
    var existing = stat()
    let keptMode = stat(target, &existing) == 0 ? existing.st_mode & 0o7777 : nil
    let prefix = (directory.isEmpty ? "" : directory + "/") + Self.temporaryPrefix(for: (target as NSString).lastPathComponent)
    var name = ""
    var descriptor: Int32 = -1
    repeat {
      name = prefix + String(UInt32.random(in: .min ... .max), radix: 36)
      // A new file's mode is what the umask makes of 0666; a replaced one's is set below.
      descriptor = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, keptMode == nil ? 0o666 : 0o600)
    } while descriptor < 0 && errno == EEXIST
    guard descriptor >= 0 else {
      throw Self.failure("cannot make a file in \(directory.isEmpty ? "." : directory)")
    }
    if let keptMode, fchmod(descriptor, keptMode) != 0 {
      let failure = Self.failure("cannot keep its permissions")
      close(descriptor)
      unlink(name)
      throw failure
    }
    self.temporary = name
    self.descriptor = descriptor
  }

  package mutating func write(_ text: String) throws(Failure) {
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= 1 << 16 { try flush() }
  }

  package mutating func write(_ bytes: [UInt8]) throws(Failure) {
    try flush()
    try writeAll(bytes)
  }

  /// Renames the whole file over ``path``.
  package mutating func commit() throws(Failure) {
    try flush()
    let closed = close(descriptor)
    descriptor = -1
    guard closed == 0 else {
      let failure = Self.failure("cannot write it")
      unlink(temporary)
      throw failure
    }
    guard rename(temporary, path) == 0 else {
      let failure = Self.failure("cannot replace it")
      unlink(temporary)
      throw failure
    }
  }

  /// Leaves ``path`` as it was (a write that failed already did).
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

  private mutating func writeAll(_ bytes: [UInt8]) throws(Failure) {
    var offset = 0
    while offset < bytes.count {
      let count = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress! + offset, $0.count - offset) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else {
        let failure = Self.failure("cannot write it")
        discard()
        throw failure
      }
      offset += count
    }
  }

  /// The start of the temporary file's name: `.NAME.tmp-PID-`, to which a random suffix of
  /// at most 7 characters is added; for a name too long for that to fit in a file name
  /// (255 bytes), `.reducer-spec.tmp-PID-`.
  static func temporaryPrefix(for name: String) -> String {
    let prefix = ".\(name).tmp-\(getpid())-"
    return prefix.utf8.count + 7 <= 255 ? prefix : ".reducer-spec.tmp-\(getpid())-"
  }

  /// Makes `directory` and its parents.
  private static func makeDirectories(_ directory: String) throws(Failure) {
    guard !directory.isEmpty else { return }
    var status = stat()
    if stat(directory, &status) == 0 {
      guard status.st_mode & S_IFMT == S_IFDIR else {
        throw Failure(reason: "\(directory) is not a directory", systemReason: String(cString: strerror(ENOTDIR)))
      }
      return
    }
    let parent = (directory as NSString).deletingLastPathComponent
    if parent != directory { try makeDirectories(parent) }
    guard mkdir(directory, 0o777) == 0 || errno == EEXIST else {
      throw failure("cannot make the directory \(directory)")
    }
  }

  /// `what`, and the reason `errno` gives.
  private static func failure(_ what: String) -> Failure {
    let system = String(cString: strerror(errno))
    return Failure(reason: "\(what): \(system.lowercased())", systemReason: system)
  }
}

/// write(2), by a name that the methods called `write` do not hide.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}
