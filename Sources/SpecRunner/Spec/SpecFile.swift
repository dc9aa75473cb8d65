import SpecYAML

/// A spec file, read and checked against the format (but not yet against its feature):
/// every mapping had only the keys the format allows, every step has one kind, durations
/// and flags are read. Actions, state assignments and stubs stay YAML nodes here; the
/// feature they belong to decodes them (``FeatureBinding``).
struct SpecFile: Sendable {
  var path: String
  var feature: String
  /// The `feature:` value, for errors about the feature.
  var featureNode: YAMLNode
  var description: String?
  var tags: [String]
  /// The file's `initialState:` mapping of assignments, on the file's tape.
  var initialState: SpecValue?
  /// The file's `shared:` values.
  var shared: [SharedSeed]
  var dependencies: [StubEntry]
  var scenarios: [ScenarioSpec]
}

/// A value that `shared:` puts in a storage of shared state before a scenario starts:
/// `shared: { appStorage: { isOn: true } }` holds `true` under the key `isOn` of
/// `appStorage`, as `@Shared(.appStorage("isOn"))` reads it.
public struct SharedSeed: Sendable {
  /// Where shared values are kept, as their keys are written: `@Shared(.inMemory("count"))`,
  /// `@Shared(.appStorage("isOn"))`, `@Shared(.fileStorage(url))`.
  public enum Storage: String, CaseIterable, Sendable {
    case inMemory, appStorage, fileStorage

    /// How a spec writes a value of this storage.
    var example: String {
      switch self {
      case .inMemory: "inMemory: { count: 3 }"
      case .appStorage: "appStorage: { isOn: true }"
      case .fileStorage: "fileStorage: { \"sync-ups.json\": [] }"
      }
    }
  }

  public var storage: Storage
  /// The key: `inMemory`'s and `appStorage`'s, or for `fileStorage` the file's name.
  public var key: String
  /// Where the key is written, for errors about it.
  public var keyNode: YAMLNode
  /// The value, as written.
  public var value: YAMLNode
}

/// One entry of a `dependencies:` mapping: a stub's name and its value as written.
package struct StubEntry: Sendable {
  var name: String
  var key: YAMLNode
  package var value: YAMLNode
}

/// A scenario, or one example row of an outline (with its placeholders filled in).
package struct ScenarioSpec: Sendable {
  var id: ScenarioID
  /// The name, with an outline's placeholders filled in.
  var name: String
  /// Where the scenario is written (for a row, where the row is).
  package var location: FileLocation
  var tags: [String]
  package var skip: String?
  /// The scenario's `exhaustivity:` (`on` unless written); a step's `exhaustivity:` changes it
  /// from that step on.
  package var exhaustivity: SpecExhaustivity
  /// Whether the scenario starts exhaustive.
  package var isExhaustive: Bool { exhaustivity == .on }
  /// The scenario's `initialState:` mapping of assignments, on the file's tape.
  var initialState: SpecValue?
  /// The scenario's `shared:` values (the file's come first, and the scenario's replace
  /// them key by key).
  var shared: [SharedSeed]
  var dependencies: [StubEntry]
  package var steps: [StepSpec]
}

/// One step of a scenario.
package struct StepSpec: Sendable {
  /// The file of the step's mapping.
  var source: SourceFile?
  /// Where the step's mapping starts: where failures of the step are reported.
  var start: Mark
  var kind: StepKind
  /// The `state:` mapping of assignments, for `send` and `receive`, as the file's document
  /// rooted at it (``SpecValue/node`` is its node tree).
  package var state: SpecValue?
  /// The `timeout:`, for `receive` and `finish`.
  package var timeout: Duration?
  var note: String?
  /// The `as:` name of a `send`'s task, for `cancel:` and `finish:`.
  package var taskName: String?
  /// The name that a `cancel:` or `finish:` step gives, where it is written.
  var taskNameNode: YAMLNode?

  package var location: FileLocation {
    source.map { FileLocation(file: $0.path, line: start.line, column: start.column) }
      ?? FileLocation(file: "", line: 0, column: 0)
  }
}

