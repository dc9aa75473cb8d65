import Clocks
import CustomDump
import Dependencies
import Foundation
import IssueReporting
import SpecYAML

/// A dependency that specs can stub by name under `dependencies:`.
///
/// A feature registers one stub for every dependency its reducer uses, so that every
/// dependency can be stubbed from YAML. Three kinds:
///
/// - A **value stub** decodes its value into a Swift type and installs it:
///   `generateRandom: 4`, or a list for one value per use (`generateRandom: [4, 7]`).
/// - An **endpoint stub** stands in for an `async` closure of a client (throwing or not,
///   with an input or none, returning a value or `Void`): `returns: VALUE` or
///   `throws: MESSAGE`, optionally `after: DURATION`; a list of responses answers one call
///   each, in order; `{ responses: …, calls: [...] }` also lists the inputs the endpoint
///   must have been called with by the end of the scenario.
/// - A **stream stub** stands in for a closure that returns an `AsyncStream`: stubbed
///   `{ stream: open }`, its streams get values from `emit:` steps and end at `close:`.
///
/// ```swift
/// Feature("RepositorySearch", initialState: RepositorySearch.State(), stubs: [
///   .endpoint("repositoryClient.fetchRepositories", \.repositoryClient.fetchRepositories),
/// ]) {
///   RepositorySearch()
/// }
/// ```
public struct Stub: Sendable {
  /// The key a spec writes under `dependencies:`.
  public let name: String
  /// How a spec writes the stub's value, for messages: `a value of Int`, `an endpoint …`.
  package var shape: String { describeShape() }
  /// Makes ``shape`` when a message needs it, rather than at registration: type names come
  /// from the runtime's reflection, which every process would pay for at start-up.
  private let describeShape: @Sendable () -> String
  /// Decodes a spec's value into a stub ready to install for one scenario.
  package let configure: @Sendable (_ value: YAMLNode, _ context: StubContext) throws -> ConfiguredStub
  /// Installs what a scenario that does not stub it gets (endpoints: a failure naming them).
  let installUnstubbed: (@Sendable (inout DependencyValues, StubContext) -> Void)?
  /// The types of its value, for `reducer-spec features` and `reducer-spec schema`; `nil`
  /// for the built-ins, which the format itself describes.
  package let signature: Signature?
  /// For a stream stub: decodes a value that `emit:` yields into its streams (checked when
  /// the file is bound). `nil` for every other stub.
  package let emission: (@Sendable (_ value: YAMLNode, _ decoder: YAMLDecoder) throws -> any Sendable)?

  /// Whether a scenario's uses of the stub are counted (its ``ConfiguredStub/uses``): an
  /// endpoint's calls, a list of values' uses, a stream's opens. A value installed as it
  /// is, and a built-in, cannot say whether it was used.
  package var usesAreCounted: Bool {
    switch signature {
    case .endpoint: true
    case .value(_, let isList): isList
    case nil: emission != nil
    }
  }

  /// The Swift types a stub decodes.
  package enum Signature: Sendable {
    /// A value stub: one value, or (when `isList`) a list of them, one per use.
    case value(DecodableType, isList: Bool)
    /// An endpoint: what `calls:` lists, what `returns:` gives, and whether `throws:` may be written.
    case endpoint(input: DecodableType, output: DecodableType, canThrow: Bool)
  }

  init(
    name: String, shape: @escaping @autoclosure @Sendable () -> String, signature: Signature? = nil,
    configure: @escaping @Sendable (YAMLNode, StubContext) throws -> ConfiguredStub,
    installUnstubbed: (@Sendable (inout DependencyValues, StubContext) -> Void)? = nil,
    emission: (@Sendable (YAMLNode, YAMLDecoder) throws -> any Sendable)? = nil
  ) {
    self.name = name
    self.describeShape = shape
    self.signature = signature
    self.configure = configure
    self.installUnstubbed = installUnstubbed
    self.emission = emission
  }
}

/// What a scenario's stubs share: its clock (for `after:`) and its decoder.
package final class StubContext: Sendable {
  let clock: any Clock<Duration>
  let decoder: YAMLDecoder

  init(clock: any Clock<Duration>, decoder: YAMLDecoder) {
    self.clock = clock
    self.decoder = decoder
  }
}

