extension Reducer {
  /// Runs `perform` after this reducer when a value of the state changed, as TCA's
  /// `onChange(of:_:)` whose closure returns an effect.
  ///
  /// ```swift
  /// BindingReducer()
  ///   .onChange(of: \.stepCount) { oldValue, state in
  ///     state.sliderValue = .minimum(state.sliderValue, Double(state.stepCount))
  ///     return .none
  ///   }
  /// ```
  ///
  /// - Parameters:
  ///   - toValue: The value to watch.
  ///   - perform: What to do when the value after this reducer differs from the value before
  ///     it: gets the value before, and the state to change; returns the effects to run.
  public func onChange<V: Equatable>(
    of toValue: @escaping (State) -> V,
    _ perform: @escaping (_ oldValue: V, _ state: inout State) -> Effect<Action>
  ) -> some Reducer<State, Action> {
    _OnChangeEffectReducer(base: self, toValue: toValue, perform: perform)
  }
}

/// The reducer of ``Reducer/onChange(of:_:)-(_,(V,inout State)->Effect<Action>)``.
struct _OnChangeEffectReducer<Base: Reducer, Value: Equatable>: Reducer {
  let base: Base
  let toValue: (Base.State) -> Value
  let perform: (Value, inout Base.State) -> Effect<Base.Action>

  func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let oldValue = toValue(state)
    let baseEffects = base.reduce(into: &state, action: action)
    guard oldValue != toValue(state) else { return baseEffects }
    return .merge(baseEffects, perform(oldValue, &state))
  }
}
