import Dependencies

// The initializers of `@Shared` and `@SharedReader` that take a key, as swift-sharing 2's.
//
// Each takes the reference of the key in the current dependencies' `sharedReferences`: the
// one that another `@Shared` of the key made, or a new one, which loads the key's value (or
// takes the initial value when the key's storage has none). The location parameters are
// where a failure to load or save is reported.

extension Shared {
  /// A shared reference to the value of a key, with an initial value for a key whose
  /// storage has none: `@Shared(.appStorage("isOn")) var isOn = false`.
  ///
  /// When a reference of the key exists, it is that reference, whatever `wrappedValue` says.
  public init(
    wrappedValue: @autoclosure () -> Value,
    _ key: some SharedKey<Value>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    self.init(rethrowing: wrappedValue(), key, skipInitialLoad: false, location: location)
  }

  /// A shared reference to the optional value of a key, `nil` when its storage has none:
  /// `@Shared(.appStorage("name")) var name: String?`.
  @_disfavoredOverload
  public init<Wrapped>(
    _ key: some SharedKey<Value>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where Value == Wrapped? {
    self.init(wrappedValue: nil, key, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// A shared reference to the value of a key with a default: `@Shared(.syncUps) var syncUps`.
  public init<K: SharedKey<Value>>(
    _ key: K.Default,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.init(
      wrappedValue: key.initialValue, key.base, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// A shared reference to the value of a key with a default, with another initial value:
  /// `@Shared(.syncUps) var syncUps = [.mock]`.
  public init<K: SharedKey<Value>>(
    wrappedValue: @autoclosure () -> Value,
    _ key: K.Default,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.init(wrappedValue: wrappedValue(), key.base, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// A shared reference to the value of a key, loaded from its storage, which must have one.
  ///
  /// - Throws: The key's error, or an error when its storage has no value.
  public init(
    require key: some SharedKey<Value>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async throws {
    let value = try await loadRequired(key)
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    self.init(rethrowing: value, key, skipInitialLoad: true, location: location)
  }

  /// Replaces the reference with the one of `key`, and loads its value.
  public func load(
    _ key: some SharedKey<Value>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async throws {
    @Dependency(\.sharedReferences) var references
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    projectedValue = Shared(
      reference: references.reference(
        for: key, initialValue: { wrappedValue }, skipInitialLoad: true, location: location))
    try await load()
  }

  @available(*, unavailable, message: "Assign a default value")
  public init(_ key: some SharedKey<Value>) {
    fatalError()
  }

  private init(
    rethrowing value: @autoclosure () throws -> Value,
    _ key: some SharedKey<Value>,
    skipInitialLoad: Bool,
    location: SourceLocation
  ) rethrows {
    @Dependency(\.sharedReferences) var references
    self.init(
      reference: try references.reference(
        for: key, initialValue: value, skipInitialLoad: skipInitialLoad, location: location))
  }
}

extension SharedReader {
  /// A read-only reference to the value of a key, with an initial value for a key whose
  /// storage has none.
  public init(
    wrappedValue: @autoclosure () -> Value,
    _ key: some SharedReaderKey<Value>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    self.init(rethrowing: wrappedValue(), key, skipInitialLoad: false, location: location)
  }

  // The overloads for `SharedKey` find the static members of `SharedKey` extensions
  // (`extension SharedKey where Self == …`), which a `SharedReaderKey` parameter would not.

  @_disfavoredOverload
  public init(
    wrappedValue: @autoclosure () -> Value,
    _ key: some SharedKey<Value>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    self.init(rethrowing: wrappedValue(), key, skipInitialLoad: false, location: location)
  }

  /// A read-only reference to the optional value of a key, `nil` when its storage has none.
  @_disfavoredOverload
  public init<Wrapped>(
    _ key: some SharedReaderKey<Value>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where Value == Wrapped? {
    self.init(wrappedValue: nil, key, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  @_disfavoredOverload
  public init<Wrapped>(
    _ key: some SharedKey<Value>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where Value == Wrapped? {
    self.init(wrappedValue: nil, key, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// A read-only reference to the value of a key with a default.
  public init<K: SharedReaderKey<Value>>(
    _ key: K.Default,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.init(
      wrappedValue: key.initialValue, key.base, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  @_disfavoredOverload
  public init<K: SharedKey<Value>>(
    _ key: K.Default,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.init(
      wrappedValue: key.initialValue, key.base, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// A read-only reference to the value of a key with a default, with another initial value.
  public init<K: SharedReaderKey<Value>>(
    wrappedValue: @autoclosure () -> Value,
    _ key: K.Default,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.init(wrappedValue: wrappedValue(), key.base, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  @_disfavoredOverload
  public init<K: SharedKey<Value>>(
    wrappedValue: @autoclosure () -> Value,
    _ key: K.Default,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.init(wrappedValue: wrappedValue(), key.base, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// A read-only reference to the value of a key, loaded from its storage, which must have
  /// one.
  public init(
    require key: some SharedReaderKey<Value>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async throws {
    let value = try await loadRequired(key)
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    self.init(rethrowing: value, key, skipInitialLoad: true, location: location)
  }

  /// Replaces the reference with the one of `key`, and loads its value.
  public func load(
    _ key: some SharedReaderKey<Value>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async throws {
    @Dependency(\.sharedReferences) var references
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    projectedValue = SharedReader(
      reference: references.reference(
        for: key, initialValue: { wrappedValue }, skipInitialLoad: true, location: location))
    try await load()
  }

  @available(*, unavailable, message: "Assign a default value")
  public init(_ key: some SharedReaderKey<Value>) {
    fatalError()
  }

  @_disfavoredOverload
  @available(*, unavailable, message: "Assign a default value")
  public init(_ key: some SharedKey<Value>) {
    fatalError()
  }

  private init(
    rethrowing value: @autoclosure () throws -> Value,
    _ key: some SharedReaderKey<Value>,
    skipInitialLoad: Bool,
    location: SourceLocation
  ) rethrows {
    @Dependency(\.sharedReferences) var references
    self.init(
      reference: try references.reference(
        for: key, initialValue: value, skipInitialLoad: skipInitialLoad, location: location))
  }
}

/// The error of `init(require:)` when the key's storage has no value.
struct SharedKeyHasNoValue: Error, CustomStringConvertible {
  let key: String
  var description: String { "'\(key)' has no value to load." }
}

/// The value of `key` in its storage, for `init(require:)`.
private func loadRequired<Key: SharedReaderKey>(_ key: Key) async throws -> Key.Value {
  let value: Key.Value? = try await withUnsafeThrowingContinuation { continuation in
    key.load(context: .userInitiated, continuation: LoadContinuation("\(key)") { continuation.resume(with: $0) })
  }
  guard let value else { throw SharedKeyHasNoValue(key: "\(key)") }
  return value
}