/// A stub decoded from a spec, for one scenario: how to install it, and what to check at
/// the end of the scenario.
package struct ConfiguredStub: Sendable {
  package var install: @Sendable (inout DependencyValues) -> Void
  /// Failures found at the end of the scenario (`calls:` that do not match), as messages
  /// with the node they point at.
  var finish: @Sendable () -> [(message: String, node: YAMLNode)] = { [] }
  /// For a stream stub: yields a value (decoded by ``Stub/emission``) into every open stream.
  var emit: (@Sendable (any Sendable) -> Void)?
  /// For a stream stub: finishes every open stream.
  var close: (@Sendable () -> Void)?
  /// How many times the scenario used the stub so far: an endpoint's calls, a value
  /// stub's uses, a stream stub's streams opened. `nil` for a stub whose uses cannot be
  /// counted (a value installed as it is, and most built-ins).
  var uses: (@Sendable () -> Int)?
}

// MARK: - Value stubs

extension Stub {
  /// A stub whose value is decoded into `Value` and handed to `install`, which puts it into
  /// the dependencies, typically inside a closure of a client:
  ///
  /// ```swift
  /// .value("generateRandom", as: Int.self) { dependencies, next in
  ///   dependencies.generateRandom.generateRandomInt = { _ in next() }
  /// }
  /// ```
  ///
  /// `next()` returns the value each time for `generateRandom: 4`, and the values one per
  /// use, in order, for a list (`generateRandom: [4, 7]`); a use past the end of the list
  /// fails the scenario and returns the last value again.
  public static func value<Value: Decodable & Sendable>(
    _ name: String, as type: Value.Type = Value.self,
    install: @escaping @Sendable (_ dependencies: inout DependencyValues, _ next: @escaping @Sendable () -> Value) -> Void
  ) -> Stub {
    Stub(
      name: name, shape: "a value of \(typeName(Value.self)), or a list of them (one per use)",
      signature: .value(DecodableType(Value.self), isList: true)
    ) { node, context in
      var decoder = context.decoder
      decoder.rootName = "`\(name)`"
      let values = try decodeOneOrList(Value.self, from: node, decoder: decoder)
      let source = ValueSource(name: name, values: values.values, isList: values.isList)
      return ConfiguredStub(install: { install(&$0, source.next) }, uses: { source.uses.value })
    }
  }

  /// A stub that sets a dependency to the decoded value: `.value("locale", \.locale)`.
  public static func value<Value: Decodable & Sendable>(
    _ name: String, _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable
  ) -> Stub {
    Stub(name: name, shape: "a value of \(typeName(Value.self))", signature: .value(DecodableType(Value.self), isList: false)) {
      node, context in
      var decoder = context.decoder
      decoder.rootName = "`\(name)`"
      let value = try decoder.decode(Value.self, from: node)
      return ConfiguredStub(install: { $0[keyPath: keyPath] = value })
    }
  }
}

/// Hands out a value stub's values: the one value every time, or a list's values in turn.
private final class ValueSource<Value: Sendable>: Sendable {
  let name: String
  let values: [Value]
  let isList: Bool
  let uses = LockIsolated(0)

  init(name: String, values: [Value], isList: Bool) {
    self.name = name
    self.values = values
    self.isList = isList
  }

  @Sendable func next() -> Value {
    let index = uses.withValue { count in
      defer { count += 1 }
      return count
    }
    guard isList else { return values[0] }
    if index < values.count { return values[index] }
    if index == values.count {
      reportIssue(
        "`\(name)` was used \(index + 1) times, but the spec gives \(values.count) "
          + (values.count == 1 ? "value" : "values")
          + ": give one value per use (a single value, not in a list, serves every use)")
    }
    return values[values.count - 1]
  }
}

