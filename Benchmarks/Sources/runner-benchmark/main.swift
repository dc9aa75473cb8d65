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
      case "-h", "--help":
        print("runner-benchmark [--binary PATH] [--files N] [--scenarios N] [--steps N] [--repeat N] [--version-runs N] [--corpus DIR]")
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

// MARK: - The corpus

/// Writes `files` spec files of the example `Counter`, each with `scenarios` scenarios of
/// `steps` steps: sends of `increment`, `decrement` and `setCount` with the state each
/// leaves, as a person would write them. Each scenario starts from its own `initialState`
/// and jumps to its own numbers, drawn from a seeded generator, so that no two scenarios
/// (and no two files) repeat each other: a cache of states or actions cannot make the run
/// look faster than a real suite would. Deterministic.
func generateCorpus(in directory: String, options: Options) throws -> Int {
  try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  var random = SeededGenerator(seed: 0x5EED)
  var total = 0
  for file in 0..<options.files {
    var text = """
      feature: Counter
      description: |
        Generated spec \(file + 1) for the runner benchmark: the counter counts up and
        down, and setCount jumps to a number.
      tags: [generated]
      scenarios:

      """
    for scenario in 0..<options.scenarios {
      var count = random.next(in: -50_000...50_000)
      let secret = random.next(in: -100...100)
      text += "  - name: Scenario \(scenario + 1) of file \(file + 1) counts as it is told\n"
      text += "    initialState: { count: \(count), secret: \(secret) }\n"
      text += "    steps:\n"
      for _ in 0..<options.steps {
        switch random.next(in: 0...4) {
        case 0, 1, 2:
          count += 1
          text += "      - send: increment\n        state: { count: \(count) }\n"
        case 3:
          count -= 1
          text += "      - send: decrement\n        state: { count: \(count) }\n"
        default:
          count = random.next(in: -50_000...50_000)
          text += "      - send: { setCount: \"\(count)\" }\n        state: { count: \(count) }\n"
        }
      }
      total += 1
    }
    let path = (directory as NSString).appendingPathComponent(String(format: "spec-%04d.yaml", file))
    try text.write(toFile: path, atomically: false, encoding: .utf8)
  }
  return total
}

// MARK: - Measuring

struct Sample {
  var seconds: Double
  /// User and system time of the process and every process it waited for (its workers).
  var cpuSeconds: Double
  /// The largest resident set of the process or any process it waited for, in bytes.
  var peakBytes: Int
  var lastLine: String
  var status: Int32
}

/// Runs a command, its output to a file, and measures its wall time and peak memory.
func measure(_ arguments: [String], output: String) -> Sample {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
  var argv = arguments.map { strdup($0) } + [nil]
  defer { for pointer in argv { free(pointer) } }
  var environment = ProcessInfo.processInfo.environment
  environment["NO_COLOR"] = "1"
  environment.removeValue(forKey: "GITHUB_ACTIONS")
  var envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
  defer { for pointer in envp { free(pointer) } }
  var pid: pid_t = 0
  let start = DispatchTime.now().uptimeNanoseconds
  guard posix_spawn(&pid, arguments[0], &actions, nil, &argv, &envp) == 0 else {
    fail("cannot start \(arguments[0]): build it with `swift build -c release --product reducer-spec` in the root package")
  }
  var status: Int32 = 0
  var usage = rusage()
  _ = wait4(pid, &status, 0, &usage)
  let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
  let lastLine = text.split(separator: "\n").last.map(String.init) ?? ""
  let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
  // Linux reports ru_maxrss in kilobytes.
  func inSeconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
  return Sample(
    seconds: seconds, cpuSeconds: inSeconds(usage.ru_utime) + inSeconds(usage.ru_stime),
    peakBytes: Int(usage.ru_maxrss) * 1024, lastLine: lastLine, status: exitStatus)
}

func summary(_ values: [Double]) -> (best: Double, median: Double) {
  let sorted = values.sorted()
  return (sorted[0], sorted[sorted.count / 2])
}

func milliseconds(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }

// MARK: - Main

let options = Options(arguments: Array(CommandLine.arguments.dropFirst()))
let binary = (options.binary as NSString).standardizingPath
guard FileManager.default.isExecutableFile(atPath: binary) else {
  fail("no executable at \(binary): build it with `swift build -c release --product reducer-spec` in the root package")
}
let corpus = options.directory ?? NSTemporaryDirectory() + "reducer-spec-runner-corpus-\(getpid())"
let scenarioCount: Int
if options.directory == nil || !FileManager.default.fileExists(atPath: corpus) {
  scenarioCount = try generateCorpus(in: corpus, options: options)
} else {
  scenarioCount = options.files * options.scenarios
}
let paths = try FileManager.default.contentsOfDirectory(atPath: corpus).filter { $0.hasSuffix(".yaml") }.sorted()
let texts = try paths.map { try [UInt8](Data(contentsOf: URL(fileURLWithPath: (corpus as NSString).appendingPathComponent($0)))) }
let bytes = texts.reduce(0) { $0 + $1.count }
print("corpus:  \(paths.count) files, \(scenarioCount) scenarios of \(options.steps) steps, \(String(format: "%.1f", Double(bytes) / 1e6)) MB in \(corpus)")
print("binary:  \(binary)")
print("cores:   \(ProcessInfo.processInfo.activeProcessorCount)")

