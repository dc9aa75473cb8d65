// Times the `reducer-spec` command end to end on a generated corpus of valid specs, against
// libyaml's raw event scan of the same files:
//
//     swift build -c release --product reducer-spec      # in the root package
//     cd Benchmarks && swift run -c release runner-benchmark
//
// See Benchmarks/README.md for what each row measures.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BenchmarkSupport
import Foundation
import LibYAMLScan

struct Options {
  var binary = "../.build/release/reducer-spec"
  var files = 1000
  var scenarios = 5
  var steps = 20
  var repeats = 5
  var versionRuns = 20
  var directory: String?
  var skipYams = false
  var skipCheck = false
  var skipFirstResult = false
  var skipHalves = false
  var skipRedux = false
  var reduxDirectory: String?
  var countsInstructions = false
  /// `--yams-child DIR`: only decode DIR's files with Yams and print the figures (the Yams
  /// row runs in a process of its own, so that Yams' heap does not slow the scan).
  var yamsChild: String?
  /// `--scan-child DIR`: only scan DIR's files with libyaml and print the figures (row (k)
  /// runs in a process of its own, so that this one never holds the Redux corpus: a command
  /// started by `posix_spawn` shares this process's memory until it calls exec, and would
  /// count its peak in its own).
  var scanChild: String?

  init(arguments: [String]) {
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
      func value() -> String {
        guard let next = iterator.next() else { fail("\(argument) needs a value") }
        return next
      }
      func number() -> Int {
        let text = value()
        guard let number = Int(text), number > 0 else { fail("\(argument) takes a positive whole number, not \(text)") }
        return number
      }
      switch argument {
      case "--binary": binary = value()
      case "--files": files = number()
      case "--scenarios": scenarios = number()
      case "--steps": steps = number()
      case "--repeat": repeats = number()
      case "--version-runs": versionRuns = number()
      case "--corpus": directory = value()
      case "--skip-yams": skipYams = true
      case "--skip-check": skipCheck = true
      case "--skip-first-result": skipFirstResult = true
      case "--skip-halves": skipHalves = true
      case "--skip-redux": skipRedux = true
      case "--redux-corpus": reduxDirectory = value()
      case "--instructions": countsInstructions = true
      case "--yams-child": yamsChild = value()
      case "--scan-child": scanChild = value()
      case "-h", "--help":
        print(
          """
          runner-benchmark [--binary PATH] [--files N] [--scenarios N] [--steps N] [--repeat N]
                           [--version-runs N] [--corpus DIR] [--skip-check] [--skip-yams]
                           [--skip-first-result] [--skip-halves] [--skip-redux]
                           [--redux-corpus DIR] [--instructions]

          Times `reducer-spec` on a corpus of Counter spec files against libyaml's raw event
          scan of the same files, rows interleaved round by round:
            (a) the scan, in this process, of files read before the clock starts
            (b), (c) `reducer-spec --jobs 1`, `--jobs 2` (every scenario must pass)
            (d) `reducer-spec --version` (--version-runs times, after the rounds)
            (e), (f) `reducer-spec check --jobs 1`, `--jobs 2` (every file must check out)
            (g) Yams' YAMLDecoder decoding every file into Codable structs, in a child process
                (files read before its clock starts), once per round
            (h) `reducer-spec --jobs 2`, stdout a pipe: from just before posix_spawn until the
                first scenario result (a line with "✓") is read from the pipe; (h2) the same
                with `--no-record` (no run record read or written)
            (i) `reducer-spec check --jobs 1` on each half of the corpus, one half after the
                other, then both halves at once: what a second process gains on this machine
            (j) `reducer-spec --jobs 1` on each half of the corpus, both at once, each in a
                working directory of its own: the run split into two runs that share nothing
            (k) the scan of a corpus of the same shape for the Redux example ReduxArchive,
                in a child process (files read before its clock starts), once per round
            (l) `reducer-spec --jobs 1` on that corpus, in a working directory of its own

            --binary PATH        the command to time (../.build/release/reducer-spec)
            --corpus DIR         use DIR's *.yaml files if DIR exists, else generate them there
                                 (default: generate into a temporary directory, removed after)
            --files N            files to generate (1000), each of
            --scenarios N        scenarios (5) of
            --steps N            steps (20)
            --repeat N           rounds (5)
            --version-runs N     runs of `--version` (20)
            --skip-check         leave out rows (e) and (f)
            --skip-yams          leave out row (g) (a second or two a round)
            --skip-first-result  leave out rows (h) and (h2)
            --skip-halves        leave out rows (i) and (j)
            --skip-redux         leave out rows (k) and (l)
            --redux-corpus DIR   as --corpus, for the ReduxArchive corpus of (k) and (l)
            --instructions       after the rounds, count the instructions of (e) and (g) once
                                 each with Callgrind (valgrind and objcopy; some 3 minutes)

          The commands run in a temporary directory of their own, where the runs write (and,
          after a warm-up run before round 1, read) the run record .reducer-spec/last-run.json,
          as a person's runs in a project would.
          """)
        exit(0)
      default: fail("unknown option \(argument)")
      }
    }
  }
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("runner-benchmark: \(message)\n".utf8))
  exit(2)
}