/// A value, or a list of values one per use: tries `Value` first, then `[Value]`.
private func decodeOneOrList<Value: Decodable>(
  _ type: Value.Type, from node: YAMLNode, decoder: YAMLDecoder
) throws -> (values: [Value], isList: Bool) {
  do {
    return ([try decoder.decode(Value.self, from: node)], false)
  } catch {
    guard let elements = node.sequence else { throw error }
    if elements.isEmpty {
      throw YAMLError("the list of values is empty: give at least one value", at: node)
    }
    return (try decoder.decode([Value].self, from: node), true)
  }
}

// MARK: - Endpoint stubs

extension Stub {
  /// An endpoint stub for an `async throws` closure of a client:
  /// `.endpoint("repositoryClient.fetchRepositories", \.repositoryClient.fetchRepositories)`.
  public static func endpoint<Input: Decodable & Equatable & Sendable, Output: Decodable & Sendable>(
    _ name: String, _ keyPath: WritableKeyPath<DependencyValues, @Sendable (Input) async throws -> Output> & Sendable
  ) -> Stub {
    endpoint(name, input: Input.self, output: Output.self, canThrow: true) { dependencies, call in
      dependencies[keyPath: keyPath] = { try await call($0) }
    }
  }

  /// An endpoint stub for an `async` closure that cannot throw.
  public static func endpoint<Input: Decodable & Equatable & Sendable, Output: Decodable & Sendable>(
    _ name: String, _ keyPath: WritableKeyPath<DependencyValues, @Sendable (Input) async -> Output> & Sendable
  ) -> Stub {
    endpoint(name, input: Input.self, output: Output.self, canThrow: false) { dependencies, call in
      dependencies[keyPath: keyPath] = { input in try! await call(input) }
    }
  }

  /// An endpoint stub for an `async throws` closure that returns nothing (`returns: null`).
  public static func endpoint<Input: Decodable & Equatable & Sendable>(
    _ name: String, _ keyPath: WritableKeyPath<DependencyValues, @Sendable (Input) async throws -> Void> & Sendable
  ) -> Stub {
    endpoint(name, input: Input.self, output: Nothing.self, canThrow: true) { dependencies, call in
      dependencies[keyPath: keyPath] = { _ = try await call($0) }
    }
  }

  /// An endpoint stub for an `async` closure that returns nothing and cannot throw.
  public static func endpoint<Input: Decodable & Equatable & Sendable>(
    _ name: String, _ keyPath: WritableKeyPath<DependencyValues, @Sendable (Input) async -> Void> & Sendable
  ) -> Stub {
    endpoint(name, input: Input.self, output: Nothing.self, canThrow: false) { dependencies, call in
      dependencies[keyPath: keyPath] = { input in _ = try! await call(input) }
    }
  }

  /// An endpoint stub for an `async throws` closure without input.
  public static func endpoint<Output: Decodable & Sendable>(
    _ name: String, _ keyPath: WritableKeyPath<DependencyValues, @Sendable () async throws -> Output> & Sendable
  ) -> Stub {
    endpoint(name, input: Nothing.self, output: Output.self, canThrow: true) { dependencies, call in
      dependencies[keyPath: keyPath] = { try await call(Nothing()) }
    }
  }

  /// An endpoint stub for an `async` closure without input that cannot throw.
  public static func endpoint<Output: Decodable & Sendable>(
    _ name: String, _ keyPath: WritableKeyPath<DependencyValues, @Sendable () async -> Output> & Sendable
  ) -> Stub {
    endpoint(name, input: Nothing.self, output: Output.self, canThrow: false) { dependencies, call in
      dependencies[keyPath: keyPath] = { try! await call(Nothing()) }
    }
  }

  /// An endpoint stub for an `async throws` closure of two arguments, such as
  /// `getArchiveResponse: @Sendable (String, String) async throws -> ArchiveSceneResponse`.
  /// A spec writes each call in `calls:` as the list of its arguments: `calls: [[pizza, italian]]`.
  public static func endpoint<
    A: Decodable & Equatable & Sendable, B: Decodable & Equatable & Sendable, Output: Decodable & Sendable
  >(
    _ name: String, _ keyPath: WritableKeyPath<DependencyValues, @Sendable (A, B) async throws -> Output> & Sendable
  ) -> Stub {
    let input = EndpointArguments<A, B>.self
    return endpoint(name, input: input, output: Output.self, canThrow: true) { dependencies, call in
      dependencies[keyPath: keyPath] = { a, b in try await call(EndpointArguments(a, b)) }
    }
  }