let output = NSTemporaryDirectory() + "reducer-spec-runner-output-\(getpid()).txt"
var scans: [Double] = []
var jobs1: [Sample] = []
var jobs2: [Sample] = []
for round in 1...options.repeats {
  let start = DispatchTime.now().uptimeNanoseconds
  let events = texts.reduce(0) { $0 + LibYAMLScan.events(in: $1) }
  scans.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
  precondition(events > 0)
  for (jobs, store) in [(1, 0), (2, 1)] {
    let sample = measure([binary, "--jobs", "\(jobs)", "--color", "never", corpus], output: output)
    let expected = "\(scenarioCount) passed, 0 failed, 0 skipped"
    guard sample.status == 0, sample.lastLine == expected else {
      fail("--jobs \(jobs) exited \(sample.status) with \"\(sample.lastLine)\", expected \"\(expected)\" (see \(output))")
    }
    if store == 0 { jobs1.append(sample) } else { jobs2.append(sample) }
  }
  print(
    "round \(round): scan \(milliseconds(scans.last!)), --jobs 1 \(milliseconds(jobs1.last!.seconds)) "
      + "(CPU \(milliseconds(jobs1.last!.cpuSeconds))), --jobs 2 \(milliseconds(jobs2.last!.seconds)) "
      + "(CPU \(milliseconds(jobs2.last!.cpuSeconds)))")
}
var versions: [Double] = []
for _ in 0..<options.versionRuns {
  versions.append(measure([binary, "--version"], output: output).seconds)
}

let scan = summary(scans)
let one = summary(jobs1.map(\.seconds))
let two = summary(jobs2.map(\.seconds))
let version = summary(versions)
let peak1 = jobs1.map(\.peakBytes).max()!
let peak2 = jobs2.map(\.peakBytes).max()!
print("")
print("| what | best | median |")
print("| --- | --- | --- |")
print("| (a) libyaml's raw event scan of the corpus | \(milliseconds(scan.best)) | \(milliseconds(scan.median)) |")
print("| (b) `reducer-spec --jobs 1` | \(milliseconds(one.best)) | \(milliseconds(one.median)) |")
print("| (c) `reducer-spec --jobs 2` | \(milliseconds(two.best)) | \(milliseconds(two.median)) |")
print("| (d) `reducer-spec --version` | \(milliseconds(version.best)) | \(milliseconds(version.median)) |")
print("")
print("| ratio | best | median | target |")
print("| --- | --- | --- | --- |")
print(String(format: "| (b) / (a) | %.1fx | %.1fx | within 10x |", one.best / scan.best, one.median / scan.median))
print(String(format: "| (b) / (c): speed-up of a second worker | %.2fx | %.2fx | at least 1.6x |", one.best / two.best, one.median / two.median))
// Each round's rows run one after another, so a round's own ratios see the same machine:
// on a VM whose speed drifts, their median is the steadier figure.
let roundScanRatios = zip(jobs1, scans).map { $0.seconds / $1 }
let roundSpeedUps = zip(jobs1, jobs2).map { $0.seconds / $1.seconds }
print("")
print("| ratio within each round | lowest | median | highest |")
print("| --- | --- | --- | --- |")
for (name, ratios, digits) in [("(b) / (a)", roundScanRatios, 1), ("(b) / (c)", roundSpeedUps, 2)] {
  let sorted = ratios.sorted()
  let format = "| \(name) | %.\(digits)fx | %.\(digits)fx | %.\(digits)fx |"
  print(String(format: format, sorted.first!, sorted[sorted.count / 2], sorted.last!))
}
print("")
print(
  "CPU time (user + system, workers included), median: --jobs 1 \(milliseconds(summary(jobs1.map(\.cpuSeconds)).median)), "
    + "--jobs 2 \(milliseconds(summary(jobs2.map(\.cpuSeconds)).median))")
print(String(format: "peak memory of the largest process: --jobs 1 %.1f MB, --jobs 2 %.1f MB (target: under 200 MB)", Double(peak1) / 1e6, Double(peak2) / 1e6))
try? FileManager.default.removeItem(atPath: output)
if options.directory == nil { try? FileManager.default.removeItem(atPath: corpus) }