// MARK: - Measuring

/// Runs a command in `directory` (by default `workDirectory`, set below; `nil`: here), its
/// output to a file, and measures its wall time and peak memory.
func measure(_ arguments: [String], output: String, in directory: String? = nil) -> CommandRun {
  guard let run = CommandRun.measure(arguments, output: output, directory: directory ?? workDirectory) else {
    fail("cannot start \(arguments[0]): build it with `swift build -c release --product reducer-spec` in the root package")
  }
  return run
}

func summary(_ values: [Double]) -> (best: Double, median: Double, highest: Double) {
  let sorted = values.sorted()
  return (sorted[0], sorted[sorted.count / 2], sorted[sorted.count - 1])
}

func milliseconds(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }

/// The working directory of the measured commands: `.reducer-spec/last-run.json`, the run
/// record, goes there.
nonisolated(unsafe) var workDirectory: String?

/// `path` made absolute against the current directory.
func absolute(_ path: String) -> String {
  let path = (path as NSString).expandingTildeInPath
  let full = path.hasPrefix("/") ? path : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
  return (full as NSString).standardizingPath
}

/// The `*.yaml` files of `directory`, sorted by name.
func corpusPaths(in directory: String) throws -> [String] {
  try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".yaml") }.sorted()
    .map { (directory as NSString).appendingPathComponent($0) }
}

/// The instructions that a command executes, counted by Callgrind, all its threads (the
/// count of one run, the same from run to run, where a time moves with the VM), and the run,
/// its standard output in `output`. Its executable is copied without debug information first
/// (valgrind 3.19 cannot read the DWARF 5 of a release build).
func instructions(_ arguments: [String], name: String, output: String) -> (count: Int, sample: CommandRun) {
  let stripped = NSTemporaryDirectory() + "reducer-spec-runner-\(getpid())-\(name)"
  let report = stripped + ".callgrind"
  defer {
    for path in [stripped, report] { try? FileManager.default.removeItem(atPath: path) }
  }
  let copy = measure(["/usr/bin/env", "objcopy", "--strip-debug", arguments[0], stripped], output: output)
  guard copy.status == 0 else {
    fail("--instructions needs objcopy (binutils) to copy \(arguments[0]) without its debug information")
  }
  let sample = measure(
    ["/usr/bin/env", "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", "--log-file=\(report)", stripped]
      + arguments.dropFirst(), output: output)
  // "==PID== Collected : N"
  guard let text = try? String(contentsOfFile: report, encoding: .utf8),
    let line = text.split(separator: "\n").first(where: { $0.contains("Collected :") }),
    let count = Int(line.split(separator: " ").last ?? "")
  else {
    fail("--instructions: \(name) under valgrind exited \(sample.status) with \"\(sample.lastLine)\" and no count (is valgrind installed?)")
  }
  return (count, sample)
}

