#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// One run of a command, measured from outside: `runner-benchmark` and `soak-benchmark`.
public struct CommandRun {
  public var seconds: Double
  /// User and system time of the process and every process it waited for (its workers).
  public var cpuSeconds: Double
  /// The largest resident set of the process or any process it waited for, in bytes
  /// (`wait4`'s `ru_maxrss`: the kernel's high-water mark, exact, but one figure for the
  /// command and its workers together).
  public var peakBytes: Int
  public var lastLine: String
  public var status: Int32
  /// With `sampling`: the command's own peak, in bytes: `peakBytes` when that is above every
  /// worker's (a worker's last reading misses at most what it grew in its last interval, when
  /// it is idle or finishing a scenario), else the command's `VmHWM` as last read while it ran.
  /// (A command grows as it ends, writing its reports: a reading would miss that.)
  public var commandPeakBytes: Int?
  /// Whether `commandPeakBytes` is the command's last `VmHWM` reading, not `peakBytes`.
  public var commandPeakIsSampled = false
  /// With `sampling`: the largest high-water mark of any of its children (the workers), as
  /// last read while each ran, in bytes.
  public var workerPeakBytes: Int?
  /// With `sampling`: how many children (workers) were seen.
  public var workersSeen = 0

  /// Runs `arguments` (the executable first) in `directory` (or here), its standard output
  /// to the file `output` and its standard error to /dev/null, with `NO_COLOR=1`, and waits
  /// for it.
  ///
  /// - Parameter sampling: Read the command's and its children's `VmHWM` every this many
  ///   milliseconds while it runs (Linux). `VmHWM` is the counter that becomes `ru_maxrss`,
  ///   so the last reading of a process misses only what it grew in its last interval.
  public static func measure(
    _ arguments: [String], output: String, directory: String? = nil, sampling milliseconds: Int? = nil
  ) -> CommandRun? {
    guard let (pid, start) = spawn(arguments, output: output, directory: directory) else { return nil }
    return finish(pid, startedAt: start, output: output, sampling: milliseconds)
  }

  /// Runs several commands at once, each as ``measure(_:output:directory:sampling:)`` runs
  /// one, with its own output file and working directory (`nil`: here), and waits for all of
  /// them. Each run's `seconds` counts from just before the first was started until it ended:
  /// the longest is the wall time of the lot.
  public static func measureTogether(_ commands: [(arguments: [String], output: String, directory: String?)])
    -> [CommandRun]?
  {
    var start: UInt64?
    var pids: [pid_t] = []
    for command in commands {
      guard let (pid, started) = spawn(command.arguments, output: command.output, directory: command.directory) else {
        for pid in pids {
          kill(pid, SIGKILL)
          var status: Int32 = 0
          _ = waitpid(pid, &status, 0)
        }
        return nil
      }
      start = start ?? started
      pids.append(pid)
    }
    return zip(pids, commands).map { finish($0, startedAt: start!, output: $1.output, sampling: nil) }
  }

  /// Starts `arguments` in `directory` (or here), its standard output to the file `output`,
  /// its standard error to /dev/null, with `NO_COLOR=1`; returns its process id and the
  /// uptime, in nanoseconds, just before it was started.
  private static func spawn(_ arguments: [String], output: String, directory: String?) -> (pid_t, UInt64)? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var argv = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var envp = commandEnvironment()
    defer { for pointer in envp { free(pointer) } }
    var pid: pid_t = 0
    // posix_spawn has no working directory before glibc 2.29's addchdir_np: change ours.
    let here = FileManager.default.currentDirectoryPath
    if let directory { _ = FileManager.default.changeCurrentDirectoryPath(directory) }
    let start = DispatchTime.now().uptimeNanoseconds
    let spawned = posix_spawn(&pid, arguments[0], &actions, nil, &argv, &envp)
    if directory != nil { _ = FileManager.default.changeCurrentDirectoryPath(here) }
    return spawned == 0 ? (pid, start) : nil
  }

  /// Waits for `pid` (sampling its memory as ``measure(_:output:directory:sampling:)`` says)
  /// and measures it from `start` (an uptime in nanoseconds).
  private static func finish(_ pid: pid_t, startedAt start: UInt64, output: String, sampling milliseconds: Int?)
    -> CommandRun
  {
    var status: Int32 = 0
    var usage = rusage()
    var commandPeak: Int?
    var workerPeaks: [Int32: Int] = [:]
    if let milliseconds {
      commandPeak = 0
      while true {
        let reaped = wait4(pid, &status, WNOHANG, &usage)
        if reaped == pid || (reaped < 0 && errno != EINTR) { break }
        if let peak = highWaterMark(of: pid) { commandPeak = max(commandPeak!, peak) }
        let commandLine = Self.arguments(of: pid)
        for child in children(of: pid) {
          // Until it calls exec, a child made by posix_spawn (vfork) shares the command's
          // memory, and its status shows the command's: its command line tells.
          guard let childLine = Self.arguments(of: child), childLine != commandLine else { continue }
          if let peak = highWaterMark(of: child) { workerPeaks[child] = max(workerPeaks[child] ?? 0, peak) }
        }
        usleep(useconds_t(milliseconds * 1000))
      }
    } else {
      _ = wait4(pid, &status, 0, &usage)
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    let lastLine = text.split(separator: "\n").last.map(String.init) ?? ""
    let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    // Linux reports ru_maxrss in kilobytes.
    func inSeconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    var run = CommandRun(
      seconds: seconds, cpuSeconds: inSeconds(usage.ru_utime) + inSeconds(usage.ru_stime),
      peakBytes: Int(usage.ru_maxrss) * 1024, lastLine: lastLine, status: exitStatus)
    if let commandPeak {
      let workerPeak = workerPeaks.values.max() ?? 0
      run.workerPeakBytes = workerPeak
      run.workersSeen = workerPeaks.count
      run.commandPeakIsSampled = run.peakBytes <= workerPeak
      run.commandPeakBytes = run.commandPeakIsSampled ? commandPeak : run.peakBytes
    }
    return run
  }

  /// `VmHWM` of /proc/PID/status in bytes; `nil` once the process has gone (or has no
  /// memory left: a zombie).
  static func highWaterMark(of pid: pid_t) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    else { return nil }
    let kilobytes = line.dropFirst("VmHWM:".count).split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) }
    return kilobytes.map { $0 * 1024 }
  }

  /// The command line of `pid`, from /proc/PID/cmdline.
  static func arguments(of pid: pid_t) -> [UInt8]? {
    FileManager.default.contents(atPath: "/proc/\(pid)/cmdline").map { [UInt8]($0) }
  }

  /// The children of every thread of `pid`.
  static func children(of pid: pid_t) -> [pid_t] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return tasks.flatMap { task -> [pid_t] in
      let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
      return text.split(separator: " ").compactMap { pid_t($0) }
    }
  }

  /// The environment a measured command runs in, for `posix_spawn`: ours, with `NO_COLOR=1`
  /// and without `GITHUB_ACTIONS`. The caller frees the strings.
  static func commandEnvironment() -> [UnsafeMutablePointer<CChar>?] {
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    environment.removeValue(forKey: "GITHUB_ACTIONS")
    return environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
  }
}