  /// The same, for an `async` closure of two arguments that cannot throw.
  public static func endpoint<
    A: Decodable & Equatable & Sendable, B: Decodable & Equatable & Sendable, Output: Decodable & Sendable
  >(
    _ name: String, _ keyPath: WritableKeyPath<DependencyValues, @Sendable (A, B) async -> Output> & Sendable
  ) -> Stub {
    let input = EndpointArguments<A, B>.self
    return endpoint(name, input: input, output: Output.self, canThrow: false) { dependencies, call in
      dependencies[keyPath: keyPath] = { a, b in try! await call(EndpointArguments(a, b)) }
    }
  }

  /// The same, for an `async throws` closure of two arguments that returns nothing.
  public static func endpoint<A: Decodable & Equatable & Sendable, B: Decodable & Equatable & Sendable>(
    _ name: String, _ keyPath: WritableKeyPath<DependencyValues, @Sendable (A, B) async throws -> Void> & Sendable
  ) -> Stub {
    let input = EndpointArguments<A, B>.self
    return endpoint(name, input: input, output: Nothing.self, canThrow: true) { dependencies, call in
      dependencies[keyPath: keyPath] = { a, b in _ = try await call(EndpointArguments(a, b)) }
    }
  }

  /// The same, for an `async` closure of two arguments that returns nothing and cannot throw.
  public static func endpoint<A: Decodable & Equatable & Sendable, B: Decodable & Equatable & Sendable>(
    _ name: String, _ keyPath: WritableKeyPath<DependencyValues, @Sendable (A, B) async -> Void> & Sendable
  ) -> Stub {
    let input = EndpointArguments<A, B>.self
    return endpoint(name, input: input, output: Nothing.self, canThrow: false) { dependencies, call in
      dependencies[keyPath: keyPath] = { a, b in _ = try! await call(EndpointArguments(a, b)) }
    }
  }

  /// An endpoint stub for an `async throws` closure of three arguments: each call in `calls:`
  /// is the list of its three arguments. For more, give ``endpoint(_:input:output:canThrow:install:)``
  /// an ``EndpointArguments`` of them.
  public static func endpoint<
    A: Decodable & Equatable & Sendable, B: Decodable & Equatable & Sendable, C: Decodable & Equatable & Sendable,
    Output: Decodable & Sendable
  >(
    _ name: String, _ keyPath: WritableKeyPath<DependencyValues, @Sendable (A, B, C) async throws -> Output> & Sendable
  ) -> Stub {
    let input = EndpointArguments<A, B, C>.self
    return endpoint(name, input: input, output: Output.self, canThrow: true) { dependencies, call in
      dependencies[keyPath: keyPath] = { a, b, c in try await call(EndpointArguments(a, b, c)) }
    }
  }

  /// The same, for an `async` closure of three arguments that cannot throw.
  public static func endpoint<
    A: Decodable & Equatable & Sendable, B: Decodable & Equatable & Sendable, C: Decodable & Equatable & Sendable,
    Output: Decodable & Sendable
  >(
    _ name: String, _ keyPath: WritableKeyPath<DependencyValues, @Sendable (A, B, C) async -> Output> & Sendable
  ) -> Stub {
    let input = EndpointArguments<A, B, C>.self
    return endpoint(name, input: input, output: Output.self, canThrow: false) { dependencies, call in
      dependencies[keyPath: keyPath] = { a, b, c in try! await call(EndpointArguments(a, b, c)) }
    }
  }

  /// The same, for an `async throws` closure of three arguments that returns nothing.
  public static func endpoint<
    A: Decodable & Equatable & Sendable, B: Decodable & Equatable & Sendable, C: Decodable & Equatable & Sendable
  >(
    _ name: String, _ keyPath: WritableKeyPath<DependencyValues, @Sendable (A, B, C) async throws -> Void> & Sendable
  ) -> Stub {
    let input = EndpointArguments<A, B, C>.self
    return endpoint(name, input: input, output: Nothing.self, canThrow: true) { dependencies, call in
      dependencies[keyPath: keyPath] = { a, b, c in _ = try await call(EndpointArguments(a, b, c)) }
    }
  }

