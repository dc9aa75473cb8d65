import Foundation
import FuzzTargets

// The fuzzing executable. Built for libFuzzer (Fuzz/run: `-sanitize=fuzzer,address
// -parse-as-library -DFUZZING`), it is the target that FUZZ_TARGET names, and libFuzzer
// owns `main` and the arguments. Built as usual (`swift build`), it replays inputs:
// `reducer-spec-fuzz TARGET FILE|DIRECTORY…` runs each file through the target and prints
// what did not hold, to reproduce what the fuzzer found without libFuzzer.

#if FUZZING
  /// libFuzzer's driver, which parses its options and calls the entry point per input.
  @_silgen_name("LLVMFuzzerRunDriver")
  func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
  ) -> CInt

  /// The executable's entry point: SwiftPM links an executable target with its `main`
  /// named `<module>_main`, which this is; it hands the arguments to libFuzzer.
  @_cdecl("reducer_spec_fuzz_main")
  public func fuzzMain(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
  ) -> CInt {
    var count = argc
    var arguments = argv
    return runDriver(&count, &arguments) { data, size in fuzzOneInput(data, size) }
  }

  /// The target, from the environment: read once, before the first input.
  nonisolated(unsafe) private var selected: FuzzTarget?

  @_cdecl("LLVMFuzzerTestOneInput")
  public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    if selected == nil {
      guard let name = ProcessInfo.processInfo.environment["FUZZ_TARGET"], let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        fatalError("set FUZZ_TARGET to one of: \(names)")
      }
      selected = target
    }
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let violations = MainActor.assumeIsolated { selected!.run(bytes) }
    if !violations.isEmpty {
      // A trap makes libFuzzer keep the input as a crash (crash-SHA1).
      fatalError("\(selected!.rawValue): " + violations.joined(separator: "\n"))
    }
    return 0
  }
#else
  @main
  enum Replay {
    @MainActor
    static func main() {
      let arguments = Array(CommandLine.arguments.dropFirst())
      guard let name = arguments.first, let target = FuzzTarget(rawValue: name), arguments.count > 1 else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
        FileHandle.standardError.write(Data("usage: reducer-spec-fuzz \(names) FILE|DIRECTORY...\n".utf8))
        exit(64)
      }
      var failed = 0
      var count = 0
      for path in FuzzInputs.files(at: Array(arguments.dropFirst())) {
        count += 1
        let violations = target.run(FuzzInputs.read(path))
        guard !violations.isEmpty else { continue }
        failed += 1
        print("\(path):\n  " + violations.joined(separator: "\n  "))
      }
      print("\(target.rawValue): \(count) inputs, \(failed) with violations")
      exit(failed == 0 ? 0 : 1)
    }
  }
#endif