/// The seconds that the Yams row's child process printed ("SECONDS SCENARIOS STEPS
/// SETCOUNTS"); fails unless it decoded every scenario and step of the corpus, and some
/// `setCount`s.
func yamsSeconds(_ sample: CommandRun) -> Double {
  let fields = sample.lastLine.split(separator: " ")
  guard sample.status == 0, fields.count == 4, let seconds = Double(fields[0]) else {
    fail("the Yams row (\(selfPath) --yams-child) exited \(sample.status) with \"\(sample.lastLine)\"")
  }
  let counts = fields.dropFirst().map { Int($0) ?? -1 }
  guard counts[0] == scenarioCount, counts[1] == stepCount, counts[2] > 0 else {
    fail(
      "Yams decoded \(counts[0]) scenarios of \(counts[1]) steps (\(counts[2]) setCount), "
        + "expected \(scenarioCount) of \(stepCount)")
  }
  return seconds
}

// MARK: - Yams, in a child process

let options = Options(arguments: Array(CommandLine.arguments.dropFirst()))
if let directory = options.yamsChild {
  // Read every file before the clock starts, as the scan does; print
  // "SECONDS SCENARIOS STEPS SETCOUNTS".
  let texts = try corpusPaths(in: directory).map { try String(contentsOfFile: $0, encoding: .utf8) }
  do {
    let result = try YamsCounter.decodeAll(texts)
    print("\(result.seconds) \(result.scenarios) \(result.steps) \(result.setCounts)")
    exit(0)
  } catch {
    FileHandle.standardError.write(Data("runner-benchmark --yams-child: \(error)\n".utf8))
    exit(1)
  }
}

// MARK: - libyaml's scan, in a child process

if let directory = options.scanChild {
  // Read every file before the clock starts, as row (a) does, and scan them with the same
  // copy of libyaml; print "SECONDS EVENTS".
  let texts = try corpusPaths(in: directory).map { try [UInt8](Data(contentsOf: URL(fileURLWithPath: $0))) }
  let shared = SharedLibYAML()
  let childScan: ([UInt8]) -> Int = shared.map { scan in { scan.events(in: $0) } } ?? { LibYAMLScan.events(in: $0) }
  let start = DispatchTime.now().uptimeNanoseconds
  let events = texts.reduce(0) { $0 + childScan($1) }
  print("\(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9) \(events)")
  exit(0)
}

// MARK: - Main

