import CasePaths

// The case-path (`/Action.response`, `AnyCasePath`) forms of `TestStore.receive`, as TCA keeps
// them for tests written before case key paths: deprecated with TCA's messages.

extension TestStore {
  /// Asserts that the next action an effect sent is in the case of a case path, whatever its
  /// value: `await store.receive(/Action.response)`.
  @_disfavoredOverload
  @available(
    *, deprecated,
    message:
      "Use the version of this operator with case key paths, instead. See the following migration guide for more information: https://swiftpackageindex.com/pointfreeco/swift-composable-architecture/main/documentation/composablearchitecture/migratingto1.4#Using-case-key-paths"
  )
  public func receive<Value>(
    _ actionCase: AnyCasePath<Action, Value>,
    timeout duration: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      matching: { actionCase.extract(from: $0) != nil },
      failureMessage: "Expected to receive an action matching case path, but didn't get one.",
      unexpected: { describeAction($0, indent: 2) }, timeout: duration,
      expectation: StateExpectation.update(updateStateToExpectedResult),
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// The same, with a timeout in nanoseconds.
  @_disfavoredOverload
  @available(*, deprecated, message: "Use the overload that takes a 'Duration' timeout, instead.")
  public func receive<Value>(
    _ actionCase: AnyCasePath<Action, Value>,
    timeout nanoseconds: UInt64,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      actionCase, timeout: .nanoseconds(Int64(clamping: nanoseconds)), assert: updateStateToExpectedResult,
      fileID: fileID, file: filePath, line: line, column: column)
  }
}
