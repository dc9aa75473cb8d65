import Foundation
import Testing

/// The command run for real, as a process, with the fake engine of the pool fixture.
///
/// The fake engine has no source lines, so its failures show no caret; the real engine's
/// are in ReducerSpecEndToEndTests.
@Suite(.serialized) struct WorkerPoolEndToEndTests {
  static let trapSignal: String = {
    #if arch(x86_64)
      "SIGILL (illegal instruction)"
    #else
      "SIGTRAP (trace/breakpoint trap)"
    #endif
  }()

  @Test func runsEveryScenarioAndReportsInRunOrder() async throws {
    let run = try await BuiltCommand.run(["--jobs", "1", "Tests/Fixtures/pool/basic"])
    #expect(run.status == 1)
    #expect(
      run.output == """
        Tests/Fixtures/pool/basic/a.yaml
          ✓ slow passes first (TIME)
          ✗ fails (TIME)
            Tests/Fixtures/pool/basic/a.yaml:11:9: error: the step fails on purpose
          ✓ passes (TIME)
          - skip this one (skipped: skipped on purpose)

        Tests/Fixtures/pool/basic/b.yml
          ✓ slow passes too (TIME)
          ✓ writes-stderr and passes (TIME)
          ✓ prints and passes (TIME)

        5 passed, 1 failed, 1 skipped

        """)
    // What a scenario writes, to standard error or (in a worker) to standard output, goes to
    // the command's standard error, in run order, under its name, and never into the report.
    #expect(
      run.stderr == """
        ── output of Tests/Fixtures/pool/basic/b.yml › writes-stderr and passes ──
        a line on standard error from 'writes-stderr and passes'
        ── output of Tests/Fixtures/pool/basic/b.yml › prints and passes ──
        a line printed to standard output by 'prints and passes'

        """)
  }

  @Test func theOrderIsTheSameWhateverTheNumberOfJobs() async throws {
    let paths = ["Tests/Fixtures/pool/basic", "Tests/Fixtures/pool/crash", "Tests/Fixtures/pool/broken"]
    let one = try await BuiltCommand.run(["--jobs", "1"] + paths)
    let three = try await BuiltCommand.run(["--jobs", "3"] + paths)
    #expect(one.status == 1 && three.status == 1)
    #expect(one.output == three.output)
    #expect(BuiltCommand.normalized(one.stderr) == BuiltCommand.normalized(three.stderr))
    #expect(one.output.hasSuffix("9 passed, 3 failed, 1 skipped\n"))
  }

  @Test func aTrapFailsOnlyItsScenario() async throws {
    let run = try await BuiltCommand.run(["--jobs", "2", "Tests/Fixtures/pool/crash"])
    #expect(run.status == 1)
    #expect(
      run.output == """
        Tests/Fixtures/pool/crash/crash.yaml
          ✓ passes before (TIME)
          ✗ traps in the second step (TIME)
            Tests/Fixtures/pool/crash/crash.yaml:6:5: error: the worker crashed with signal \(Self.trapSignal) in the step at Tests/Fixtures/pool/crash/crash.yaml:9:9
            The worker's last lines on standard error:
              about to trap
              reducer_spec_pool_fixture/main.swift:LINE: Fatal error: the scenario traps on purpose
          ✓ passes after (TIME)
          ✗ exits in its only step (TIME)
            Tests/Fixtures/pool/crash/crash.yaml:13:5: error: the worker exited with status 3 in the step at Tests/Fixtures/pool/crash/crash.yaml:15:9
          ✓ passes at the end (TIME)

        3 passed, 2 failed, 0 skipped

        """)
    // The whole of what the crashed worker wrote is forwarded, stack trace included.
    #expect(
      run.stderr.hasPrefix("""
        ── output of Tests/Fixtures/pool/crash/crash.yaml › traps in the second step ──
        about to trap
        """))
    #expect(run.stderr.contains("Fatal error: the scenario traps on purpose\nCurrent stack trace:"))
  }

  @Test func aScenarioPastItsTimeoutIsKilledAndNamesItsStep() async throws {
    let run = try await BuiltCommand.run(["--timeout", "1s", "Tests/Fixtures/pool/hang"])
    #expect(run.status == 1)
    #expect(
      run.output == """
        Tests/Fixtures/pool/hang/hang.yaml
          ✓ passes before (TIME)
          ✗ hangs in the second step (TIME)
            Tests/Fixtures/pool/hang/hang.yaml:6:5: error: the scenario timed out after 1s in the step at Tests/Fixtures/pool/hang/hang.yaml:9:9
          ✓ passes after (TIME)

        2 passed, 1 failed, 0 skipped

        """)
    // Killed after the timeout and its 0.5s of grace, not left to hang: the bound is loose,
    // as a sanitized build on a busy machine starts its processes slowly.
    #expect(run.duration < 30)
    #expect(run.stdout.contains(#/hangs in the second step \(1\.[5-9]\d*s\)/#))
  }

  @Test func aFileThatCannotBeReadIsReportedWhereItStands() async throws {
    let run = try await BuiltCommand.run(["Tests/Fixtures/pool/broken"])
    #expect(run.status == 1)
    #expect(
      run.output == """
        Tests/Fixtures/pool/broken/a-broken.yaml
          ✗ Tests/Fixtures/pool/broken/a-broken.yaml:2:1: error: this file cannot be read
            error: this file cannot be read
            ^

        Tests/Fixtures/pool/broken/b-fine.yaml
          ✓ passes (TIME)

        1 file could not run.
        1 passed, 0 failed, 0 skipped

        """)
  }

  @Test func listPrintsTheSelectionAndRunsNothing() async throws {
    let run = try await BuiltCommand.run(["--list", "Tests/Fixtures/pool/basic", "Tests/Fixtures/pool/hang"])
    #expect(run.status == 0)
    #expect(
      run.stdout == """
        Tests/Fixtures/pool/basic/a.yaml › slow passes first
        Tests/Fixtures/pool/basic/a.yaml › fails
        Tests/Fixtures/pool/basic/a.yaml › passes
        Tests/Fixtures/pool/basic/a.yaml › skip this one
        Tests/Fixtures/pool/basic/b.yml › slow passes too
        Tests/Fixtures/pool/basic/b.yml › writes-stderr and passes
        Tests/Fixtures/pool/basic/b.yml › prints and passes
        Tests/Fixtures/pool/hang/hang.yaml › passes before
        Tests/Fixtures/pool/hang/hang.yaml › hangs in the second step
        Tests/Fixtures/pool/hang/hang.yaml › passes after

        """)
    #expect(run.stderr == "")

    let selected = try await BuiltCommand.run(["--list", "--tag", "smoke", "--tag", "!slow", "--filter", "pass", "Tests/Fixtures/pool/basic"])
    #expect(selected.stdout == "Tests/Fixtures/pool/basic/a.yaml › passes\n")

    let broken = try await BuiltCommand.run(["--list", "Tests/Fixtures/pool/broken"])
    #expect(broken.status == 1)
    #expect(broken.stdout == "Tests/Fixtures/pool/broken/b-fine.yaml › passes\n")
    #expect(broken.stderr == "Tests/Fixtures/pool/broken/a-broken.yaml:2:1: error: this file cannot be read\n")
  }

  @Test func shardsSplitTheRunAndAnEmptyShardPasses() async throws {
    let all = try await BuiltCommand.run(["--list", "Tests/Fixtures/pool/basic"]).stdout.split(separator: "\n")
    let first = try await BuiltCommand.run(["--list", "--shard", "1/2", "Tests/Fixtures/pool/basic"]).stdout.split(separator: "\n")
    let second = try await BuiltCommand.run(["--list", "--shard", "2/2", "Tests/Fixtures/pool/basic"]).stdout.split(separator: "\n")
    #expect(first == [all[0], all[2], all[4], all[6]])
    #expect(second == [all[1], all[3], all[5]])

    let run = try await BuiltCommand.run(["--shard", "2/2", "Tests/Fixtures/pool/basic"])
    #expect(
      run.output == """
        Tests/Fixtures/pool/basic/a.yaml
          ✗ fails (TIME)
            Tests/Fixtures/pool/basic/a.yaml:11:9: error: the step fails on purpose
          - skip this one (skipped: skipped on purpose)

        Tests/Fixtures/pool/basic/b.yml
          ✓ writes-stderr and passes (TIME)

        1 passed, 1 failed, 1 skipped

        """)

    let empty = try await BuiltCommand.run(["--shard", "3/3", "Tests/Fixtures/pool/broken/b-fine.yaml"])
    #expect(empty.status == 0)
    #expect(empty.stdout == "0 passed, 0 failed, 0 skipped\n")

    // A broken file is reported by the first shard only.
    #expect(try await BuiltCommand.run(["--shard", "1/2", "Tests/Fixtures/pool/broken"]).status == 1)
    let later = try await BuiltCommand.run(["--shard", "2/2", "Tests/Fixtures/pool/broken"])
    #expect(later.status == 0)
    #expect(later.stdout == "0 passed, 0 failed, 0 skipped\n")
  }

  @Test func bazelsTestProtocol() async throws {
    let statusFile = FileManager.default.temporaryDirectory.appendingPathComponent("shard-status-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: statusFile) }
    let run = try await BuiltCommand.run(
      ["Tests/Fixtures/pool/basic"],
      environment: [
        "TEST_TOTAL_SHARDS": "2", "TEST_SHARD_INDEX": "0", "TEST_SHARD_STATUS_FILE": statusFile,
        "TESTBRIDGE_TEST_ONLY": "b.yml",
      ])
    #expect(run.status == 0)
    #expect(
      run.output == """
        Tests/Fixtures/pool/basic/b.yml
          ✓ slow passes too (TIME)
          ✓ prints and passes (TIME)

        2 passed, 0 failed, 0 skipped

        """)
    #expect(FileManager.default.fileExists(atPath: statusFile))

    let bad = try await BuiltCommand.run(["Tests/Fixtures/pool/basic"], environment: ["TEST_TOTAL_SHARDS": "2", "TEST_SHARD_INDEX": "5"])
    #expect(bad.status == 64)
    #expect(bad.stderr.hasPrefix("Error: TEST_SHARD_INDEX must be between 0 and 1 when TEST_TOTAL_SHARDS is 2; got '5'\n"))
  }

  @Test func failFastStopsDispatchingAfterTheFirstFailure() async throws {
    let run = try await BuiltCommand.run(["--jobs", "1", "--fail-fast", "Tests/Fixtures/pool/failfast"])
    #expect(run.status == 1)
    #expect(
      run.output == """
        Tests/Fixtures/pool/failfast/failfast.yaml
          ✓ passes (TIME)
          ✗ fails (TIME)
            Tests/Fixtures/pool/failfast/failfast.yaml:8:9: error: the step fails on purpose

        The run was interrupted: these are the results of the scenarios that had finished.
        1 passed, 1 failed, 0 skipped

        """)
    #expect(run.stderr == "reducer-spec-pool-fixture: stopped after the first failure (--fail-fast); 2 of 4 scenarios did not run\n")

    // Stopped before the workers read every file: the line says how many were not read.
    let early = try await BuiltCommand.run(
      ["--jobs", "1", "--fail-fast", "Tests/Fixtures/pool/failfast", "Tests/Fixtures/pool/basic", "Tests/Fixtures/pool/broken"])
    #expect(early.status == 1)
    // (One at a time with --fail-fast, a worker has the rest of its file to run, so it is
    // handed no next file to read before the failure.)
    #expect(
      early.stderr
        == "reducer-spec-pool-fixture: stopped after the first failure (--fail-fast); 2 of 4 scenarios did not run, and 4 of 5 files were not read\n")

    // A run that fails at its last scenario stopped nothing.
    let last = try await BuiltCommand.run(["--fail-fast", "Tests/Fixtures/pool/basic/a.yaml", "--filter", "fails"])
    #expect(last.status == 1)
    #expect(!last.stdout.contains("interrupted"))
    #expect(last.stderr == "")
  }

  @Test func ctrlCWritesTheReportsWithWhatFinishedAndExits130() async throws {
    try await BuiltCommand.onThread {
      let junit = FileManager.default.temporaryDirectory.appendingPathComponent("interrupted-\(UUID().uuidString).xml").path
      defer { try? FileManager.default.removeItem(atPath: junit) }
      let process = BuiltCommand.process(
        ["--jobs", "1", "--timeout", "60s", "--junit", junit, "Tests/Fixtures/pool/interrupt"])
      let stdout = Pipe()
      let stderr = Pipe()
      process.standardOutput = stdout
      process.standardError = stderr
      let output = Collected()
      stdout.fileHandleForReading.readabilityHandler = { handle in output.append(handle.availableData, done: false) }
      let started = Date()
      try process.run()
      // Wait until the two scenarios before the hanging one were reported, then press Ctrl-C.
      while !output.text.contains("passes two"), Date().timeIntervalSince(started) < 30 { usleep(10_000) }
      usleep(200_000)  // The hanging scenario is now running.
      #if os(Linux)
        // Its one worker ignores SIGINT: a Ctrl-C that reaches the whole process group is
        // handled by the command alone.
        let workers = BuiltCommand.children(of: process.processIdentifier)
        #expect(workers.count == 1)
        for worker in workers { #expect(BuiltCommand.ignoredSignals(of: worker).contains(SIGINT)) }
      #endif
      process.interrupt()
      process.waitUntilExit()
      #if os(Linux)
        // The command killed and reaped its worker before it exited.
        for worker in workers { #expect(kill(worker, 0) == -1 && errno == ESRCH) }
      #endif
      stdout.fileHandleForReading.readabilityHandler = nil
      output.append(stdout.fileHandleForReading.readDataToEndOfFile(), done: false)
      let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)

      #expect(process.terminationReason == .exit)
      #expect(process.terminationStatus == 130)
      #expect(Date().timeIntervalSince(started) < 30)
      #expect(
        BuiltCommand.normalized(output.text) == """
          Tests/Fixtures/pool/interrupt/interrupt.yaml
            ✓ passes one (TIME)
            ✓ passes two (TIME)

          The run was interrupted: these are the results of the scenarios that had finished.
          2 passed, 0 failed, 0 skipped

          """)
      #expect(errors == "reducer-spec-pool-fixture: interrupted by SIGINT; 2 of 4 scenarios did not finish\n")
      // The JUnit file holds what had finished.
      let xml = try String(contentsOfFile: junit, encoding: .utf8)
      #expect(xml.contains(#"<testsuites name="reducer-spec" tests="2" failures="0" errors="0" skipped="0""#))
      #expect(xml.components(separatedBy: "<testcase ").count - 1 == 2)
    }
  }

  @Test func eachWorkerLoadsAFileOnce() async throws {
    let run = try await BuiltCommand.run(["--jobs", "1", "Tests/Fixtures/pool/basic"], environment: ["POOL_FIXTURE_LOG_LOADS": "1"])
    let loads = run.stderr.split(separator: "\n").filter { $0.hasPrefix("loading ") }
    // Only in the worker: the command reads no spec file when it runs them.
    #expect(loads == ["loading Tests/Fixtures/pool/basic/a.yaml", "loading Tests/Fixtures/pool/basic/b.yml"])
    // What a worker writes while it reads a file is forwarded under the file's name.
    #expect(run.stderr.hasPrefix("── output while reading Tests/Fixtures/pool/basic/a.yaml ──\nloading Tests/Fixtures/pool/basic/a.yaml\n"))
  }

  /// The command asks a worker with scenarios queued to read several files ahead of them;
  /// the worker keeps each file's plan until its scenarios have run, and reads none twice.
  /// (Each scenario takes a millisecond here, so that the worker has work queued.)
  @Test func aWorkerThatReadsFilesAheadLoadsEachOnce() async throws {
    let manager = FileManager.default
    let directory = manager.temporaryDirectory.appendingPathComponent("read-ahead-\(UUID().uuidString)")
    try manager.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? manager.removeItem(at: directory) }
    let text = """
      feature: MoreBasic
      scenarios:
        - name: passes
          steps:
            - send: first
        - name: passes too
          steps:
            - send: first
        - name: passes again
          steps:
            - send: first

      """
    let names = (10..<50).map { "spec-\($0).yaml" }
    for name in names { try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8) }
    let run = try await BuiltCommand.run(
      ["--jobs", "1", "--no-record", directory.path],
      environment: ["POOL_FIXTURE_LOG_LOADS": "1", "POOL_FIXTURE_SCENARIO_MICROSECONDS": "1000"])
    #expect(run.status == 0)
    #expect(run.output.hasSuffix("120 passed, 0 failed, 0 skipped\n"))
    let loads = run.stderr.split(separator: "\n").filter { $0.hasPrefix("loading ") }
    #expect(loads == names.map { "loading \(directory.path)/\($0)"[...] })
  }

  @Test func aTrapWhileReadingAFileFailsOnlyThatFile() async throws {
    for jobs in ["1", "2"] {
      let run = try await BuiltCommand.run(["--jobs", jobs, "Tests/Fixtures/pool/load-trap"])
      #expect(run.status == 1)
      #expect(
        run.output == """
          Tests/Fixtures/pool/load-trap/a-traps.yaml
            ✗ Tests/Fixtures/pool/load-trap/a-traps.yaml: error: the worker crashed with signal \(Self.trapSignal) while reading the file
              The worker's last lines on standard error:
                about to trap while reading Tests/Fixtures/pool/load-trap/a-traps.yaml
                reducer_spec_pool_fixture/main.swift:LINE: Fatal error: the file traps on purpose

          Tests/Fixtures/pool/load-trap/b-fine.yaml
            ✓ passes (TIME)

          1 file could not run.
          1 passed, 0 failed, 0 skipped

          """)
      #expect(run.stderr.hasPrefix("── output while reading Tests/Fixtures/pool/load-trap/a-traps.yaml ──\nabout to trap while reading"))
    }
  }

  @Test func aTrapWhileCheckingAFileInAWorkerFailsOnlyThatFile() async throws {
    // With --jobs 2 and over 1 MB of files (comments added to each), the command starts one
    // worker and sends it the first three files; the worker traps on the first, and a fresh
    // one checks the two others.
    let padded = try BuiltCommand.paddedCopy(of: ["Tests/Fixtures/pool/check-trap"], toBytes: 140_000)
    defer { try? FileManager.default.removeItem(at: padded) }
    let run = try await BuiltCommand.run(
      ["check", "--jobs", "2", "Tests/Fixtures/pool/check-trap"], directory: padded)
    #expect(run.status == 1)
    #expect(
      run.output == """
        Tests/Fixtures/pool/check-trap/a-traps.yaml
          ✗ Tests/Fixtures/pool/check-trap/a-traps.yaml: error: the worker crashed with signal \(Self.trapSignal) while checking the file
            The worker's last lines on standard error:
              about to trap while reading Tests/Fixtures/pool/check-trap/a-traps.yaml
              reducer_spec_pool_fixture/main.swift:LINE: Fatal error: the file traps on purpose

        Checked 8 files, 7 scenarios: 1 problem in 1 file.

        """)
    #expect(run.stderr.hasPrefix("── output while reading Tests/Fixtures/pool/check-trap/a-traps.yaml ──\nabout to trap while reading"))
  }

  @Test func aFileWhoseReadingHangsTimesOutAlone() async throws {
    let run = try await BuiltCommand.run(["--timeout", "1s", "Tests/Fixtures/pool/load-hang"])
    #expect(run.status == 1)
    #expect(
      run.output == """
        Tests/Fixtures/pool/load-hang/a-hangs.yaml
          ✗ Tests/Fixtures/pool/load-hang/a-hangs.yaml: error: reading the file timed out after 1s
            The worker's last lines on standard error:
              about to hang while reading Tests/Fixtures/pool/load-hang/a-hangs.yaml

        Tests/Fixtures/pool/load-hang/b-fine.yaml
          ✓ passes (TIME)

        1 file could not run.
        1 passed, 0 failed, 0 skipped

        """)
    #expect(run.stderr == "── output while reading Tests/Fixtures/pool/load-hang/a-hangs.yaml ──\nabout to hang while reading Tests/Fixtures/pool/load-hang/a-hangs.yaml\n")
    // Stopped after the timeout and its 0.5s of grace.
    #expect(run.duration < 6)
  }

  @Test func aWorkerThatStartsSlowlyHasItsFirstRequestsTimeoutFromWhenItBegins() async throws {
    // Each worker sleeps 2 s before it serves anything: more than the timeout and its grace.
    let run = try await Self.runOneFile(workerStartDelay: "2")
    #expect(run.status == 0)
    #expect(
      run.output == """
        Tests/Fixtures/pool/load-hang/b-fine.yaml
          ✓ passes (TIME)

        1 passed, 0 failed, 0 skipped

        """)
    #expect(run.stderr == "── output while reading Tests/Fixtures/pool/load-hang/b-fine.yaml ──\na worker starting slowly\n")
    #expect(run.duration >= 2)
  }

  @Test func aWorkerThatNeverStartsFailsItsFirstRequestAfterTenSeconds() async throws {
    let run = try await Self.runOneFile(workerStartDelay: "forever")
    #expect(run.status == 1)
    #expect(
      run.output == """
        Tests/Fixtures/pool/load-hang/b-fine.yaml
          ✗ Tests/Fixtures/pool/load-hang/b-fine.yaml: error: the worker did not start within 10s
            The worker's last lines on standard error:
              a worker starting slowly

        1 file could not run.
        0 passed, 0 failed, 0 skipped

        """)
    #expect(run.stderr == "── output while reading Tests/Fixtures/pool/load-hang/b-fine.yaml ──\na worker starting slowly\n")
    // Ten seconds and the pool's 0.5 s of grace.
    #expect(run.duration >= 10.5 && run.duration < 16)
  }

  /// A run of one passing file with `--timeout 1s`, whose workers sleep `workerStartDelay`
  /// seconds (or forever) before they serve a request.
  static func runOneFile(workerStartDelay: String) async throws -> BuiltCommand.Run {
    try await BuiltCommand.run(
      ["--jobs", "1", "--timeout", "1s", "Tests/Fixtures/pool/load-hang/b-fine.yaml"],
      environment: ["POOL_FIXTURE_WORKER_START_DELAY": workerStartDelay])
  }

  @Test func aFileWhoseCheckingHangsInAWorkerTimesOutAlone() async throws {
    // Two files of 600 KB: check starts one worker and sends it both; the first hangs.
    let padded = try BuiltCommand.paddedCopy(of: ["Tests/Fixtures/pool/load-hang"], toBytes: 600_000)
    defer { try? FileManager.default.removeItem(at: padded) }
    let run = try await BuiltCommand.run(
      ["check", "--jobs", "2", "--timeout", "1s", "Tests/Fixtures/pool/load-hang"], directory: padded)
    #expect(run.status == 1)
    #expect(
      run.output == """
        Tests/Fixtures/pool/load-hang/a-hangs.yaml
          ✗ Tests/Fixtures/pool/load-hang/a-hangs.yaml: error: checking the file timed out after 1s
            The worker's last lines on standard error:
              about to hang while reading Tests/Fixtures/pool/load-hang/a-hangs.yaml

        Checked 2 files, 1 scenario: 1 problem in 1 file.

        """)
    #expect(run.duration < 6)
    let usage = try await BuiltCommand.run(["check", "--timeout", "0s", "Tests/Fixtures/pool/load-hang"])
    #expect(usage.status == 64)
    #expect(
      usage.stderr.hasPrefix(
        "Error: --timeout expects a duration longer than zero, like 300ms, 1.5s, 2m or 10 (seconds); got '0s'\n"))
  }

  @Test func usageErrorsExit64WithTheUsage() async throws {
    let unknown = try await BuiltCommand.run(["--frobnicate", "Tests/Fixtures/pool/basic"])
    #expect(unknown.status == 64)
    #expect(unknown.stdout == "")
    #expect(
      unknown.stderr == """
        Error: Unknown option '--frobnicate'
        Usage: reducer-spec-pool-fixture [run] [<options>] [<path> ...]
          See 'reducer-spec-pool-fixture run --help' for more information.

        """)

    let missing = try await BuiltCommand.run(["Tests/Fixtures/pool/nope"])
    #expect(missing.status == 64)
    #expect(missing.stderr.hasPrefix("Error: no such file or directory: 'Tests/Fixtures/pool/nope'\nUsage: "))

    let shard = try await BuiltCommand.run(["--shard", "4/3", "Tests/Fixtures/pool/basic"])
    #expect(shard.status == 64)
    #expect(shard.stderr.hasPrefix("Error: --shard 4/3: K must be between 1 and 3 (shards are counted from 1)\n"))

    let version = try await BuiltCommand.run(["--version"])
    #expect(version.status == 0)
    #expect(version.stdout == "0.1.0\n")
  }
}
