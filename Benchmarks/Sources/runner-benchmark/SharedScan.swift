#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibYAML
import Foundation

/// Row (a): libyaml's raw event scan through the system's shared libyaml, opened with
/// `dlopen`, the copy that `reducer-spec` itself links. Linking Yams (row (g)) puts Yams'
/// vendored copy of libyaml's sources, under the same symbol names, into this executable,
/// and that static copy wins at link time over the shared library: without `dlopen`,
/// `LibYAMLScan` would scan with Yams' copy. (yaml-benchmark's row (a2) does the same.)
struct SharedScan {
  typealias Initialize = @convention(c) (UnsafeMutablePointer<yaml_parser_t>?) -> Int32
  typealias Delete = @convention(c) (UnsafeMutablePointer<yaml_parser_t>?) -> Void
  typealias SetInput = @convention(c) (UnsafeMutablePointer<yaml_parser_t>?, UnsafePointer<UInt8>?, Int) -> Void
  typealias Parse = @convention(c) (UnsafeMutablePointer<yaml_parser_t>?, UnsafeMutablePointer<yaml_event_t>?) -> Int32
  typealias EventDelete = @convention(c) (UnsafeMutablePointer<yaml_event_t>?) -> Void

  /// The file the scan's `yaml_parser_parse` lives in.
  let path: String
  let initialize: Initialize
  let delete: Delete
  let setInput: SetInput
  let parse: Parse
  let eventDelete: EventDelete

  init?() {
    let candidates = ["libyaml-0.so.2", "libyaml.so", "libyaml.dylib", "/opt/homebrew/lib/libyaml.dylib"]
    guard
      let (name, handle) = candidates.lazy.compactMap({ name in dlopen(name, RTLD_NOW | RTLD_LOCAL).map { (name, $0) } })
        .first
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
    path = Self.objectFile(containing: unsafeBitCast(parse, to: UnsafeRawPointer.self)) ?? name
    self.initialize = initialize
    self.delete = delete
    self.setInput = setInput
    self.parse = parse
    self.eventDelete = eventDelete
  }

  /// The number of events in the text.
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

  /// The file mapped at an address, from /proc/self/maps (Linux); `nil` elsewhere.
  static func objectFile(containing address: UnsafeRawPointer) -> String? {
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
}
