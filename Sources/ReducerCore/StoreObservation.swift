extension Store where State: ObservableState {
  /// A field of the state, read through the store as in TCA: `store.count` is `store.state.count`.
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    state[keyPath: keyPath]
  }
}
