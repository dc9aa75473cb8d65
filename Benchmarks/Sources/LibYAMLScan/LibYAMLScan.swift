#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import CLibYAML
import Foundation

/// libyaml's event scan with nothing built: `yaml_parser_parse` in a loop, each event
/// deleted at once. The floor for any parser built on libyaml's event API.
public enum LibYAMLScan {
  /// The number of events in the text.
  public static func events(in bytes: [UInt8]) -> Int {
    // libyaml keeps a pointer to the parser itself, so it needs a stable address.
    let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
    defer { parser.deallocate() }
    guard yaml_parser_initialize(parser) == 1 else { fatalError("yaml_parser_initialize failed") }
    defer { yaml_parser_delete(parser) }
    return bytes.withUnsafeBufferPointer { buffer in
      yaml_parser_set_input_string(parser, buffer.baseAddress, buffer.count)
      var event = yaml_event_t()
      var count = 0
      while true {
        guard yaml_parser_parse(parser, &event) == 1 else {
          let problem = parser.pointee.problem.map { String(cString: $0) } ?? "unknown"
          fatalError("libyaml: \(problem) at line \(parser.pointee.problem_mark.line + 1)")
        }
        let type = event.type
        yaml_event_delete(&event)
        count += 1
        if type == YAML_STREAM_END_EVENT { return count }
      }
    }
  }
}

/// The file mapped at an address, from /proc/self/maps (Linux); `nil` elsewhere.
public func objectFile(containing address: UnsafeRawPointer) -> String? {
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
/// system's copy even when another copy is linked into the executable: linking Yams puts
/// Yams' vendored copy of libyaml's sources, under the same symbol names, into the
/// executable, and that static copy wins at link time over the shared library.
public struct SharedLibYAML {
  public typealias Initialize = @convention(c) (UnsafeMutablePointer<yaml_parser_t>?) -> Int32
  public typealias Delete = @convention(c) (UnsafeMutablePointer<yaml_parser_t>?) -> Void
  public typealias SetInput = @convention(c) (UnsafeMutablePointer<yaml_parser_t>?, UnsafePointer<UInt8>?, Int) -> Void
  public typealias Parse = @convention(c) (UnsafeMutablePointer<yaml_parser_t>?, UnsafeMutablePointer<yaml_event_t>?) -> Int32
  public typealias EventDelete = @convention(c) (UnsafeMutablePointer<yaml_event_t>?) -> Void

  public let path: String
  public let initialize: Initialize
  public let delete: Delete
  public let setInput: SetInput
  public let parse: Parse
  public let eventDelete: EventDelete

  public init?() {
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

  public func events(in bytes: [UInt8]) -> Int {
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