  /// The same, for an `async` closure of three arguments that returns nothing and cannot throw.
  public static func endpoint<
    A: Decodable & Equatable & Sendable, B: Decodable & Equatable & Sendable, C: Decodable & Equatable & Sendable
  >(
    _ name: String, _ keyPath: WritableKeyPath<DependencyValues, @Sendable (A, B, C) async -> Void> & Sendable
  ) -> Stub {
    let input = EndpointArguments<A, B, C>.self
    return endpoint(name, input: input, output: Nothing.self, canThrow: false) { dependencies, call in
      dependencies[keyPath: keyPath] = { a, b, c in _ = try! await call(EndpointArguments(a, b, c)) }
    }
  }

  /// An endpoint stub for any closure shape: `install` puts a closure into the dependencies
  /// that forwards its arguments, as one `Input` value, to `call`. For an endpoint with two
  /// arguments, say, with a `Codable` struct `Input` holding both:
  ///
  /// ```swift
  /// .endpoint("mathClient.add", input: AddInput.self, output: Int.self) { dependencies, call in
  ///   dependencies.mathClient.add = { a, b in try await call(AddInput(a: a, b: b)) }
  /// }
  /// ```
  ///
  /// With `canThrow: false`, a spec that writes `throws:` for it is an error, and `call`
  /// never throws.
  public static func endpoint<Input: Decodable & Equatable & Sendable, Output: Decodable & Sendable>(
    _ name: String, input: Input.Type, output: Output.Type, canThrow: Bool = true,
    install: @escaping @Sendable (_ dependencies: inout DependencyValues, _ call: @escaping @Sendable (Input) async throws -> Output) -> Void
  ) -> Stub {
    let shape: @Sendable () -> String = {
      "an endpoint: `{ returns: \(typeName(Output.self)) }`"
        + (canThrow ? " or `{ throws: MESSAGE }`" : "") + ", a list of responses, or `{ responses: …, calls: […] }`"
    }
    // An unstubbed endpoint that cannot throw and must return a value keeps the client's own
    // `testValue`, which reports that it is unimplemented and returns its default.
    let canAnswerUnstubbed = canThrow || Output.self == Nothing.self
    let configure: @Sendable (YAMLNode, StubContext) throws -> ConfiguredStub = { node, context in
      let endpoint = try Endpoint<Input, Output>(name: name, node: node, canThrow: canThrow, context: context)
      return ConfiguredStub(
        install: { install(&$0, endpoint.call) }, finish: endpoint.checkCalls, uses: { endpoint.calls.value.count })
    }
    let unstubbed: @Sendable (Input) async throws -> Output = { _ in
      let message =
        "`\(name)` was called, but the scenario does not stub it: add `\(name): { returns: … }` to its `dependencies:`"
      reportIssue(message)
      // An endpoint that cannot throw must answer: with nothing, when it returns nothing.
      if !canThrow, let nothing = Nothing() as? Output { return nothing }
      throw StubFailure(message)
    }
    let installUnstubbed: @Sendable (inout DependencyValues, StubContext) -> Void = { dependencies, _ in
      install(&dependencies, unstubbed)
    }
    return Stub(
      name: name, shape: shape(), signature: .endpoint(input: DecodableType(Input.self), output: DecodableType(Output.self), canThrow: canThrow),
      configure: configure, installUnstubbed: canAnswerUnstubbed ? installUnstubbed : nil)
  }
}

/// The value of an endpoint without input, or of one that returns nothing: written `null`.
public struct Nothing: Decodable, Equatable, Sendable, CustomDumpStringConvertible {
  public init() {}

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    guard container.decodeNil() else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "this endpoint returns nothing: write `returns: null`"))
    }
  }

  public var customDumpDescription: String { "()" }
}

