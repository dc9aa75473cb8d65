#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibYAML
import LibYAMLScan
import Foundation

/// libyaml's event scan with nothing built: `yaml_parser_parse` in a loop, each event
/// deleted at once. The floor for any parser built on libyaml's event API.
enum RawScan {
  /// The number of events in the text.
  static func events(in bytes: [UInt8]) -> Int {
    LibYAMLScan.events(in: bytes)
  }

  /// The address `yaml_parser_parse` resolved to in this executable.
  static var parseAddress: UnsafeRawPointer {
    let function: @convention(c) (UnsafeMutablePointer<yaml_parser_t>?, UnsafeMutablePointer<yaml_event_t>?) -> Int32 =
      yaml_parser_parse
    return unsafeBitCast(function, to: UnsafeRawPointer.self)
  }

  /// Which copy of libyaml (a)-(c) run: the shared library, or a copy linked statically into
  /// this executable (Yams vendors libyaml's sources under the same symbol names).
  static func resolvedLibrary(shared: SharedLibYAML?) -> String {
    let file = objectFile(containing: parseAddress)
    if let shared, unsafeBitCast(shared.parse, to: UnsafeRawPointer.self) == parseAddress {
      return "the shared libyaml, " + (file ?? shared.path)
    }
    let executable = CommandLine.arguments.first.map { ($0 as NSString).lastPathComponent } ?? "this executable"
    if let file, !file.contains("libyaml") {
      return "a copy linked into the executable (\((file as NSString).lastPathComponent)): Yams' vendored libyaml"
    }
    return file ?? "a copy inside \(executable)"
  }
}