let binary = absolute(options.binary)
guard FileManager.default.isExecutableFile(atPath: binary) else {
  fail("no executable at \(binary): build it with `swift build -c release --product reducer-spec` in the root package")
}
let corpus = options.directory.map(absolute) ?? NSTemporaryDirectory() + "reducer-spec-runner-corpus-\(getpid())"
let scenarioCount: Int
if options.directory == nil || !FileManager.default.fileExists(atPath: corpus) {
  scenarioCount = try CounterCorpus.generate(
    in: corpus, files: options.files, scenarios: options.scenarios, steps: options.steps)
} else {
  scenarioCount = options.files * options.scenarios
}
let paths = try corpusPaths(in: corpus)
let texts = try paths.map { try [UInt8](Data(contentsOf: URL(fileURLWithPath: $0))) }
let bytes = texts.reduce(0) { $0 + $1.count }
print("corpus:  \(paths.count) files, \(scenarioCount) scenarios of \(options.steps) steps, \(String(format: "%.1f", Double(bytes) / 1e6)) MB in \(corpus)")
// Rows (k) and (l): a ReduxArchive corpus of the same shape.
let runsRedux = !options.skipRedux
let reduxCorpus = options.reduxDirectory.map(absolute) ?? NSTemporaryDirectory() + "reducer-spec-runner-redux-corpus-\(getpid())"
var reduxScenarioCount = 0
if runsRedux {
  if options.reduxDirectory == nil || !FileManager.default.fileExists(atPath: reduxCorpus) {
    reduxScenarioCount = try ReduxArchiveCorpus.generate(
      in: reduxCorpus, files: options.files, scenarios: options.scenarios, steps: options.steps)
  } else {
    reduxScenarioCount = options.files * options.scenarios
  }
  // Only the sizes: this process does not read the Redux corpus (see --scan-child).
  let reduxPaths = try corpusPaths(in: reduxCorpus)
  let reduxBytes = try reduxPaths.reduce(0) {
    $0 + ((try FileManager.default.attributesOfItem(atPath: $1)[.size] as? NSNumber)?.intValue ?? 0)
  }
  print("redux:   \(reduxPaths.count) files, \(reduxScenarioCount) scenarios of \(options.steps) steps, \(String(format: "%.1f", Double(reduxBytes) / 1e6)) MB in \(reduxCorpus)")
}
print("binary:  \(binary)")
print("cores:   \(ProcessInfo.processInfo.activeProcessorCount)")
// Row (a) scans with the shared libyaml, the copy reducer-spec links (LibYAMLScan's SharedLibYAML):
// linking Yams puts its own copy of libyaml into this executable, which would win.
let sharedScan = SharedLibYAML()
let scanEvents: ([UInt8]) -> Int = sharedScan.map { scan in { scan.events(in: $0) } } ?? { LibYAMLScan.events(in: $0) }
print("libyaml: \(sharedScan.map { "the shared library, \($0.path)" } ?? "no shared libyaml found: the copy linked into this executable (Yams')")")
let stepCount = scenarioCount * options.steps
let runsYams = !options.skipYams
let runsCheck = !options.skipCheck
let runsFirstResult = !options.skipFirstResult
// The Yams row runs this executable again, with --yams-child.
let selfPath = Bundle.main.executablePath ?? CommandLine.arguments[0]

let output = NSTemporaryDirectory() + "reducer-spec-runner-output-\(getpid()).txt"
// The commands run in a directory of their own, so that the run record they read and write
// is always that of this corpus, whatever was run here before; one warm-up run writes it
// (and brings the binary and the corpus into the page cache) before round 1.
workDirectory = NSTemporaryDirectory() + "reducer-spec-runner-cwd-\(getpid())"
try FileManager.default.createDirectory(atPath: workDirectory!, withIntermediateDirectories: true)
let warmUp = measure([binary, "--jobs", "2", "--color", "never", corpus], output: output)
guard warmUp.status == 0, warmUp.lastLine == "\(scenarioCount) passed, 0 failed, 0 skipped" else {
  fail("the warm-up run exited \(warmUp.status) with \"\(warmUp.lastLine)\" (see \(output))")
}
// The Redux corpus's runs read and write a run record of their own.
let reduxWorkDirectory = workDirectory! + "/redux"
var scans: [Double] = []
var jobs1: [CommandRun] = []
var jobs2: [CommandRun] = []
var checks1: [CommandRun] = []
var checks2: [CommandRun] = []
var yams: [Double] = []
var firstResults: [FirstOutputRun] = []
var firstResultsNoRecord: [FirstOutputRun] = []
/// Row (i): both halves checked one after the other (the sum of the two runs), and at once
/// (the later of the two to end).
var halvesInTurn: [Double] = []
var halvesAtOnce: [Double] = []
/// Row (j): both halves run (`--jobs 1`) at once, each with a run record of its own (the
/// later of the two to end).
var halfRunsAtOnce: [Double] = []
/// Rows (k) and (l): the scan of the Redux corpus, and `reducer-spec --jobs 1` on it.
var reduxScans: [Double] = []
var reduxJobs1: [CommandRun] = []
let runsHalves = !options.skipHalves
let halves = [Array(paths[..<(paths.count / 2)]), Array(paths[(paths.count / 2)...])]
let halfOutputs = [output + ".first-half", output + ".second-half"]
let halfDirectories = ["first-half", "second-half"].map { workDirectory! + "/" + $0 }
let halfRuns = zip(halves, zip(halfOutputs, halfDirectories)).map { half, place in
  (arguments: [binary, "--jobs", "1", "--color", "never"] + half, output: place.0, directory: Optional(place.1))
}
/// Fails unless a run of `scenarios` scenarios exited 0 with every one of them passed.
func expectPassed(_ sample: CommandRun, scenarios: Int, name: String, output: String) {
  let expected = "\(scenarios) passed, 0 failed, 0 skipped"
  guard sample.status == 0, sample.lastLine == expected else {
    fail("\(name) exited \(sample.status) with \"\(sample.lastLine)\", expected \"\(expected)\" (see \(output))")
  }
}
if runsRedux {
  try FileManager.default.createDirectory(atPath: reduxWorkDirectory, withIntermediateDirectories: true)
  let sample = measure([binary, "--jobs", "2", "--color", "never", reduxCorpus], output: output, in: reduxWorkDirectory)
  expectPassed(sample, scenarios: reduxScenarioCount, name: "the warm-up run of the Redux corpus", output: output)
}
if runsHalves {
  // Each half's run record, written before round 1 as the warm-up run writes the corpus's.
  for (index, run) in halfRuns.enumerated() {
    try FileManager.default.createDirectory(atPath: run.directory!, withIntermediateDirectories: true)
    let sample = measure(run.arguments, output: run.output)
    expectPassed(sample, scenarios: halves[index].count * options.scenarios, name: "the warm-up run of half \(index + 1)", output: run.output)
  }
}
/// Fails unless a `check` of `files` files (and `scenarios` scenarios, when given) exited 0
/// with its summary line, "Checked 1000 files, 5000 scenarios: no problems.".
func expectChecked(_ sample: CommandRun, files: Int, scenarios: Int? = nil, name: String, output: String) {
  let line = sample.lastLine
  guard sample.status == 0, line.hasPrefix("Checked \(files) file"), line.hasSuffix("no problems."),
    scenarios.map({ line.contains(" \($0) scenario") }) ?? true
  else {
    let counted = scenarios.map { "\($0) scenarios" } ?? "…"
    fail("\(name) exited \(sample.status) with \"\(line)\", expected \"Checked \(files) files, \(counted): no problems.\" (see \(output))")
  }
}
for round in 1...options.repeats {
  let start = DispatchTime.now().uptimeNanoseconds
  let events = texts.reduce(0) { $0 + scanEvents($1) }
  scans.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
  precondition(events > 0)
  for (jobs, store) in [(1, 0), (2, 1)] {
    let sample = measure([binary, "--jobs", "\(jobs)", "--color", "never", corpus], output: output)
    expectPassed(sample, scenarios: scenarioCount, name: "--jobs \(jobs)", output: output)
    if store == 0 { jobs1.append(sample) } else { jobs2.append(sample) }
  }
  print(
    "round \(round): scan \(milliseconds(scans.last!)), --jobs 1 \(milliseconds(jobs1.last!.seconds)) "
      + "(CPU \(milliseconds(jobs1.last!.cpuSeconds))), --jobs 2 \(milliseconds(jobs2.last!.seconds)) "
      + "(CPU \(milliseconds(jobs2.last!.cpuSeconds)))")
  var more: [String] = []
  if runsRedux {
    let scan = measure([selfPath, "--scan-child", reduxCorpus], output: output)
    let fields = scan.lastLine.split(separator: " ")
    guard scan.status == 0, fields.count == 2, let seconds = Double(fields[0]), let events = Int(fields[1]), events > 0 else {
      fail("the scan of the Redux corpus (\(selfPath) --scan-child) exited \(scan.status) with \"\(scan.lastLine)\"")
    }
    reduxScans.append(seconds)
    let sample = measure([binary, "--jobs", "1", "--color", "never", reduxCorpus], output: output, in: reduxWorkDirectory)
    expectPassed(sample, scenarios: reduxScenarioCount, name: "--jobs 1 on the Redux corpus", output: output)
    reduxJobs1.append(sample)
    more.append(
      "Redux: scan \(milliseconds(reduxScans.last!)), --jobs 1 \(milliseconds(sample.seconds)) "
        + "(CPU \(milliseconds(sample.cpuSeconds)))")
  }
  if runsCheck {
    for jobs in [1, 2] {
      let sample = measure([binary, "check", "--jobs", "\(jobs)", "--color", "never", corpus], output: output)
      expectChecked(sample, files: paths.count, scenarios: scenarioCount, name: "check --jobs \(jobs)", output: output)
      if jobs == 1 { checks1.append(sample) } else { checks2.append(sample) }
    }
    more.append(
      "check --jobs 1 \(milliseconds(checks1.last!.seconds)) (CPU \(milliseconds(checks1.last!.cpuSeconds))), "
        + "check --jobs 2 \(milliseconds(checks2.last!.seconds)) (CPU \(milliseconds(checks2.last!.cpuSeconds)))")
  }
  if runsFirstResult {
    // (h) as a person runs it, then (h2) without the run record (see the README).
    for noRecord in [false, true] {
      let arguments = [binary, "--jobs", "2"] + (noRecord ? ["--no-record"] : []) + [corpus]
      let name = arguments.dropFirst().dropLast().joined(separator: " ") + " (stdout a pipe)"
      guard let sample = FirstOutputRun.measure(arguments, marker: "✓", directory: workDirectory) else {
        fail("cannot start \(binary)")
      }
      let expected = "\(scenarioCount) passed, 0 failed, 0 skipped"
      guard sample.status == 0, sample.lastLine == expected else {
        fail("\(name) exited \(sample.status) with \"\(sample.lastLine)\", expected \"\(expected)\"")
      }
      guard let first = sample.markerSeconds else { fail("\(name) printed no line with \"✓\"") }
      if noRecord {
        firstResultsNoRecord.append(sample)
        more.append("with --no-record \(milliseconds(first))")
      } else {
        firstResults.append(sample)
        more.append(
          "first result \(milliseconds(first)) (first output \(milliseconds(sample.firstOutputSeconds!)), "
            + "whole run \(milliseconds(sample.seconds)))")
      }
    }
  }
  if runsHalves {
    // (i): the same work as one `check --jobs 1` of the corpus, in two processes that share
    // nothing, first one after the other and then at once.
    let commands = zip(halves, halfOutputs).map { ([binary, "check", "--jobs", "1", "--color", "never"] + $0, $1) }
    var inTurn = 0.0
    for (index, command) in commands.enumerated() {
      let sample = measure(command.0, output: command.1)
      expectChecked(sample, files: halves[index].count, name: "check of half \(index + 1)", output: command.1)
      inTurn += sample.seconds
    }
    guard let together = CommandRun.measureTogether(commands.map { ($0.0, $0.1, workDirectory) }) else {
      fail("cannot start \(binary)")
    }
    for (index, sample) in together.enumerated() {
      expectChecked(sample, files: halves[index].count, name: "check of half \(index + 1), at once", output: halfOutputs[index])
    }
    let atOnce = together.map(\.seconds).max()!
    halvesInTurn.append(inTurn)
    halvesAtOnce.append(atOnce)
    more.append(
      "halves in turn \(milliseconds(inTurn)), at once \(milliseconds(atOnce)) (\(String(format: "%.2fx", inTurn / atOnce)))")
    // (j): the run split into two runs that share nothing, both at once.
    guard let runs = CommandRun.measureTogether(halfRuns) else { fail("cannot start \(binary)") }
    for (index, sample) in runs.enumerated() {
      expectPassed(sample, scenarios: halves[index].count * options.scenarios, name: "the run of half \(index + 1), at once", output: halfOutputs[index])
    }
    halfRunsAtOnce.append(runs.map(\.seconds).max()!)
    more.append("runs of the halves at once \(milliseconds(halfRunsAtOnce.last!))")
  }
  if runsYams {
    let seconds = yamsSeconds(measure([selfPath, "--yams-child", corpus], output: output))
    yams.append(seconds)
    more.append("Yams \(milliseconds(seconds))")
  }
  if !more.isEmpty { print("         " + more.joined(separator: ", ")) }
}
var versions: [Double] = []
for _ in 0..<options.versionRuns {
  versions.append(measure([binary, "--version"], output: output).seconds)
}

func cell(_ seconds: Double) -> String { seconds >= 1 ? String(format: "%.2f s", seconds) : milliseconds(seconds) }
let scan = summary(scans)
let version = summary(versions)
print("")
print("| what | best | median | highest |")
print("| --- | --- | --- | --- |")
func row(_ name: String, _ values: [Double]) {
  guard !values.isEmpty else { return }
  let (best, median, highest) = summary(values)
  print("| \(name) | \(cell(best)) | \(cell(median)) | \(cell(highest)) |")
}
row("(a) libyaml's raw event scan of the corpus", scans)
row("(b) `reducer-spec --jobs 1`", jobs1.map(\.seconds))
row("(c) `reducer-spec --jobs 2`", jobs2.map(\.seconds))
row("(d) `reducer-spec --version`", versions)
row("(e) `reducer-spec check --jobs 1`", checks1.map(\.seconds))
row("(f) `reducer-spec check --jobs 2`", checks2.map(\.seconds))
row("(g) Yams' `YAMLDecoder`, every file into Codable structs", yams)
row("(h) `reducer-spec --jobs 2`: its first scenario result on a pipe", firstResults.compactMap(\.markerSeconds))
row("(h2) the same with `--no-record`", firstResultsNoRecord.compactMap(\.markerSeconds))
row("(i) `check --jobs 1` of each half of the corpus, one after the other", halvesInTurn)
row("(i) the same, both halves at once", halvesAtOnce)
row("(j) `reducer-spec --jobs 1` of each half, both at once", halfRunsAtOnce)
row("(k) libyaml's raw event scan of the Redux corpus", reduxScans)
row("(l) `reducer-spec --jobs 1` on the Redux corpus", reduxJobs1.map(\.seconds))

// Each round's rows run one after another, so a round's own ratios see the same machine:
// on a VM whose speed drifts, their median is the steadier figure. A target is met or not by
// that median (by the median of the runs for (d) and (h), which are no ratios).
print("")
print("| ratio | best | median | within a round: lowest | median | highest | target | |")
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
enum Goal {
  case atMost(Double), below(Double), atLeast(Double), none
  func met(_ value: Double) -> String {
    switch self {
    case .atMost(let limit): value <= limit ? "met" : "not met"
    case .below(let limit): value < limit ? "met" : "not met"
    case .atLeast(let limit): value >= limit ? "met" : "not met"
    case .none: ""
    }
  }
}
func ratio(_ name: String, _ top: [Double], _ bottom: [Double], digits: Int, target: String, _ goal: Goal) {
  guard !top.isEmpty, !bottom.isEmpty else { return }
  let (topBest, topMedian, _) = summary(top)
  let (bottomBest, bottomMedian, _) = summary(bottom)
  let rounds = summary(zip(top, bottom).map { $0 / $1 })
  let x = "%.\(digits)fx"
  let cells = [topBest / bottomBest, topMedian / bottomMedian, rounds.best, rounds.median, rounds.highest]
    .map { String(format: x, $0) }
  print("| \(name) | \(cells.joined(separator: " | ")) | \(target) | \(goal.met(rounds.median)) |")
}
ratio("(b) / (a): the run over the scan", jobs1.map(\.seconds), scans, digits: 1, target: "within 4x", .atMost(4))
ratio(
  "(b) / (c): speed-up of a second worker", jobs1.map(\.seconds), jobs2.map(\.seconds), digits: 2,
  target: "at least 1.8x", .atLeast(1.8))
ratio("(e) / (a): `check --jobs 1` over the scan", checks1.map(\.seconds), scans, digits: 2, target: "within 2x", .atMost(2))
ratio("(f) / (a): `check --jobs 2` over the scan", checks2.map(\.seconds), scans, digits: 2, target: "under 2x", .below(2))
ratio(
  "(e) / (f): speed-up of check's second process", checks1.map(\.seconds), checks2.map(\.seconds), digits: 2,
  target: "", .none)
ratio("(g) / (e): Yams over `check --jobs 1`", yams, checks1.map(\.seconds), digits: 1, target: "at least 15x", .atLeast(15))
ratio("(g) / (f): Yams over `check --jobs 2`", yams, checks2.map(\.seconds), digits: 1, target: "", .none)
ratio(
  "(i): two halves in turn over at once, what a second process gains here", halvesInTurn, halvesAtOnce, digits: 2,
  target: "", .none)
ratio(
  "(b) / (j): the run split into two runs that share nothing, over `--jobs 1`", jobs1.map(\.seconds), halfRunsAtOnce,
  digits: 2, target: "", .none)
ratio("(j) / (c): `--jobs 2` against that split (above 1x: faster)", halfRunsAtOnce, jobs2.map(\.seconds), digits: 2, target: "", .none)
ratio("(l) / (b): the Redux run over the Counter run", reduxJobs1.map(\.seconds), jobs1.map(\.seconds), digits: 2, target: "", .none)
ratio("(l) / (k): the Redux run over the scan of its corpus", reduxJobs1.map(\.seconds), reduxScans, digits: 1, target: "", .none)
ratio("(k) / (a): the Redux corpus's scan over the Counter corpus's", reduxScans, scans, digits: 2, target: "", .none)
print("| (d) `--version` | \(milliseconds(version.best)) | \(milliseconds(version.median)) | | | | under 15 ms | \(Goal.below(0.015).met(version.median)) |")
if !firstResults.isEmpty {
  let first = summary(firstResults.compactMap(\.markerSeconds))
  print(
    "| (h) first scenario result | \(milliseconds(first.best)) | \(milliseconds(first.median)) | | | | within 50 ms "
      + "| \(Goal.atMost(0.050).met(first.median)) |")
}
print("")
var cpu = "CPU time (user + system, workers included), median: --jobs 1 \(milliseconds(summary(jobs1.map(\.cpuSeconds)).median)), "
  + "--jobs 2 \(milliseconds(summary(jobs2.map(\.cpuSeconds)).median))"
if runsCheck {
  cpu += ", check --jobs 1 \(milliseconds(summary(checks1.map(\.cpuSeconds)).median)), "
    + "check --jobs 2 \(milliseconds(summary(checks2.map(\.cpuSeconds)).median))"
}
if runsRedux {
  cpu += ", Redux --jobs 1 \(milliseconds(summary(reduxJobs1.map(\.cpuSeconds)).median))"
}
print(cpu)
if !firstResults.isEmpty {
  let firstOutput = summary(firstResults.compactMap(\.firstOutputSeconds))
  let whole = summary(firstResults.map(\.seconds))
  print(
    "(h)'s run, median (range): first output of any kind \(milliseconds(firstOutput.median)) "
      + "(\(milliseconds(firstOutput.best))–\(milliseconds(firstOutput.highest))), the whole run \(cell(whole.median)) "
      + "(\(cell(whole.best))–\(cell(whole.highest)))")
}
let peak1 = jobs1.map(\.peakBytes).max()!
let peak2 = jobs2.map(\.peakBytes).max()!
print(String(format: "peak memory of the largest process: --jobs 1 %.1f MB, --jobs 2 %.1f MB (target: under 200 MB)", Double(peak1) / 1e6, Double(peak2) / 1e6))
if runsRedux {
  print(String(format: "peak memory of the Redux run: --jobs 1 %.1f MB", Double(reduxJobs1.map(\.peakBytes).max()!) / 1e6))
}
if runsCheck {
  print(
    String(
      format: "peak memory of check: --jobs 1 %.1f MB, --jobs 2 %.1f MB", Double(checks1.map(\.peakBytes).max()!) / 1e6,
      Double(checks2.map(\.peakBytes).max()!) / 1e6))
}
if options.countsInstructions {
  let (check, checkRun) = instructions(
    [binary, "check", "--jobs", "1", "--color", "never", corpus], name: "check", output: output)
  expectChecked(checkRun, files: paths.count, scenarios: scenarioCount, name: "check under Callgrind", output: output)
  let (yams, yamsRun) = instructions([selfPath, "--yams-child", corpus], name: "yams", output: output)
  _ = yamsSeconds(yamsRun)
  let ratio = Double(yams) / Double(check)
  print(
    String(
      format: "instructions (Callgrind): check --jobs 1 %.1f M, Yams %.1f M; Yams over check %.2fx (target at least 15x: %@)",
      Double(check) / 1e6, Double(yams) / 1e6, ratio, Goal.atLeast(15).met(ratio)))
}
try? FileManager.default.removeItem(atPath: output)
for path in halfOutputs { try? FileManager.default.removeItem(atPath: path) }
try? FileManager.default.removeItem(atPath: workDirectory!)
if options.directory == nil { try? FileManager.default.removeItem(atPath: corpus) }
if runsRedux, options.reduxDirectory == nil { try? FileManager.default.removeItem(atPath: reduxCorpus) }