/// A value of a spec file as written (an action, a step's `state:`), kept as a place on the
/// file's tape: it decodes straight from the tape, and no node tree is built for it unless
/// ``node`` is asked for.
package struct SpecValue: Sendable {
  /// The tape of the value's file, shared by the values read from it: a copy of a value
  /// retains one object, where a copy of a tape retains its four buffers.
  private let file: SharedTape
  /// The value's node on the tape.
  package let root: Int

  /// A tape that values share.
  final class SharedTape: Sendable {
    let tape: Tape
    /// The tape's ``Tape/bufferIdentity``, to tell whether another tape is this one.
    let identity: Tape.BufferIdentity
    init(_ tape: Tape) {
      self.tape = tape
      identity = tape.bufferIdentity
    }
  }

  init(_ tape: Tape, _ ref: Int) {
    self.init(SharedTape(tape), ref)
  }

  init(_ file: SharedTape, _ ref: Int) {
    self.file = file
    root = ref
  }

  /// The file's tape (its root is the file's, not the value's: read from ``root``).
  package var tape: Tape {
    _read { yield file.tape }
  }

  /// The ``PackedValueKey/init(keysOf:in:)`` of the value's keys: read here, in the module
  /// of ``tape``, whose `_read` a caller in another module pays a coroutine for.
  package var keyList: PackedValueKey? {
    PackedValueKey(keysOf: root, in: file.tape)
  }

  /// The file's document, with the value as its root.
  package var document: YAMLDocument {
    var tape = file.tape
    tape.root = root
    return YAMLDocument(tape: tape)
  }

  /// The value as a node tree.
  package var node: YAMLNode { document.root }

  /// An error at the value.
  func error(_ message: String) -> YAMLError {
    file.tape.error(message, at: root)
  }

  /// An error at a character of the value's text: `characters` after its start, on its
  /// first line (a plain scalar, such as a case path, is written on one line).
  func error(_ message: String, characters: Int) -> YAMLError {
    let start = file.tape.mark(root)
    let mark = Mark(line: start.line, column: start.column + characters, offset: start.offset + characters)
    return YAMLError(message, source: file.tape.source(root), mark: mark)
  }
}

/// What a step does.
enum StepKind: Sendable {
  case send(SpecValue)
  /// `receive: ACTION`, compared whole.
  case receive(SpecValue)
  /// `receive: .case.path`: any action in that case, whatever its payload.
  case receiveCase([String], SpecValue)
  case advance(Duration)
  case dependencies([StubEntry])
  case skipReceivedActions(strict: Bool)
  case skipInFlightEffects(strict: Bool)
  case finish
  /// `finish: NAME`: waits for the effects of the `send` named NAME (`TestStoreTask.finish()`).
  case finishTask(String)
  /// `cancel: NAME`: cancels the effects of the `send` named NAME (`TestStoreTask.cancel()`).
  case cancel(String)
  /// `assert: ASSIGNMENTS`: checks the current state (`TestStore.assert`).
  case assert(YAMLNode)
  /// `emit: { ENDPOINT: VALUE, … }`: yields each value into the open streams of its endpoint.
  case emit([StubEntry])
  /// `close: ENDPOINT` (or a list): finishes the open streams of the endpoints.
  case close([YAMLNode])
  /// `exhaustivity:` from this step on.
  case exhaustivity(SpecExhaustivity)

  /// The step's key in the file.
  var keyword: String {
    switch self {
    case .send: "send"
    case .receive, .receiveCase: "receive"
    case .advance: "advance"
    case .dependencies: "dependencies"
    case .skipReceivedActions: "skipReceivedActions"
    case .skipInFlightEffects: "skipInFlightEffects"
    case .finish, .finishTask: "finish"
    case .cancel: "cancel"
    case .assert: "assert"
    case .emit: "emit"
    case .close: "close"
    case .exhaustivity: "exhaustivity"
    }
  }
}
