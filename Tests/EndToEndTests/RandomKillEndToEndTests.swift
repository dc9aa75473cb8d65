import Foundation
import Testing
import TestSupport

#if os(Linux)
  /// Workers killed at random (SIGKILL, as the OOM killer or `kill -9` would) while a suite
  /// runs: every scenario is still reported exactly once, the killed ones as errors that
  /// name the signal and the step, the JUnit file is complete and valid, and the run exits 1.
  ///
  /// It runs the pool fixture (the real command, pool, protocol, step board and reports,
  /// with a fake engine) on generated files whose scenarios are mostly `slow`: their last
  /// step sleeps 200 ms on the worker's main thread. A worker is killed only in such a
  /// sleep, and only one that began after the test's previous look at that worker (a few
  /// milliseconds before), so that the kill always lands in a known step of a running
  /// scenario, never between scenarios or in the reading of a file, and the run is still
  /// going. Everything random is drawn from one seed, printed with any failure; set
  /// `RANDOM_KILL_SEED` to replay one.
  @Suite struct RandomKillEndToEndTests {
    /// How many workers each run kills.
    static let kills = 4

    struct Generated {
      /// `file › name` of every scenario, in run order.
      var scenarios: [String] = []
      /// `file:line:column` of the last step of each slow scenario, by `file › name`.
      var lastSteps: [String: String] = [:]
    }

    /// Writes 10 files of 8 scenarios each, one of them fast in each file and the others
    /// slow, of 1 to 4 steps. (With 5 files, CI's ThreadSanitizer run on a slow VM once
    /// ended before the test had found its fourth worker to kill.)
    static func generate(in directory: URL, random: inout SplitMix64) throws -> Generated {
      var generated = Generated()
      let specs = directory.appendingPathComponent("specs")
      try FileManager.default.createDirectory(at: specs, withIntermediateDirectories: true)
      for file in 1...10 {
        let path = "specs/kill-\(file < 10 ? "0" : "")\(file).yaml"
        var lines = ["feature: Soak", "scenarios:"]
        let fast = Int(random.next() % 8)
        for scenario in 0..<8 {
          let name = scenario == fast ? "passes \(scenario + 1) of file \(file)" : "slow \(scenario + 1) of file \(file)"
          lines.append("  - name: \(name)")
          lines.append("    steps:")
          for step in 0...Int(random.next() % 4) { lines.append("      - send: step\(step + 1)") }
          generated.scenarios.append("\(path) › \(name)")
          if scenario != fast { generated.lastSteps["\(path) › \(name)"] = "\(path):\(lines.count):9" }
        }
        try (lines.joined(separator: "\n") + "\n").write(
          to: directory.appendingPathComponent(path), atomically: true, encoding: .utf8)
      }
      return generated
    }

    @Test func workersKilledAtRandomFailOnlyTheirScenarios() async throws {
      let seed = ProcessInfo.processInfo.environment["RANDOM_KILL_SEED"].flatMap { UInt64($0) }
        ?? UInt64.random(in: 0...UInt64.max)
      let context = Comment(rawValue: "seed \(seed) (replay with RANDOM_KILL_SEED=\(seed))")
      var random = SplitMix64(seed: seed)
      let directory = FileManager.default.temporaryDirectory.appendingPathComponent("random-kill-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: directory) }
      let generated = try Self.generate(in: directory, random: &random)
      let junit = directory.appendingPathComponent("report.xml").path

      let (run, killed) = try await BuiltCommand.onThread { [random] in
        var random = random
        let process = BuiltCommand.process(
          ["--jobs", "2", "--timeout", "60s", "--junit", junit, "specs"],
          environment: Self.noSleepAtExit, directory: directory)
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        let output = Collected()
        let errors = Collected()
        let readers = [
          Thread { output.append(stdout.fileHandleForReading.readDataToEndOfFile()) },
          Thread { errors.append(stderr.fileHandleForReading.readDataToEndOfFile()) },
        ]
        try process.run()
        for reader in readers { reader.start() }
        let killed = Self.killWorkers(of: process, count: Self.kills, random: &random)
        process.waitUntilExit()
        while !output.isDone || !errors.isDone { usleep(1000) }
        return (BuiltCommand.Run(status: process.terminationStatus, stdout: output.text, stderr: errors.text, duration: 0), killed)
      }

      // Every kill landed while the run was going, in a slow scenario's sleep.
      #expect(killed == Self.kills, "killed \(killed) workers of \(Self.kills) before the run ended; \(context)")
      #expect(run.status == 1, "\(context)\n\(run.stdout)\n\(run.stderr)")

      // The JUnit file is complete, valid, and has every scenario exactly once.
      do { try await JUnitSchema.validate(junit) } catch { Issue.record("\(error); \(context)") }
      let xml = try String(contentsOfFile: junit, encoding: .utf8)
      let testcases = Self.testcases(in: xml)
      let names = testcases.map { "\($0.file) › \($0.name)" }
      #expect(names.count == generated.scenarios.count, "\(context)")
      #expect(Set(names).count == names.count, "a scenario reported twice; \(context)")
      #expect(names.sorted() == generated.scenarios.sorted(), "\(context)")
      #expect(
        xml.contains(#"<testsuites name="reducer-spec" tests="\#(generated.scenarios.count)" failures="0" errors="\#(Self.kills)" skipped="0""#),
        "\(context)\n\(xml)")

      // Each killed scenario is an error that names the signal and the step it was in: the
      // last step of a slow one, where it sleeps.
      let errorCases = testcases.filter { $0.error != nil }
      #expect(errorCases.count == Self.kills, "\(context)\n\(xml)")
      for testcase in errorCases {
        let key = "\(testcase.file) › \(testcase.name)"
        let step = try #require(generated.lastSteps[key], "a fast scenario was killed: \(key); \(context)")
        #expect(
          testcase.error == "the worker crashed with signal SIGKILL (killed) in the step at \(step)", "\(key); \(context)")
      }

      // The console reports each scenario once too, in run order.
      let reported = run.stdout.split(separator: "\n").filter { $0.hasPrefix("  ✓ ") || $0.hasPrefix("  ✗ ") }
      let expectedLines = generated.scenarios.map { $0.split(separator: " › ", maxSplits: 1)[1] }
      #expect(reported.map { $0.dropFirst(4).replacing(#/ \(\d+\.\d+s\)$/#, with: "") } == expectedLines, "\(context)")
      #expect(run.stdout.hasSuffix("\(generated.scenarios.count - Self.kills) passed, \(Self.kills) failed, 0 skipped\n"), "\(context)")
      #expect(
        run.stdout.components(separatedBy: "error: the worker crashed with signal SIGKILL (killed) in the step at ").count - 1
          == Self.kills, "\(context)")
    }

    /// The environment for the command: built with ThreadSanitizer, a process whose other
    /// threads are still alive sleeps a second in its main thread as it exits
    /// (`atexit_sleep_ms`, 1000 by default). A worker that has sent its last result would
    /// then look like one in a slow scenario's sleep, and a kill there fails nothing.
    static var noSleepAtExit: [String: String] {
      let options = ProcessInfo.processInfo.environment["TSAN_OPTIONS"].map { $0 + ":" } ?? ""
      return ["TSAN_OPTIONS": options + "atexit_sleep_ms=0"]
    }

    /// Kills `count` workers of `process`, one at a time, each at a random moment early in
    /// the 200 ms sleep of a slow scenario; returns how many it killed before the run ended.
    static func killWorkers(of process: Process, count: Int, random: inout SplitMix64) -> Int {
      let clock = ContinuousClock()
      /// When the test last looked at each worker, and how many times its main thread had
      /// blocked by then.
      var looked: [Int32: (switches: Int, at: ContinuousClock.Instant)] = [:]
      var killed = 0
      while killed < count {
        // A random pause between kills, then the next worker that starts to sleep.
        usleep(UInt32(random.next() % 300_000))
        var victim: (pid: Int32, sleepsSince: ContinuousClock.Instant)?
        while victim == nil {
          guard process.isRunning else { return killed }
          for worker in BuiltCommand.children(of: process.processIdentifier).shuffled(using: &random) {
            guard let switches = voluntarySwitches(of: worker) else { continue }
            let asleep = isSleeping(worker)
            let now = clock.now
            defer { looked[worker] = (switches, now) }
            // Blocked in nanosleep, and it blocked again since the last look: the sleep began
            // after that look. The last look may be tens of milliseconds old when the
            // machine is loaded (CI's ThreadSanitizer run once never found two looks 30 ms
            // apart, and killed nothing); the check below still makes the kill land within
            // 120 ms of that look, early in the 200 ms sleep.
            if asleep, let last = looked[worker], last.switches != switches, now - last.at < .milliseconds(100) {
              victim = (worker, last.at)
              break
            }
          }
          if victim == nil { usleep(2000) }
        }
        guard let victim else { continue }
        // A random moment early in the sleep, well before its end.
        usleep(UInt32(random.next() % 60_000))
        guard clock.now - victim.sleepsSince < .milliseconds(120), isSleeping(victim.pid), process.isRunning else { continue }
        kill(victim.pid, SIGKILL)
        killed += 1
      }
      return killed
    }

    /// Whether the main thread of `pid` is in `nanosleep` or `clock_nanosleep` (x86_64 and
    /// arm64 numbers), from /proc/PID/task/PID/syscall.
    static func isSleeping(_ pid: Int32) -> Bool {
      guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/syscall", encoding: .utf8),
        let number = text.split(separator: " ").first.flatMap({ Int($0) })
      else { return false }
      #if arch(x86_64)
        return number == 35 || number == 230
      #else
        return number == 101 || number == 115
      #endif
    }

    /// How many times the main thread of `pid` blocked, from its `voluntary_ctxt_switches`.
    static func voluntarySwitches(of pid: Int32) -> Int? {
      guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/status", encoding: .utf8),
        let line = text.split(separator: "\n").first(where: { $0.hasPrefix("voluntary_ctxt_switches:") })
      else { return nil }
      return Int(line.dropFirst("voluntary_ctxt_switches:".count).trimmingCharacters(in: .whitespaces))
    }

    struct TestCase {
      var name: String
      var file: String
      /// The `message` of its `<error>`, if it has one.
      var error: String?
    }

    /// The `<testcase>` elements of a JUnit file (the command's own layout: one element a
    /// line, its `<error>` on the next).
    static func testcases(in xml: String) -> [TestCase] {
      let lines = xml.split(separator: "\n").map(String.init)
      var found: [TestCase] = []
      for (index, line) in lines.enumerated() {
        guard line.contains("<testcase "), let name = attribute("name", in: line), let file = attribute("file", in: line)
        else { continue }
        var testcase = TestCase(name: name, file: file)
        if !line.hasSuffix("/>"), index + 1 < lines.count, lines[index + 1].contains("<error ") {
          testcase.error = attribute("message", in: lines[index + 1])
        }
        found.append(testcase)
      }
      return found
    }

    static func attribute(_ name: String, in line: String) -> String? {
      guard let start = line.range(of: " \(name)=\"") else { return nil }
      let rest = line[start.upperBound...]
      guard let end = rest.firstIndex(of: "\"") else { return nil }
      return String(rest[..<end])
    }
  }

#endif
