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

/// The file mapped at an address, from /proc/self/maps (Linux); `nil` elsewhere.
func objectFile(containing address: UnsafeRawPointer) -> String? {
  guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return nil }
  let value = UInt(bitPattern: address)
  for line in maps.split(separator: "\n") {
    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
    guard fields.count >= 6 else { continue }
    let range = fields[0].split(separator: "-")
    guard range.count == 2, let low = UInt(range[0], radix: 16), let high = UInt(range[1], radix: 16) else { continue }
    if value >= low, value < high { return fields[5...].joined(separator: " ") }
  }
  return nil
}

/// The same scan through the shared libyaml opened with `dlopen`, so that it runs the
/// system's copy even when another copy is linked into the executable.
struct SharedLibYAML {
  typealias Initialize = @convention(c) (UnsafeMutablePointer<yaml_parser_t>?) -> Int32
  typealias Delete = @convention(c) (UnsafeMutablePointer<yaml_parser_t>?) -> Void
  typealias SetInput = @convention(c) (UnsafeMutablePointer<yaml_parser_t>?, UnsafePointer<UInt8>?, Int) -> Void
  typealias Parse = @convention(c) (UnsafeMutablePointer<yaml_parser_t>?, UnsafeMutablePointer<yaml_event_t>?) -> Int32
  typealias EventDelete = @convention(c) (UnsafeMutablePointer<yaml_event_t>?) -> Void

  let path: String
  let initialize: Initialize
  let delete: Delete
  let setInput: SetInput
  let parse: Parse
  let eventDelete: EventDelete

  init?() {
    let candidates = ["libyaml-0.so.2", "libyaml.so", "libyaml.dylib", "/opt/homebrew/lib/libyaml.dylib"]
    guard let (name, handle) = candidates.lazy.compactMap({ name in dlopen(name, RTLD_NOW | RTLD_LOCAL).map { (name, $0) } }).first
    else { return nil }
    func symbol<T>(_ name: String, as type: T.Type) -> T? {
      dlsym(handle, name).map { unsafeBitCast($0, to: T.self) }
    }
    guard let initialize = symbol("yaml_parser_initialize", as: Initialize.self),
      let delete = symbol("yaml_parser_delete", as: Delete.self),
      let setInput = symbol("yaml_parser_set_input_string", as: SetInput.self),
      let parse = symbol("yaml_parser_parse", as: Parse.self),
      let eventDelete = symbol("yaml_event_delete", as: EventDelete.self)
    else { return nil }
    path = objectFile(containing: unsafeBitCast(parse, to: UnsafeRawPointer.self)) ?? name
    self.initialize = initialize
    self.delete = delete
    self.setInput = setInput
    self.parse = parse
    self.eventDelete = eventDelete
  }

  func events(in bytes: [UInt8]) -> Int {
    let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
    defer { parser.deallocate() }
    guard initialize(parser) == 1 else { fatalError("yaml_parser_initialize failed") }
    defer { delete(parser) }
    return bytes.withUnsafeBufferPointer { buffer in
      setInput(parser, buffer.baseAddress, buffer.count)
      var event = yaml_event_t()
      var count = 0
      while true {
        guard parse(parser, &event) == 1 else { fatalError("libyaml failed to parse the corpus") }
        let type = event.type
        eventDelete(&event)
        count += 1
        if type == YAML_STREAM_END_EVENT { return count }
      }
    }
  }
}