/// One stubbed endpoint in one scenario: its responses, and the calls it got.
private final class Endpoint<Input: Decodable & Equatable & Sendable, Output: Decodable & Sendable>: Sendable {
  enum Answer: Sendable {
    case returns(Output)
    case `throws`(String)
  }

  struct Response: Sendable {
    var answer: Answer
    var after: Duration?
  }

  let name: String
  let canThrow: Bool
  let responses: [Response]
  /// A single response (not in a list) answers every call.
  let answersEveryCall: Bool
  let expectedCalls: (inputs: [Input], node: YAMLNode)?
  let clock: any Clock<Duration>
  let calls = LockIsolated<[Input]>([])

  init(name: String, node: YAMLNode, canThrow: Bool, context: StubContext) throws {
    self.name = name
    self.canThrow = canThrow
    self.clock = context.clock
    var decoder = context.decoder
    decoder.rootName = "`\(name)`"
    var responsesNode = node
    var expected: (inputs: [Input], node: YAMLNode)?
    if var mapping = node.mapping, mapping["responses"] != nil || mapping["calls"] != nil {
      if let calls = mapping.entry("calls") {
        guard calls.value.sequence != nil else {
          throw YAMLError(
            "expected a list of the inputs `\(name)` must be called with for `calls`, found \(calls.value.foundDescription)",
            at: calls.value)
        }
        expected = (try decoder.decode([Input].self, from: calls.value), calls.key)
        mapping["calls"] = nil
      }
      if let responses = mapping["responses"] {
        // `{ responses: …, calls: … }`
        for entry in mapping.entries where entry.name != "responses" {
          throw YAMLError(
            "unknown key `\(entry.name)` beside `responses`" + Suggestion.hint(for: entry.name, in: ["responses", "calls"])
              + "; a response's own keys go inside `responses`",
            at: entry.key)
        }
        responsesNode = responses
      } else if mapping.isEmpty {
        throw YAMLError("`\(name)` lists `calls` but no response: add `returns: …` (or `responses: […]`) beside it", at: node)
      } else {
        // `{ returns: …, calls: … }`: one response for every call, and the inputs.
        responsesNode.content = .mapping(mapping)
      }
    }
    self.expectedCalls = expected
    if let list = responsesNode.sequence {
      guard !list.isEmpty else {
        throw YAMLError(
          "the list of responses for `\(name)` is empty: give one response per call, e.g. `{ returns: … }`",
          at: responsesNode)
      }
      responses = try list.map { try Self.response($0, name: name, canThrow: canThrow, decoder: decoder) }
      answersEveryCall = false
    } else {
      responses = [try Self.response(responsesNode, name: name, canThrow: canThrow, decoder: decoder)]
      answersEveryCall = true
    }
  }

  private static func response(_ node: YAMLNode, name: String, canThrow: Bool, decoder: YAMLDecoder) throws -> Response {
    guard let mapping = node.mapping else {
      throw YAMLError(
        "expected a response for `\(name)` (`returns: VALUE`" + (canThrow ? " or `throws: MESSAGE`" : "")
          + "), found \(node.foundDescription)",
        at: node)
    }
    let allowed = ["returns", "throws", "after"]
    for entry in mapping.entries where !allowed.contains(entry.name) {
      throw YAMLError(
        "unknown key `\(entry.name)` in a response of `\(name)`" + Suggestion.hint(for: entry.name, in: allowed),
        at: entry.key)
    }
    var after: Duration?
    if let node = mapping["after"] {
      guard let text = node.scalar?.value, !node.isStringOnly, let duration = DurationText.parse(text) else {
        throw YAMLError(
          "expected a duration (`300ms`, `1.5s`, `2m`, or a number of seconds) for `after`, found \(node.foundDescription)",
          at: node)
      }
      after = duration
    }
    switch (mapping.entry("returns"), mapping.entry("throws")) {
    case (let returns?, nil):
      return Response(answer: .returns(try decoder.decode(Output.self, from: returns.value)), after: after)
    case (nil, let thrown?):
      guard canThrow else {
        throw YAMLError("`\(name)` cannot throw (it is `async` without `throws`): give it `returns:`", at: thrown.key)
      }
      guard let message = thrown.value.scalar?.value, !thrown.value.isNull else {
        throw YAMLError(
          "expected the error's message for `throws`, found \(thrown.value.foundDescription)", at: thrown.value)
      }
      return Response(answer: .throws(message), after: after)
    case (_?, let thrown?):
      throw YAMLError("a response has `returns` or `throws`, not both", at: thrown.key)
    case (nil, nil):
      throw YAMLError(
        "a response of `\(name)` needs `returns: VALUE`" + (canThrow ? " or `throws: MESSAGE`" : "")
          + (Output.self == Nothing.self ? " (`returns: null` for an endpoint that returns nothing)" : ""),
        at: node)
    }
  }

