extension YAMLNode {
  /// The entries of a mapping node, in the order of the file, indexed by key.
  ///
  /// Keys are scalars and unique. Lookups by key take constant time: small mappings
  /// compare their few keys, larger ones keep a hash index.
  public struct Mapping: Sendable {
    /// One key and its value.
    public struct Entry: Sendable {
      public var key: YAMLNode
      public var value: YAMLNode

      public init(key: YAMLNode, value: YAMLNode) {
        self.key = key
        self.value = value
      }

      /// The key's text.
      public var name: String { key.scalar?.value ?? "" }
    }

    /// Up to this many entries are looked up by comparing keys; past it, by a hash index.
    static let linearLimit = 8

    /// The entries in order.
    public private(set) var entries: [Entry]
    private var index: [String: Int]?

    public init() {
      entries = []
      index = nil
    }

    /// Builds a mapping from entries whose keys are known to be unique.
    init(uniqueEntries entries: [Entry]) {
      self.entries = entries
      if entries.count > Self.linearLimit { rebuildIndex() }
    }

    private mutating func rebuildIndex() {
      var index = [String: Int](minimumCapacity: entries.count)
      for (offset, entry) in entries.enumerated() { index[entry.name] = offset }
      self.index = index
    }

    /// The number of entries.
    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }

    /// The keys' texts in order.
    public var keys: [String] { entries.map(\.name) }

    /// The position of a key.
    ///
    /// - Complexity: O(1).
    public func position(of key: String) -> Int? {
      if let index { return index[key] }
      for offset in entries.indices where entries[offset].name == key { return offset }
      return nil
    }

    /// The entry for a key.
    ///
    /// - Complexity: O(1).
    public func entry(_ key: String) -> Entry? {
      position(of: key).map { entries[$0] }
    }

    /// The value for a key. Setting a value replaces the key's value in place, or
    /// appends a new entry with a plain key; setting `nil` removes the entry.
    ///
    /// - Complexity: O(1) to read; O(1) amortized to replace or append, O(*n*) to remove.
    public subscript(key: String) -> YAMLNode? {
      get { position(of: key).map { entries[$0].value } }
      set {
        if let newValue {
          set(key: .scalar(key), value: newValue)
        } else if let offset = position(of: key) {
          entries.remove(at: offset)
          if index != nil || entries.count > Self.linearLimit { rebuildIndex() }
        }
      }
    }

    /// Sets a value under a key node, keeping the key node (and its marks) when the key is new.
    public mutating func set(key: YAMLNode, value: YAMLNode) {
      let name = key.scalar?.value ?? ""
      if let offset = position(of: name) {
        entries[offset].value = value
      } else {
        entries.append(Entry(key: key, value: value))
        if index != nil {
          index![name] = entries.count - 1
        } else if entries.count > Self.linearLimit {
          rebuildIndex()
        }
      }
    }
  }
}
