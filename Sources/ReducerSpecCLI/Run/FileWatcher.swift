#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The platform's file events for the directories of the watched paths: a descriptor that
/// `poll` reports readable when something in them changed, and ``readEvents()``, which
/// says what. It never polls the file system on a timer.
///
/// - Linux: inotify, a watch on every directory under the watched paths (recursively,
///   leaving out hidden ones, as ``SpecPaths`` does), and on the directory of each watched
///   file; a directory created later is watched as it appears. Events name their files.
/// - macOS: kqueue, a vnode filter on every directory and every spec file; after each
///   event every watch is set again (files come and go). Events name no file: the caller
///   compares the files' stamps (``WatchState``), which it does on Linux too.
/// - Elsewhere: no events (`descriptor` is -1); only the keys rerun.
final class FileWatcher {
  /// For `poll`; -1 when the platform gives no events.
  private(set) var descriptor: Int32 = -1
  private let roots: [String]

  #if os(Linux)
    /// Each watch's directory, by watch descriptor.
    private var directories: [Int32: String] = [:]
    private var buffer = [UInt8](repeating: 0, count: 65536)
  #elseif os(macOS)
    /// The descriptors opened for the vnode filters.
    private var watched: [Int32] = []
  #endif

  /// Watches the directories of `roots` (the paths given to `--watch`, or `specs`).
  init(roots: [String]) {
    self.roots = roots
    #if os(Linux)
      descriptor = inotify_init1(Int32(O_NONBLOCK | O_CLOEXEC))
      guard descriptor >= 0 else { return }
      for root in roots {
        if isDirectory(root) {
          watchTree(root)
        } else {
          // A file: its directory (an editor saves by renaming a copy onto it).
          let slash = root.lastIndex(of: "/")
          watch(slash.map { String(root[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? ".")
        }
      }
    #elseif os(macOS)
      descriptor = kqueue()
      guard descriptor >= 0 else { return }
      _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
      rewatch()
    #endif
  }

  deinit {
    #if os(macOS)
      for fd in watched { close(fd) }
    #endif
    if descriptor >= 0 { close(descriptor) }
  }

  /// Reads the events that are waiting (without blocking) and returns the paths they name
  /// (on macOS none: see the type's documentation).
  func readEvents() -> Set<String> {
    var touched: Set<String> = []
    #if os(Linux)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { break }
        buffer.withUnsafeBytes { bytes in
          var offset = 0
          while offset + 16 <= count {
            let wd = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
            let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
            let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            let name = String(decoding: bytes[(offset + 16)..<(offset + 16 + length)].prefix { $0 != 0 }, as: UTF8.self)
            offset += 16 + length
            if mask & UInt32(IN_IGNORED) != 0 {
              directories[wd] = nil
              continue
            }
            guard let directory = directories[wd], !name.isEmpty else { continue }
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            touched.insert(path)
            // A new directory (made, or moved in) under a watched tree is watched too.
            if mask & UInt32(IN_ISDIR) != 0, mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0, !name.hasPrefix("."),
              isUnderATree(directory)
            {
              watchTree(path)
            }
          }
        }
      }
    #elseif os(macOS)
      var events = [kevent](repeating: kevent(), count: 64)
      var zero = timespec(tv_sec: 0, tv_nsec: 0)
      while Darwin.kevent(descriptor, nil, 0, &events, Int32(events.count), &zero) > 0 {}
      rewatch()
    #endif
    return touched
  }

  private func isDirectory(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
  }

  #if os(Linux)
    private func watch(_ directory: String) {
      let mask =
        IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF
        | IN_MOVE_SELF
      let wd = inotify_add_watch(descriptor, directory, UInt32(mask))
      if wd >= 0 { directories[wd] = directory }
    }

    /// Whether `directory` is in a tree that a root directory names (not only a file's
    /// directory).
    private func isUnderATree(_ directory: String) -> Bool {
      roots.contains { root in
        isDirectory(root) && (directory == root || directory.hasPrefix(root.hasSuffix("/") ? root : root + "/"))
      }
    }

    /// Watches `directory` and every directory under it (not hidden ones; links to
    /// directories are not followed, as ``SpecPaths`` does not).
    private func watchTree(_ directory: String) {
      watch(directory)
      for name in subdirectories(of: directory) {
        watchTree(directory.hasSuffix("/") ? directory + name : directory + "/" + name)
      }
    }
  #endif

  #if os(macOS)
    /// Closes every vnode watch and sets them again on the directories and spec files that
    /// exist now.
    private func rewatch() {
      for fd in watched { close(fd) }
      watched = []
      var paths: [String] = []
      for root in roots {
        if isDirectory(root) {
          collectTree(root, into: &paths)
        } else {
          let slash = root.lastIndex(of: "/")
          paths.append(slash.map { String(root[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? ".")
        }
      }
      paths += SpecPaths.snapshot(roots).keys
      var changes: [kevent] = []
      for path in paths {
        let fd = open(path, O_EVTONLY | O_CLOEXEC)
        guard fd >= 0 else { continue }
        watched.append(fd)
        changes.append(
          kevent(
            ident: UInt(fd), filter: Int16(EVFILT_VNODE), flags: UInt16(EV_ADD | EV_CLEAR),
            fflags: UInt32(NOTE_WRITE | NOTE_EXTEND | NOTE_ATTRIB | NOTE_DELETE | NOTE_RENAME), data: 0, udata: nil))
      }
      _ = Darwin.kevent(descriptor, changes, Int32(changes.count), nil, 0, nil)
    }

    private func collectTree(_ directory: String, into paths: inout [String]) {
      paths.append(directory)
      for name in subdirectories(of: directory) {
        collectTree(directory.hasSuffix("/") ? directory + name : directory + "/" + name, into: &paths)
      }
    }
  #endif

  /// The names of the directories in `directory`, leaving out hidden ones and links.
  private func subdirectories(of directory: String) -> [String] {
    guard let stream = opendir(directory) else { return [] }
    defer { closedir(stream) }
    var names: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name.hasPrefix(".") { continue }
      let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
      var status = stat()
      if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { names.append(name) }
    }
    return names
  }
}