  @Sendable func call(_ input: Input) async throws -> Output {
    let index = calls.withValue { calls in
      calls.append(input)
      return calls.count - 1
    }
    let response: Response
    if answersEveryCall {
      response = responses[0]
    } else if index < responses.count {
      response = responses[index]
    } else {
      let message =
        "`\(name)` was called \(index + 1) times, but its stub gives \(responses.count) "
        + (responses.count == 1 ? "response" : "responses")
        + ": add a response for each call (a single response, not in a list, answers every call)"
      reportIssue(message)
      if case .returns(let value) = responses[responses.count - 1].answer { return value }
      throw StubFailure(message)
    }
    if let after = response.after {
      do {
        try await clock.sleep(for: after)
      } catch {
        // Cancelled while held: an endpoint that cannot throw still answers (the effect that
        // called it is cancelled, so what it sends is dropped).
        if canThrow { throw error }
      }
    }
    switch response.answer {
    case .returns(let value): return value
    case .throws(let message): throw StubFailure(message)
    }
  }

  @Sendable func checkCalls() -> [(message: String, node: YAMLNode)] {
    guard let expected = expectedCalls else { return [] }
    let actual = calls.value
    guard actual != expected.inputs else { return [] }
    let difference = diff(expected.inputs, actual, format: .proportional) ?? ""
    return [
      (
        """
        `\(name)` was not called with the inputs that `calls` lists: …

        \(difference.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n"))

        (Expected: −, Actual: +)
        """,
        expected.node
      )
    ]
  }
}

// MARK: - Stream stubs

extension Stub {
  /// A stream stub for an `async` closure that returns an `AsyncStream`, such as
  /// `screenshots: @Sendable () async -> AsyncStream<Void>`:
  /// `.stream("screenshots.screenshots", \.screenshots.screenshots)`.
  ///
  /// A spec stubs it with `{ stream: open }`: each call returns a new stream that stays open.
  /// `emit: { ENDPOINT: VALUE }` yields VALUE into every stream open at that step (`null` for
  /// `Void`), and `close: ENDPOINT` finishes them.
  public static func stream<Value: Decodable & Sendable>(
    _ name: String, _ keyPath: WritableKeyPath<DependencyValues, @Sendable () async -> AsyncStream<Value>> & Sendable
  ) -> Stub {
    stream(name, of: Value.self, convert: { $0 }) { dependencies, open in dependencies[keyPath: keyPath] = { open() } }
  }

  /// The same, for a closure that is not `async`: `@Sendable () -> AsyncStream<Value>`.
  public static func stream<Value: Decodable & Sendable>(
    _ name: String, _ keyPath: WritableKeyPath<DependencyValues, @Sendable () -> AsyncStream<Value>> & Sendable
  ) -> Stub {
    stream(name, of: Value.self, convert: { $0 }) { dependencies, open in dependencies[keyPath: keyPath] = open }
  }

  /// A stream stub for `@Sendable () async -> AsyncStream<Void>`: `emit:` writes `null`.
  public static func stream(
    _ name: String, _ keyPath: WritableKeyPath<DependencyValues, @Sendable () async -> AsyncStream<Void>> & Sendable
  ) -> Stub {
    stream(name, of: Nothing.self, convert: { _ in () }) { dependencies, open in
      dependencies[keyPath: keyPath] = { open() }
    }
  }

