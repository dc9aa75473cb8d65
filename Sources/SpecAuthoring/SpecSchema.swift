import Foundation
import SpecRunner
import SpecYAML

/// The JSON Schema (draft-07) of spec files for a set of features: what
/// `reducer-spec schema` writes, for editors that check and complete YAML with
/// yaml-language-server.
///
/// Strict for keys, permissive for values: every mapping of the format, every struct and
/// every enum payload has `additionalProperties: false`, while scalars take every spelling
/// the runner's decoder reads (`yes` for a `Bool`, `1_000` for an `Int`, a number for a
/// `String`), and any value may be an outline's placeholder (`<count>`).
@MainActor
package struct SpecSchema {
  private var definitions: [(String, JSONValue)] = []
  private var definitionNames: [ObjectIdentifier: String] = [:]
  private var usedNames: Set<String> = []
  private var builtInNames: [String] = []

  package static let draft = "http://json-schema.org/draft-07/schema#"

  /// The schema for `features` (sorted by name); with one feature, `feature:` must name it.
  package static func document(for features: [Feature]) -> JSONValue {
    var schema = SpecSchema()
    schema.addFormatDefinitions()
    let sorted = features.sorted { $0.name < $1.name }
    for feature in sorted { schema.addFeature(feature) }
    let names = sorted.map(\.name)
    var root: [(String, JSONValue)] = [
      ("$schema", .string(draft)),
      ("title", "reducer-spec spec file"),
      (
        "description",
        .string(
          "A spec file of reducer-spec for " + (names.count == 1 ? "the feature \(names[0])" : "the registered features")
            + ". Written by `reducer-spec schema`.")
      ),
      ("type", "object"),
      ("required", ["feature", "scenarios"]),
      ("additionalProperties", false),
    ]
    let featureSchema: JSONValue =
      names.count == 1
      ? ["description": "The registered feature this file describes.", "const": .string(names[0])]
      : ["description": "The registered feature this file describes.", "enum": .array(names.map { .string($0) })]
    if names.count == 1 {
      root.append(("properties", fileProperties(feature: featureSchema, prefix: names[0])))
    } else {
      let generic: JSONValue = [
        "feature": featureSchema,
        "description": ref("text"),
        "tags": ref("tags"),
        "initialState": ["type": "object"],
        "shared": ref("shared"),
        "dependencies": ["type": "object"],
        "scenarios": ["type": "array", "minItems": 1, "items": ["type": "object"]],
      ]
      root.append(("properties", generic))
      root.append(
        (
          "allOf",
          .array(
            names.map { name in
              [
                "if": ["properties": ["feature": ["const": .string(name)]], "required": ["feature"]],
                "then": ["properties": fileProperties(feature: featureSchema, prefix: name)],
              ]
            })
        ))
    }
    root.append(("definitions", .object(schema.definitions)))
    return .object(root)
  }

  private static func fileProperties(feature: JSONValue, prefix: String) -> JSONValue {
    [
      "feature": feature,
      "description": ["description": "Prose about the feature, in Markdown.", "$ref": "#/definitions/text"],
      "tags": ref("tags"),
      "initialState": ref("\(prefix).state"),
      "shared": ref("shared"),
      "dependencies": ref("\(prefix).dependencies"),
      "scenarios": ["type": "array", "minItems": 1, "items": ref("\(prefix).scenario")],
    ]
  }

  package static func ref(_ name: String) -> JSONValue { ["$ref": .string("#/definitions/\(name)")] }

  private mutating func define(_ name: String, _ schema: JSONValue) {
    definitions.append((name, schema))
    usedNames.insert(name)
  }

  // MARK: - The format

  private mutating func addFormatDefinitions() {
    define("placeholder", ["description": "A placeholder of an outline, filled in from `examples`.", "type": "string", "pattern": "^<[^<>]+>$"])
    define("text", ["type": ["string", "number", "boolean"]])
    define("tags", ["anyOf": [Self.ref("text"), ["type": "array", "items": Self.ref("text")]]])
    define(
      "shared",
      [
        "description": "Values of shared state (`@Shared`) that the scenario starts with, by storage and key.",
        "type": "object",
        "properties": .object(
          SharedSeed.Storage.allCases.map { ($0.rawValue, ["type": "object"] as JSONValue) }),
        "additionalProperties": false,
      ])
    define(
      "duration",
      [
        "description": "A duration: `300ms`, `1.5s`, `2m`, `1h`, or a number of seconds.",
        "anyOf": [
          ["type": "number", "minimum": 0],
          ["type": "string", "pattern": #"^([0-9]+(\.[0-9]+)?|\.[0-9]+)(ms|s|m|h)?$"#],
          Self.ref("placeholder"),
        ],
      ])
    define(
      "flag",
      [
        "anyOf": [
          ["const": true],
          [
            "type": "object", "properties": ["strict": ["type": "boolean"]], "required": ["strict"],
            "additionalProperties": false,
          ],
        ]
      ])
    define(
      "taskName",
      [
        "description": "A name that `as:` gives the effects of a `send` (a word).",
        "type": "string", "pattern": #"^[^\s]+$"#, "not": ["enum": ["true", "false", "null", "~"]],
      ])
    define(
      "exhaustivity",
      [
        "anyOf": [
          ["enum": ["on", "off"]],
          [
            "type": "object",
            "properties": [
              "off": [
                "type": "object", "properties": ["showSkippedAssertions": ["type": "boolean"]],
                "required": ["showSkippedAssertions"], "additionalProperties": false,
              ]
            ],
            "required": ["off"], "additionalProperties": false,
          ],
        ]
      ])
    let builtIns: JSONValue = [
        "uuid": [
          "description": "`incrementing`, or a list of UUIDs, one per use.",
          "anyOf": [["const": "incrementing"], ["type": "array", "minItems": 1, "items": uuid]],
        ],
        "date": ["description": "What `date.now` returns: an ISO 8601 date (2024-05-01T09:00:00Z).", "type": "string"],
        "clock": ["description": "`test` (the default: time moves with `advance:`) or `immediate`.", "enum": ["test", "immediate"]],
        "random": [
          "description": "A seeded generator for `withRandomNumberGenerator`.",
          "type": "object", "properties": ["seed": integer], "required": ["seed"], "additionalProperties": false,
        ],
        "locale": ["description": "A locale identifier (en_US).", "type": "string"],
        "timeZone": ["description": "A time zone identifier (UTC, Europe/Paris).", "type": "string"],
        "calendar": [
          "description": "A calendar identifier.",
          "enum": .array(BuiltInStubs.calendars.keys.sorted().map { .string($0) }),
        ],
      ]
    if case .object(let entries) = builtIns {
      for (key, schema) in entries {
        define("builtIn.\(key)", schema)
        builtInNames.append(key)
      }
    }
  }

  // MARK: - A feature

  private mutating func addFeature(_ feature: Feature) {
    let shapes = FeatureShapes(feature)
    let name = feature.name
    let action = value(shapes.action)
    define("\(name).action", actionSchema(action, shapes.action))

    // State assignments: a field (or a case of an enum state), a path into one, or `self`.
    var stateProperties: [(String, JSONValue)] = []
    var heads: [(name: String, rest: String)] = []
    switch shapes.state {
    case .record(_, let fields):
      for field in fields {
        stateProperties.append((field.name, value(field.shape)))
        heads.append((field.name, Self.pathRest(after: field.shape)))
      }
    case .enumeration(let named, let cases):
      for item in cases {
        stateProperties.append((item.name, payload(item.payload)))
        heads.append((item.name, Self.pathRest(after: item.payload, of: named)))
      }
    default:
      break
    }
    stateProperties.append(("self", ["description": "The whole state.", "allOf": [value(shapes.state)]]))
    var state: [(String, JSONValue)] = [
      ("description", "State assignments, applied in order: `field: value`, `path.to[0].field: value`, `self: value`."),
      ("type", "object"),
      ("properties", .object(stateProperties)),
    ]
    if !heads.isEmpty {
      state.append(("patternProperties", .object([(Self.pathPattern(heads), JSONValue.object([]))])))
    }
    state.append(("additionalProperties", false))
    define("\(name).state", .object(state))

    var stubs: [(String, JSONValue)] = []
    for stub in feature.stubs {
      switch shapes.signatures[stub.name] {
      case .value(let shape, let isList)?:
        let one = value(shape)
        stubs.append((stub.name, isList ? ["anyOf": [one, ["type": "array", "minItems": 1, "items": one]]] : one))
      case .endpoint(let input, let output, let canThrow)?:
        stubs.append((stub.name, endpoint(input: input, output: output, canThrow: canThrow)))
      case nil where stub.emission != nil:
        stubs.append(
          (
            stub.name,
            [
              "description": "A stream: `{ stream: open }`; `emit:` yields values into it, `close:` ends it.",
              "type": "object", "properties": ["stream": ["const": "open"]], "required": ["stream"],
              "additionalProperties": false,
            ]
          ))
      case nil:
        stubs.append((stub.name, [:]))
      }
    }
    let streams = feature.stubs.filter { $0.emission != nil }.map(\.name)
    let streamName: JSONValue =
      streams.isEmpty
      ? ["description": "A stream stub (`{ stream: open }`); this feature has none.", "not": [:]]
      : ["description": "A stream stub (`{ stream: open }`).", "enum": .array(streams.map { .string($0) })]
    define(
      "\(name).dependencies",
      [
        "description": "Stubs, by name: the feature's and the built-in ones.",
        "type": "object",
        "properties": .object(stubs + builtInProperties),
        "additionalProperties": false,
      ])

    let caseNames = shapes.actionCases.map(\.name)
    let casePath: JSONValue = [
      "description": "A case path: matches the case, whatever its payload.",
      "type": "string",
      "pattern": .string(
        caseNames.isEmpty
          ? #"^\.[^.]+(\.[^.]+)*$"# : #"^\.("# + caseNames.map(Self.escaped).joined(separator: "|") + #")(\.[^.]+)*$"#),
    ]
    let kinds = [
      "send", "receive", "advance", "dependencies", "skipReceivedActions", "skipInFlightEffects", "finish", "assert",
      "cancel", "emit", "close", "exhaustivity",
    ]
    var emitted: [(String, JSONValue)] = []
    for stub in feature.stubs where stub.emission != nil {
      emitted.append((stub.name, ["description": "The value the stream yields (`null` for `Void`)."]))
    }
    define(
      "\(name).step",
      [
        "type": "object",
        "properties": [
          "send": ["description": "Sends an action to the reducer.", "$ref": .string("#/definitions/\(name).action")],
          "receive": [
            "description": "The next action an effect sent back, whole, or a case path (`.response.success`).",
            "anyOf": [Self.ref("\(name).action"), casePath],
          ],
          "advance": ["description": "Moves the test clock forward.", "$ref": "#/definitions/duration"],
          "dependencies": [
            "description": "Changes stubs from this step on.", "$ref": .string("#/definitions/\(name).dependencies"),
          ],
          "skipReceivedActions": ["description": "Skips the actions received so far.", "$ref": "#/definitions/flag"],
          "skipInFlightEffects": ["description": "Skips the effects still running.", "$ref": "#/definitions/flag"],
          "finish": [
            "description": "`true`: waits for every effect to finish; a name given with `as:`: waits for that send's effects.",
            "anyOf": [["enum": [true, .null]], Self.ref("taskName")],
          ],
          "as": ["description": "Names the effects this `send` starts, for `cancel:` and `finish:`.", "$ref": "#/definitions/taskName"],
          "cancel": ["description": "Cancels the effects of the `send` given this name with `as:`.", "$ref": "#/definitions/taskName"],
          "assert": [
            "description": "Checks the current state without sending anything.", "$ref": .string("#/definitions/\(name).state"),
          ],
          "emit": [
            "description": "Yields a value into every open stream of each endpoint (`{ stream: open }`).",
            "type": "object", "minProperties": 1, "properties": .object(emitted), "additionalProperties": false,
          ],
          "close": [
            "description": "Ends the open streams of an endpoint, or of a list of them.",
            "anyOf": [streamName, ["type": "array", "minItems": 1, "items": streamName]],
          ],
          "exhaustivity": ["description": "How much is checked from this step on.", "$ref": "#/definitions/exhaustivity"],
          "state": [
            "description": "How the state changed (after `send` and `receive`).",
            "$ref": .string("#/definitions/\(name).state"),
          ],
          "timeout": ["description": "How long to wait (after `receive` and `finish`).", "$ref": "#/definitions/duration"],
          "note": ["description": "Prose, shown in documentation.", "$ref": "#/definitions/text"],
        ],
        "oneOf": .array(kinds.map { ["required": [.string($0)]] }),
        "additionalProperties": false,
      ])
    define(
      "\(name).scenario",
      [
        "type": "object",
        "required": ["name", "steps"],
        "properties": [
          "name": ["description": "The scenario's name, unique in its file.", "$ref": "#/definitions/text"],
          "description": ["description": "Prose about the scenario, in Markdown.", "$ref": "#/definitions/text"],
          "tags": Self.ref("tags"),
          "skip": ["description": "Why the scenario is skipped.", "$ref": "#/definitions/text"],
          "exhaustivity": [
            "description": "`on` (the default), `off`, or `{ off: { showSkippedAssertions: true } }`.",
            "$ref": "#/definitions/exhaustivity",
          ],
          "initialState": Self.ref("\(name).state"),
          "shared": Self.ref("shared"),
          "dependencies": Self.ref("\(name).dependencies"),
          "examples": [
            "description": "Rows of placeholder values: the scenario runs once per row.",
            "type": "array", "minItems": 1, "items": ["type": "object"],
          ],
          "steps": ["type": "array", "items": Self.ref("\(name).step")],
        ],
        "additionalProperties": false,
      ])
  }

  /// The built-in stubs, each a reference to its definition.
  private var builtInProperties: [(String, JSONValue)] {
    builtInNames.map { ($0, Self.ref("builtIn.\($0)")) }
  }

  private mutating func endpoint(input: TypeShape, output: TypeShape, canThrow: Bool) -> JSONValue {
    let returns = value(output)
    var response: [(String, JSONValue)] = [("returns", ["description": "What the call returns.", "allOf": [returns]])]
    if canThrow {
      response.append(("throws", ["description": "The message of the error the call throws.", "$ref": "#/definitions/text"]))
    }
    response.append(("after", ["description": "Answers only once the test clock has moved this far.", "$ref": "#/definitions/duration"]))
    let answer: JSONValue = .array(canThrow ? [["required": ["returns"]], ["required": ["throws"]]] : [["required": ["returns"]]])
    let isArgumentList = if case .arguments = input { true } else { false }
    let calls: JSONValue = [
      "description": .string(
        isArgumentList
          ? "The calls the endpoint must have had, in order, each the list of its arguments."
          : "The inputs the endpoint must have been called with, in order."),
      "type": "array", "items": value(input),
    ]
    let single: JSONValue = [
      "type": "object", "properties": .object(response), "oneOf": answer, "additionalProperties": false,
    ]
    let list: JSONValue = ["type": "array", "minItems": 1, "items": single]
    return [
      "description": "An endpoint: one response for every call, a list of responses (one per call), or `{ responses: …, calls: […] }`.",
      "anyOf": [
        ["type": "object", "properties": .object(response + [("calls", calls)]), "oneOf": answer, "additionalProperties": false],
        list,
        [
          "type": "object", "properties": ["responses": ["anyOf": [single, list]], "calls": calls],
          "required": ["responses"], "additionalProperties": false,
        ],
      ],
    ]
  }

  // MARK: - Values

  package static let integer: JSONValue = [
    "anyOf": [
      ["type": "integer"],
      ["type": "string", "pattern": "^[-+]?(0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|[0-9][0-9_]*)$"],
      ref("placeholder"),
    ]
  ]
  package var integer: JSONValue { Self.integer }
  package static let uuid: JSONValue = [
    "anyOf": [
      ["description": "An integer: `0` is 00000000-0000-0000-0000-000000000000, `1` is …0001.", "type": "integer", "minimum": 0],
      ["type": "string", "pattern": "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"],
      ref("placeholder"),
    ]
  ]
  package var uuid: JSONValue { Self.uuid }

  /// The schema of a value of this shape: a reference for a named type, defined on first use.
  package mutating func value(_ shape: TypeShape) -> JSONValue {
    switch shape {
    case .scalar(let scalar):
      switch scalar {
      case .string, .url, .data, .date:
        return ["type": ["string", "number", "boolean"]]
      case .integer:
        return Self.integer
      case .number, .decimal:
        return [
          "anyOf": [
            ["type": "number"],
            ["type": "string", "pattern": #"^[-+]?(\.inf|\.Inf|\.INF|\.nan|\.NaN|\.NAN|[0-9._]+([eE][-+]?[0-9]+)?)$"#],
            Self.ref("placeholder"),
          ]
        ]
      case .bool:
        return [
          "anyOf": [
            ["type": "boolean"],
            [
              "enum": [
                "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON", "false", "False", "FALSE", "no", "No",
                "NO", "off", "Off", "OFF",
              ]
            ],
            Self.ref("placeholder"),
          ]
        ]
      case .uuid:
        return Self.uuid
      }
    case .optional(let wrapped), .presented(let wrapped):
      return ["anyOf": [["type": "null"], value(wrapped)]]
    case .list(let element), .identified(let element):
      return ["anyOf": [["type": "array", "items": value(element)], Self.ref("placeholder")]]
    case .arguments(let arguments):
      let list: JSONValue = [
        "type": "array", "items": .array(arguments.map { value($0) }), "additionalItems": false,
        "minItems": .integer(arguments.count),
      ]
      return ["anyOf": [list, Self.ref("placeholder")]]
    case .stack(let element):
      let entry: JSONValue = [
        "type": "object", "properties": ["id": integer, "state": value(element)], "required": ["id", "state"],
        "additionalProperties": false,
      ]
      return ["anyOf": [["type": "array", "items": entry], Self.ref("placeholder")]]
    case .dictionary(let element):
      return ["anyOf": [["type": "object", "additionalProperties": value(element)], Self.ref("placeholder")]]
    case .nothing:
      return ["type": "null"]
    case .unknown:
      return [:]
    case .recursive(let named):
      return Self.ref(definitionName(named))
    case .record, .enumeration, .rawValues, .binding:
      let named = shape.named!
      if let existing = definitionNames[named.id] { return Self.ref(existing) }
      let name = definitionName(named)
      // Reserved before its contents, so that a type inside itself refers to it.
      let index = definitions.count
      definitions.append((name, [:]))
      definitions[index].1 = definition(shape, title: named.name)
      return Self.ref(name)
    }
  }

  private mutating func definitionName(_ named: TypeShape.Named) -> String {
    if let existing = definitionNames[named.id] { return existing }
    let base = "type." + String(named.name.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" ? $0 : "_" })
    var name = base
    var suffix = 2
    while usedNames.contains(name) {
      name = base + "_\(suffix)"
      suffix += 1
    }
    usedNames.insert(name)
    definitionNames[named.id] = name
    return name
  }

  private mutating func definition(_ shape: TypeShape, title: String) -> JSONValue {
    switch shape {
    case .record(_, let fields):
      return [
        "title": .string(title),
        "anyOf": [object(fields), Self.ref("placeholder")],
      ]
    case .binding(_, let fields):
      var properties: [(String, JSONValue)] = []
      for field in fields { properties.append((field.name, value(field.shape))) }
      return [
        "title": .string(title),
        "description": "A binding: `{ FIELD: VALUE }`, one of the bindable fields.",
        "anyOf": [
          [
            "type": "object", "properties": .object(properties), "minProperties": 1, "maxProperties": 1,
            "additionalProperties": false,
          ],
          Self.ref("placeholder"),
        ],
      ]
    case .rawValues(_, let values):
      return [
        "title": .string(title),
        "anyOf": [["enum": .array(values.map { Int($0).map(JSONValue.integer) ?? .string($0) })], Self.ref("placeholder")],
      ]
    case .enumeration(_, let cases):
      var choices: [JSONValue] = []
      let units = cases.filter { $0.payload == .none }.map { JSONValue.string($0.name) }
      if !units.isEmpty { choices.append(["enum": .array(units)]) }
      var properties: [(String, JSONValue)] = []
      for item in cases { properties.append((item.name, payload(item.payload))) }
      choices.append([
        "type": "object", "properties": .object(properties), "minProperties": 1, "maxProperties": 1,
        "additionalProperties": false,
      ])
      choices.append(Self.ref("placeholder"))
      return ["title": .string(title), "anyOf": .array(choices)]
    default:
      return value(shape)
    }
  }

  private mutating func object(_ fields: [TypeShape.Field]) -> JSONValue {
    var properties: [(String, JSONValue)] = []
    for field in fields { properties.append((field.name, value(field.shape))) }
    var object: [(String, JSONValue)] = [("type", "object"), ("properties", .object(properties))]
    let required = fields.filter(\.isRequired).map { JSONValue.string($0.name) }
    if !required.isEmpty { object.append(("required", .array(required))) }
    object.append(("additionalProperties", false))
    return .object(object)
  }

  /// The schema of an enum case's value: anything for a case without one.
  private mutating func payload(_ payload: TypeShape.Payload) -> JSONValue {
    switch payload {
    case .none:
      return [:]
    case .value(let shape):
      let inner = value(shape)
      return [
        "anyOf": [
          inner, ["type": "object", "properties": ["_0": inner], "required": ["_0"], "additionalProperties": false],
        ]
      ]
    case .fields(let fields):
      return ["anyOf": [object(fields), Self.ref("placeholder")]]
    }
  }

  /// A feature's actions: the action's own schema, or the action written with a path key
  /// (`todos[id=0].binding.isComplete: true`, `path[id=1]: ACTION`) or as a dotted scalar
  /// (`destination.presented.addContact.saveButtonTapped`). Along a path, each `.name` must
  /// be a case (or a bindable field) of what comes before it, for the first four components;
  /// an `[id=…]`, and the value of a path key, are left to the runner.
  private func actionSchema(_ action: JSONValue, _ shape: TypeShape) -> JSONValue {
    guard case .enumeration(let named, let cases) = shape, !cases.isEmpty else { return action }
    let alternatives = cases.map { Self.escaped($0.name) + Self.pathRest(after: $0.payload, of: named) }
      .joined(separator: "|")
    let path = #"^(?=[^.\[]*[.\[])(?:"# + alternatives + ")$"
    return [
      "anyOf": [
        action,
        [
          "description": "An action path: `todos[id=0].binding.isComplete: true`, `path[id=1]: ACTION`.",
          "type": "object", "minProperties": 1, "maxProperties": 1,
          "patternProperties": .object([(path, JSONValue.object([]))]), "additionalProperties": false,
        ],
        [
          "description": "An action path to a case without a payload: `destination.presented.addContact.saveButtonTapped`.",
          "type": "string", "pattern": .string(#"^(?=[^.]*\.)(?:"# + alternatives + ")$"),
        ],
      ]
    ]
  }

  /// A path into one of these fields: `^(?:count(…)|login(…))$`, where each `(…)` matches
  /// what may follow the field (``pathRest(after:depth:)``).
  private static func pathPattern(_ heads: [(name: String, rest: String)]) -> String {
    "^(?:" + heads.map { escaped($0.name) + $0.rest }.joined(separator: "|") + ")$"
  }

  /// What may follow a path component whose value has this shape, as a regular expression:
  /// after a struct, `.` and one of its fields (and what may follow that field); after an
  /// enum, `.` and one of its cases. The field names are checked as `reducer-spec check`
  /// checks them; anything else (an index, a key, a type that contains itself, a custom
  /// conformance, a path deeper than `maxPathDepth`) is left to the runner, so that the
  /// schema never rejects a path that runs.
  static func pathRest(after shape: TypeShape, depth: Int = 1) -> String {
    let anything = #"([.\[].*)?"#
    guard depth < maxPathDepth else { return anything }
    var shape = shape
    while true {
      if case .optional(let wrapped) = shape {
        shape = wrapped
      } else if case .presented(let wrapped) = shape {
        shape = wrapped
      } else {
        break
      }
    }
    let choices: [String]
    switch shape {
    case .record(_, let fields), .binding(_, let fields):
      choices = fields.map { escaped($0.name) + pathRest(after: $0.shape, depth: depth + 1) }
    case .enumeration(let named, let cases):
      choices = cases.map { escaped($0.name) + pathRest(after: $0.payload, of: named, depth: depth + 1) }
    default:
      return anything
    }
    guard !choices.isEmpty else { return anything }
    return #"(\.(?:"# + choices.joined(separator: "|") + #")|\[.*)?"#
  }

  /// What may follow an enum case: what may follow its payload.
  static func pathRest(after payload: TypeShape.Payload, of named: TypeShape.Named, depth: Int = 1) -> String {
    switch payload {
    case .none: return #"([.\[].*)?"#
    case .value(let shape): return pathRest(after: shape, depth: depth)
    case .fields(let fields): return pathRest(after: .record(named, fields), depth: depth)
    }
  }

  /// How many components of a path the schema checks.
  static let maxPathDepth = 4

  private static func escaped(_ name: String) -> String {
    var out = ""
    for character in name {
      if "\\^$.|?*+()[]{}".contains(character) { out.append("\\") }
      out.append(character)
    }
    return out
  }
}
