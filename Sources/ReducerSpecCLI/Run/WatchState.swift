#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import SpecRunner
import SpecYAML

/// What `--watch` knows between runs, with no terminal and no file events: the spec files
/// as they were last seen, which scenarios and files failed, what a change or a key press
/// reruns, and the status line. ``WatchSession`` feeds it.
struct WatchState {
  /// The spec files under the watched paths, with their stamps when last looked at.
  private(set) var files: [String: FileStamp]
  /// The scenarios that failed (or ended in an error) when they last ran.
  private(set) var failedScenarios: Set<ScenarioID> = []
  /// The files that had an error (could not be read or bound) when they last ran.
  private(set) var brokenFiles: Set<String> = []

  init(files: [String: FileStamp]) {
    self.files = files
  }

  /// What changed between two looks at the spec files.
  struct Changes: Equatable {
    var changed: [String] = []
    var added: [String] = []
    var removed: [String] = []

    var isEmpty: Bool { changed.isEmpty && added.isEmpty && removed.isEmpty }
    /// The files whose scenarios run again: the changed and the added ones, in path order.
    var toRun: [String] { SpecPaths.sorted(changed + added) }

    /// `Changed: a.yaml · Added: b.yaml · Removed: c.yaml`, leaving out what is empty.
    var summary: String {
      [("Changed", changed), ("Added", added), ("Removed", removed)]
        .filter { !$0.1.isEmpty }
        .map { "\($0.0): \($0.1.joined(separator: ", "))" }
        .joined(separator: " · ")
    }
  }

  /// Takes in a new look at the spec files: a file is changed when its stamp differs or
  /// when a file event named it (`touched`: an editor can write a file twice within the
  /// clock's resolution). What was removed no longer counts as failed.
  mutating func update(to snapshot: [String: FileStamp], touched: Set<String> = []) -> Changes {
    var changes = Changes()
    for (file, stamp) in snapshot {
      guard let old = files[file] else {
        changes.added.append(file)
        continue
      }
      if old != stamp || touched.contains(file) { changes.changed.append(file) }
    }
    changes.removed = files.keys.filter { snapshot[$0] == nil }
    changes.changed = SpecPaths.sorted(changes.changed)
    changes.added = SpecPaths.sorted(changes.added)
    changes.removed = SpecPaths.sorted(changes.removed)
    files = snapshot
    let removed = Set(changes.removed)
    failedScenarios = failedScenarios.filter { !removed.contains($0.file) }
    brokenFiles.subtract(removed)
    return changes
  }

  /// What `f` reruns: the files with a failed scenario or an error, and in them, the failed
  /// scenarios (all the scenarios of a file that had an error). `nil` when nothing failed.
  var failedRun: (files: [String], scenarios: Set<ScenarioID>, wholeFiles: Set<String>)? {
    let files = Set(failedScenarios.map(\.file)).union(brokenFiles)
    guard !files.isEmpty else { return nil }
    return (SpecPaths.sorted(Array(files)), failedScenarios, brokenFiles)
  }

  /// Takes in what failed in a run of `files` (the scenarios that failed or could not
  /// finish, and the files with errors); `scenarios`, when given, are the only scenarios
  /// that ran again (`f`), else every scenario of those files did.
  mutating func record(
    failed: Set<ScenarioID>, broken: Set<String>, files ran: [String], scenarios: Set<ScenarioID>? = nil
  ) {
    let ranFiles = Set(ran)
    if let scenarios {
      failedScenarios.subtract(scenarios)
    } else {
      failedScenarios = failedScenarios.filter { !ranFiles.contains($0.file) }
    }
    brokenFiles.subtract(ranFiles)
    brokenFiles.formUnion(broken)
    failedScenarios.formUnion(failed)
  }

  /// How many scenarios and files failed.
  var failedCount: Int { failedScenarios.count + brokenFiles.count }

  /// `Watching 8 files · 2 failed · press a (all), f (failed), q (quit)`.
  var statusLine: String {
    let count = files.count == 1 ? "1 file" : "\(files.count) files"
    let failed = failedCount == 0 ? "all passed" : "\(failedCount) failed"
    return "Watching \(count) · \(failed) · press a (all), f (failed), q (quit)"
  }
}

/// What identifies a version of a file without reading it: its modification time, size
/// and inode (an editor that saves by renaming gives a new inode).
struct FileStamp: Hashable, Sendable {
  var seconds: Int
  var nanoseconds: Int
  var size: Int64
  var inode: UInt64

  /// The file's stamp, or `nil` when it cannot be looked at (it was just removed).
  static func of(_ path: String) -> FileStamp? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    #if os(macOS)
      let time = status.st_mtimespec
    #else
      let time = status.st_mtim
    #endif
    return FileStamp(
      seconds: Int(time.tv_sec), nanoseconds: Int(time.tv_nsec), size: Int64(status.st_size),
      inode: UInt64(status.st_ino))
  }
}

/// Gathers bursts of file events into one rerun: an editor saves a file in several steps
/// (write a copy, rename it, change its attributes), and a checkout changes many files.
/// The rerun starts once no event came for `quiet`, or `longest` after the first event of
/// the burst, whichever comes first.
struct Debouncer {
  var quiet: Duration
  var longest: Duration
  private var first: ContinuousClock.Instant?
  private var last: ContinuousClock.Instant?
  /// The paths that the events of the burst named.
  private(set) var touched: Set<String> = []

  init(quiet: Duration = .milliseconds(100), longest: Duration = .seconds(1)) {
    self.quiet = quiet
    self.longest = longest
  }

  /// An event came at `now`, naming `paths` (maybe none).
  mutating func note(_ paths: Set<String>, at now: ContinuousClock.Instant) {
    if first == nil { first = now }
    last = now
    touched.formUnion(paths)
  }

  /// When the burst is due, or `nil` when there is none.
  var deadline: ContinuousClock.Instant? {
    guard let first, let last else { return nil }
    return min(last + quiet, first + longest)
  }

  /// Milliseconds until the burst is due, for `poll` (rounded up, at least 0), or -1 when
  /// there is no burst (wait for ever).
  func pollTimeout(at now: ContinuousClock.Instant) -> Int32 {
    guard let deadline else { return -1 }
    let milliseconds = ((deadline - now).inSeconds * 1000).rounded(.up)
    return Int32(min(max(milliseconds, 0), 60_000))
  }

  /// Forgets the burst (a run of every file makes it moot).
  mutating func reset() {
    first = nil
    last = nil
    touched = []
  }

  /// The paths of the burst once it is due (and forgets it), else `nil`.
  mutating func take(at now: ContinuousClock.Instant) -> Set<String>? {
    guard let deadline, now >= deadline else { return nil }
    defer {
      first = nil
      last = nil
      touched = []
    }
    return touched
  }
}