  /// A stream stub for `@Sendable () -> AsyncStream<Void>`: `emit:` writes `null`.
  public static func stream(
    _ name: String, _ keyPath: WritableKeyPath<DependencyValues, @Sendable () -> AsyncStream<Void>> & Sendable
  ) -> Stub {
    stream(name, of: Nothing.self, convert: { _ in () }) { dependencies, open in dependencies[keyPath: keyPath] = open }
  }

  /// A stream stub for any closure shape: `install` puts a closure into the dependencies that
  /// returns what `open()` returns, a new open stream whose elements the spec's `emit:` steps
  /// give (decoded as `Written`, then converted).
  public static func stream<Written: Decodable & Sendable, Element: Sendable>(
    _ name: String, of written: Written.Type, convert: @escaping @Sendable (Written) -> Element,
    install: @escaping @Sendable (_ dependencies: inout DependencyValues, _ open: @escaping @Sendable () -> AsyncStream<Element>) -> Void
  ) -> Stub {
    let shape: @Sendable () -> String = {
      "a stream: `{ stream: open }`; `emit: { \(name): \(typeName(Written.self) == "Nothing" ? "null" : typeName(Written.self)) }` yields a value"
    }
    let configure: @Sendable (YAMLNode, StubContext) throws -> ConfiguredStub = { node, _ in
      guard let mapping = node.mapping, mapping.count == 1, let value = mapping["stream"],
        value.scalar?.value == "open", value.scalar?.style == .plain
      else {
        if let mapping = node.mapping, let entry = mapping.entries.first(where: { $0.name != "stream" }) {
          throw YAMLError(
            "unknown key `\(entry.name)` in the stub of `\(name)`" + Suggestion.hint(for: entry.name, in: ["stream"])
              + "; a stream is stubbed `{ stream: open }`", at: entry.key)
        }
        throw YAMLError(
          "`\(name)` returns a stream: stub it `{ stream: open }`, found \(node.foundDescription)", at: node)
      }
      let streams = OpenStreams<Element>()
      return ConfiguredStub(
        install: { install(&$0, streams.open) }, emit: { streams.yield(convert($0 as! Written)) },
        close: streams.finish, uses: { streams.opened })
    }
    let unstubbed: @Sendable () -> AsyncStream<Element> = {
      reportIssue(
        "`\(name)` was called, but the scenario does not stub it: add `\(name): { stream: open }` to its `dependencies:`")
      return AsyncStream { $0.finish() }
    }
    return Stub(
      name: name, shape: shape(), configure: configure,
      installUnstubbed: { dependencies, _ in install(&dependencies, unstubbed) },
      emission: { node, decoder in
        var decoder = decoder
        decoder.rootName = "`\(name)`"
        return try decoder.decode(Written.self, from: node)
      })
  }
}

/// The streams of one stream stub in one scenario that are still open.
private final class OpenStreams<Element: Sendable>: Sendable {
  private let continuations = LockIsolated<[Int: AsyncStream<Element>.Continuation]>([:])
  private let counter = LockIsolated(0)

  @Sendable func open() -> AsyncStream<Element> {
    let (stream, continuation) = AsyncStream<Element>.makeStream()
    let id = counter.withValue { count in
      defer { count += 1 }
      return count
    }
    continuations.withValue { $0[id] = continuation }
    continuation.onTermination = { [weak self] _ in self?.continuations.withValue { $0[id] = nil } }
    return stream
  }

  /// How many streams were opened.
  var opened: Int { counter.value }

  @Sendable func yield(_ element: Element) {
    for (_, continuation) in continuations.value.sorted(by: { $0.key < $1.key }) { continuation.yield(element) }
  }

  @Sendable func finish() {
    let open = continuations.withValue { continuations in
      defer { continuations.removeAll() }
      return continuations
    }
    for (_, continuation) in open { continuation.finish() }
  }
}

/// What a stubbed endpoint throws: the message of its `throws:`, or of the failure when it
/// has no answer. It is its own `description` and `localizedDescription`, so a feature that
/// keeps an error's message in its state keeps these words.
public struct StubFailure: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
  public var message: String

  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
  public var errorDescription: String? { message }
}
