import SpecRunner

/// The shapes of a feature's types, probed once.
@MainActor
package struct FeatureShapes {
  package enum Signature {
    case value(TypeShape, isList: Bool)
    case endpoint(input: TypeShape, output: TypeShape, canThrow: Bool)
  }

  package let state: TypeShape
  package let action: TypeShape
  /// The feature's own stubs' shapes, by name.
  package let signatures: [String: Signature]

  package init(_ feature: Feature) {
    let probe = ShapeProbe()
    state = probe.shape(of: feature.types.state.type)
    action = probe.shape(of: feature.types.action.type, userInfo: feature.types.userInfo)
    var signatures: [String: Signature] = [:]
    for stub in feature.stubs {
      switch stub.signature {
      case .value(let type, let isList)?:
        signatures[stub.name] = .value(probe.shape(of: type.type), isList: isList)
      case .endpoint(let input, let output, let canThrow)?:
        signatures[stub.name] = .endpoint(
          input: probe.shape(of: input.type), output: probe.shape(of: output.type), canThrow: canThrow)
      case nil:
        break
      }
    }
    self.signatures = signatures
  }

  package var actionCases: [TypeShape.Case] {
    if case .enumeration(_, let cases) = action { return cases }
    return []
  }
}
