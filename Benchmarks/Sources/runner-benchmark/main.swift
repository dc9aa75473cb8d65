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

// MARK: - Measuring

/// Runs a command, its output to a file, and measures its wall time and peak memory.
func measure(_ arguments: [String], output: String) -> CommandRun {
  guard let run = CommandRun.measure(arguments, output: output) else {
    fail("cannot start \(arguments[0]): build it with `swift build -c release --product reducer-spec` in the root package")
  }
  return run
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
  scenarioCount = try CounterCorpus.generate(
    in: corpus, files: options.files, scenarios: options.scenarios, steps: options.steps)
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
var jobs1: [CommandRun] = []
var jobs2: [CommandRun] = []
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
