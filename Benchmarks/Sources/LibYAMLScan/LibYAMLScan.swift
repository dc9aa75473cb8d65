import CLibYAML

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
