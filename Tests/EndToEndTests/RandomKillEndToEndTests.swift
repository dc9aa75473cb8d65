import Foundation
import Testing
import TestSupport

#if os(Linux)
  /// Workers killed at random (SIGKILL, as the OOM killer or `kill -9` would) while a suite
  /// runs: every scenario is still reported exactly once, the killed ones as errors that
  /// name the signal and the step, the JUnit file is complete and valid, and the run exits 1.
  ///
  /// It runs the pool fixture (the real command, pool, protocol, step board and reports,
  /// with a fake engine) on generated files. A few scenarios, drawn at random, `hang` at
  /// their last step (the fixture's main thread sleeps a second at a time, for ever); the
  /// others pass at once. The test kills a worker whenever it finds its main thread asleep,
  /// at a random moment after that: the kill always lands in a known step of a running
  /// scenario, and the run cannot end before every victim is killed, however slow the
  /// machine. Everything random is drawn from one seed, printed with any failure; set
  /// `RANDOM_KILL_SEED` to replay one.
  @Suite struct RandomKillEndToEndTests {
    /// How many workers each run kills.
    static let kills = 4

    struct Generated {
      /// `file › name` of every scenario, in run order.
      var scenarios: [String] = []
      /// `file:line:column` of the last step of each scenario that hangs, by `file › name`.
      var lastSteps: [String: String] = [:]
    }

    /// Writes 10 files of 8 scenarios each, of 1 to 4 steps; `kills` of them, drawn at
    /// random, hang.
    static func generate(in directory: URL, random: inout SplitMix64) throws -> Generated {
      var generated = Generated()
      let specs = directory.appendingPathComponent("specs")
      try FileManager.default.createDirectory(at: specs, withIntermediateDirectories: true)
      var victims: Set<Int> = []
      while victims.count < kills { victims.insert(Int(random.next() % 80)) }
      for file in 1...10 {
        let path = "specs/kill-\(file < 10 ? "0" : "")\(file).yaml"
        var lines = ["feature: Soak", "scenarios:"]
        for scenario in 0..<8 {
          let hangs = victims.contains((file - 1) * 8 + scenario)
          let name = "\(hangs ? "hangs" : "passes") \(scenario + 1) of file \(file)"
          lines.append("  - name: \(name)")
          lines.append("    steps:")
          for step in 0...Int(random.next() % 4) { lines.append("      - send: step\(step + 1)") }
          generated.scenarios.append("\(path) › \(name)")
          if hangs { generated.lastSteps["\(path) › \(name)"] = "\(path):\(lines.count):9" }
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

      // Every victim was killed while the run was going.
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
      // last step of one that hangs.
      let errorCases = testcases.filter { $0.error != nil }
      #expect(errorCases.count == Self.kills, "\(context)\n\(xml)")
      for testcase in errorCases {
        let key = "\(testcase.file) › \(testcase.name)"
        let step = try #require(generated.lastSteps[key], "a scenario that passes was killed: \(key); \(context)")
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
    /// then look like one in a scenario that hangs, and a kill there fails nothing.
    static var noSleepAtExit: [String: String] {
      let options = ProcessInfo.processInfo.environment["TSAN_OPTIONS"].map { $0 + ":" } ?? ""
      return ["TSAN_OPTIONS": options + "atexit_sleep_ms=0"]
    }

    /// Kills `count` workers of `process`, one at a time, each at a random moment after it
    /// was found asleep in a scenario that hangs; returns how many it killed before the run
    /// ended.
    static func killWorkers(of process: Process, count: Int, random: inout SplitMix64) -> Int {
      var killed = 0
      while killed < count {
        guard process.isRunning else { return killed }
        let sleeping = BuiltCommand.children(of: process.processIdentifier).shuffled(using: &random).first(where: isSleeping)
        guard let victim = sleeping else {
          usleep(2000)
          continue
        }
        usleep(UInt32(random.next() % 100_000))
        guard process.isRunning else { return killed }
        kill(victim, SIGKILL)
        killed += 1
        // Until the pool has seen it die, the killed worker is still a child, asleep no more.
        while BuiltCommand.children(of: process.processIdentifier).contains(victim), process.isRunning { usleep(2000) }
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
