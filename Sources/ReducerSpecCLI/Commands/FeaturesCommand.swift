import ArgumentParser
import SpecAuthoring
import SpecProcess
import SpecRunner
import SpecYAML

/// `reducer-spec features [NAME]`: lists the registered features, or describes one: its
/// default state, its state's fields, its actions and its stubs, with the shape of every
/// value, found from the Swift types (``ShapeProbe``).
struct FeaturesCommand: Subcommand {
  static let configuration = CommandConfiguration(
    commandName: "features",
    abstract: "Lists the registered features, or describes one: its default state, its actions and its stubs.")

  @Argument(help: "A feature to describe; without it, the registered features are listed.")
  var name: String?

  @OptionGroup var colorOption: ColorOption

  func run(in context: CommandContext) throws -> Int32 {
    let features = context.engine.features
    let style = TerminalStyle(enabled: colorOption.isOn(in: context))
    guard let name else {
      context.output(FeatureCatalog.list(features))
      return 0
    }
    guard let feature = features[name] else {
      context.errorOutput(FeatureCatalog.unknownFeature(name, in: features) + "\n")
      return 64
    }
    do {
      context.output(style.headings(try FeatureCatalog.describe(feature)))
    } catch {
      context.errorOutput("Error: cannot encode the default state of `\(name)`: \(error)\n")
      return 1
    }
    return 0
  }
}

/// The text of `reducer-spec features`.
@MainActor
enum FeatureCatalog {
  /// One line per feature, sorted by name: its name and how many actions and stubs it has.
  static func list(_ features: [String: Feature]) -> String {
    let names = features.keys.sorted()
    let width = names.map(\.count).max() ?? 0
    var out = ""
    for name in names {
      let feature = features[name]!
      let actions = FeatureShapes(feature).actionCases.count
      let stubs = feature.stubs.count
      out += name.padding(toLength: width + 2, withPad: " ", startingAt: 0)
        + counted(actions, "action") + ", " + counted(stubs, "stub") + "\n"
    }
    if names.isEmpty { out += "No features are registered.\n" }
    out += "\nDescribe one with `\(ProgramName.current) features NAME`.\n"
    return out
  }

  /// `Error: unknown feature `Countr`; did you mean `Counter`? The registered features are …`
  static func unknownFeature(_ name: String, in features: [String: Feature]) -> String {
    let names = features.keys.sorted()
    return "Error: unknown feature `\(name)`" + Suggestion.hint(for: name, in: names)
      + (names.isEmpty
        ? "; no features are registered"
        : "; the registered features are " + names.map { "`\($0)`" }.joined(separator: ", "))
  }

  /// A feature's default state, state, actions, stubs and the types they use.
  static func describe(_ feature: Feature) throws -> String {
    let shapes = FeatureShapes(feature)
    var text = ShapeText()
    var out = "\(feature.name)\n"

    out += "\nDefault state (what `initialState:` assigns onto):\n"
    let state = try feature.types.defaultState()
    out += indent(YAMLEmitter.block(state), by: 2)

    switch shapes.state {
    case .record(_, let fields):
      out += "\nState fields (assign them in `state:` and `initialState:`):\n"
      for field in fields { out += "  " + text.field(field) + "\n" }
    case .enumeration(_, let cases):
      out += "\nState cases (assign `self: { CASE: … }`, or `CASE.FIELD: …` in the current case):\n"
      for item in cases { out += "  " + text.caseLine(item) + "\n" }
    default:
      out += "\nState (assign `self: …`):\n  \(text.text(shapes.state))\n"
    }

    out += "\nActions (`send:` and `receive:`):\n"
    for item in shapes.actionCases { out += "  " + text.caseLine(item) + "\n" }
    if shapes.actionCases.isEmpty { out += "  \(text.text(shapes.action))\n" }

    let sharedFields = feature.types.sharedFields()
    if !sharedFields.isEmpty {
      out += "\nShared state (fields kept under a key; seed their values with `shared:`):\n"
      for field in sharedFields {
        if let seed = field.seed {
          let key = YAMLEmitter.keyNeedsQuotes(seed.key) ? YAMLEmitter.doubleQuoted(seed.key) : seed.key
          out += "  \(field.name): \(seed.storage.rawValue) \(key)\n"
        } else {
          out += "  \(field.name): \(field.key) (a key that `shared:` cannot seed)\n"
        }
      }
    }

    out += "\nStubs (under `dependencies:`):\n"
    if feature.stubs.isEmpty { out += "  (none)\n" }
    for stub in feature.stubs {
      switch shapes.signatures[stub.name] {
      case .value(let shape, let isList)?:
        let value = text.text(shape)
        out += "  \(stub.name): \(value)" + (isList ? ", or a list of them (one per use)" : "") + "\n"
      case .endpoint(let input, let output, let canThrow)?:
        out += "  \(stub.name): an endpoint; one response, or a list of them (one per call)\n"
        out += "    returns: \(text.text(output))\n"
        if canThrow { out += "    throws: MESSAGE\n" }
        out += "    after: DURATION (optional)\n"
        switch input {
        case .nothing: out += "    calls: [null] (optional: no input, one null per call)\n"
        case .arguments: out += "    calls: [\(text.text(input))] (optional: each call's arguments, in order)\n"
        default: out += "    calls: [\(text.text(input))] (optional: the inputs, in order)\n"
        }
      case nil:
        out += "  \(stub.name): \(stub.shape)\n"
      }
    }
    out += "\nBuilt-in stubs:\n"
    for stub in BuiltInStubs.all { out += "  \(stub.name): \(stub.shape)\n" }
    out += "  \(BuiltInStubs.clockKey): `test` (the default) or `immediate`\n"

    // Describing a type can meet more types: list until none is left.
    var index = 0
    var types = ""
    while index < text.named.count {
      let (name, shape) = text.named[index]
      index += 1
      if case .record = shape {
        types += "  \(name):\n"
      } else {
        types += "  \(name), one of:\n"
      }
      for line in text.body(of: shape) { types += "    \(line)\n" }
    }
    if !types.isEmpty { out += "\nTypes:\n" + types }
    return out
  }

  private static func indent(_ text: String, by width: Int) -> String {
    let pad = String(repeating: " ", count: width)
    var out = ""
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) where !line.isEmpty {
      out += pad + line + "\n"
    }
    return out
  }
}
