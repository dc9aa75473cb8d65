import MacroTesting
import ReducerCoreMacros
import Testing

/// `@Presents` alone, and its diagnostics.
@Suite(.macros(["Presents": PresentsMacro.self]))
struct PresentsMacroTests {
  @Test func aPresentedChild() {
    assertMacro {
      """
      struct State {
        @Presents var destination: Destination.State?
      }
      """
    } expansion: {
      """
      struct State {
        var destination: Destination.State? {
          @storageRestrictions(initializes: _destination)
          init(initialValue) {
            _destination = ReducerCore.PresentationState(wrappedValue: initialValue)
          }
          get {
            _destination.wrappedValue
          }
          set {
            _destination.wrappedValue = newValue
          }
        }

        var $destination: ReducerCore.PresentationState<Destination.State> {
          get {
            _destination
          }
          set {
            _destination = newValue
          }
        }

        private var _destination = ReducerCore.PresentationState<Destination.State>(wrappedValue: nil)
      }
      """
    }
  }

  @Test func anInitialValueAndAccessControl() {
    assertMacro {
      """
      public struct State {
        @Presents public var alert: AlertState<Action.Alert>? = nil
      }
      """
    } expansion: {
      """
      public struct State {
        public var alert: AlertState<Action.Alert>? {
          @storageRestrictions(initializes: _alert)
          init(initialValue) {
            _alert = ReducerCore.PresentationState(wrappedValue: initialValue)
          }
          get {
            _alert.wrappedValue
          }
          set {
            _alert.wrappedValue = newValue
          }
        }

        public var $alert: ReducerCore.PresentationState<AlertState<Action.Alert>> {
          get {
            _alert
          }
          set {
            _alert = newValue
          }
        }

        private var _alert = ReducerCore.PresentationState<AlertState<Action.Alert>>(wrappedValue: nil)
      }
      """
    }
  }

  @Test func aStatePresentingItself() {
    assertMacro {
      """
      struct State {
        var count = 0
        @Presents var child: Optional<State>
      }
      """
    } expansion: {
      """
      struct State {
        var count = 0
        var child: Optional<State> {
          @storageRestrictions(initializes: _child)
          init(initialValue) {
            _child = ReducerCore.PresentationState(wrappedValue: initialValue)
          }
          get {
            _child.wrappedValue
          }
          set {
            _child.wrappedValue = newValue
          }
        }

        var $child: ReducerCore.PresentationState<State> {
          get {
            _child
          }
          set {
            _child = newValue
          }
        }

        private var _child = ReducerCore.PresentationState<State>(wrappedValue: nil)
      }
      """
    }
  }

  @Test func aLetIsAnError() {
    assertMacro {
      """
      struct State {
        @Presents let destination: Destination.State?
      }
      """
    } diagnostics: {
      """
      struct State {
        @Presents let destination: Destination.State?
                  ┬──
                  ╰─ 🛑 '@Presents' requires a 'var': the parent presents and dismisses the child
                     ✏️ Replace 'let' with 'var'
      }
      """
    } fixes: {
      """
      struct State {
        @Presents var destination: Destination.State?
      }
      """
    } expansion: {
      """
      struct State {
        var destination: Destination.State? {
          @storageRestrictions(initializes: _destination)
          init(initialValue) {
            _destination = ReducerCore.PresentationState(wrappedValue: initialValue)
          }
          get {
            _destination.wrappedValue
          }
          set {
            _destination.wrappedValue = newValue
          }
        }

        var $destination: ReducerCore.PresentationState<Destination.State> {
          get {
            _destination
          }
          set {
            _destination = newValue
          }
        }

        private var _destination = ReducerCore.PresentationState<Destination.State>(wrappedValue: nil)
      }
      """
    }
  }

  @Test func aTypeThatIsNotOptionalIsAnError() {
    assertMacro {
      """
      struct State {
        @Presents var destination: Destination.State
      }
      """
    } diagnostics: {
      """
      struct State {
        @Presents var destination: Destination.State
                                   ┬────────────────
                                   ╰─ 🛑 '@Presents' needs an optional type: the property is 'nil' when nothing is presented
                                      ✏️ Make the type optional
      }
      """
    } fixes: {
      """
      struct State {
        @Presents var destination: Destination.State?
      }
      """
    } expansion: {
      """
      struct State {
        var destination: Destination.State? {
          @storageRestrictions(initializes: _destination)
          init(initialValue) {
            _destination = ReducerCore.PresentationState(wrappedValue: initialValue)
          }
          get {
            _destination.wrappedValue
          }
          set {
            _destination.wrappedValue = newValue
          }
        }

        var $destination: ReducerCore.PresentationState<Destination.State> {
          get {
            _destination
          }
          set {
            _destination = newValue
          }
        }

        private var _destination = ReducerCore.PresentationState<Destination.State>(wrappedValue: nil)
      }
      """
    }
  }

  @Test func aPropertyWithoutATypeIsAnError() {
    assertMacro {
      """
      struct State {
        @Presents var destination = Destination.State.alert(.delete)
      }
      """
    } diagnostics: {
      """
      struct State {
        @Presents var destination = Destination.State.alert(.delete)
                      ┬──────────
                      ╰─ 🛑 '@Presents' needs the property's optional type: '@Presents var destination: Child.State?'
      }
      """
    }
  }

  @Test func aComputedPropertyIsAnError() {
    assertMacro {
      """
      struct State {
        @Presents var destination: Destination.State? { nil }
      }
      """
    } diagnostics: {
      """
      struct State {
        @Presents var destination: Destination.State? { nil }
        ┬────────
        ╰─ 🛑 '@Presents' cannot be applied to a computed property
      }
      """
    }
  }

  @Test func aStaticPropertyIsAnError() {
    assertMacro {
      """
      struct State {
        @Presents static var destination: Destination.State?
      }
      """
    } diagnostics: {
      """
      struct State {
        @Presents static var destination: Destination.State?
        ┬────────
        ╰─ 🛑 '@Presents' cannot be applied to a static property
      }
      """
    }
  }

  @Test func aFunctionIsAnError() {
    assertMacro {
      """
      struct State {
        @Presents func destination() {}
      }
      """
    } diagnostics: {
      """
      struct State {
        @Presents func destination() {}
        ┬────────
        ╰─ 🛑 '@Presents' can only be applied to a property
      }
      """
    }
  }

  @Test func severalPropertiesAreAnError() {
    assertMacro {
      """
      struct State {
        @Presents var sheet: Sheet.State?, alert: AlertState<Alert>?
      }
      """
    } diagnostics: {
      """
      struct State {
        @Presents var sheet: Sheet.State?, alert: AlertState<Alert>?
        ┬───────────────────────────────────────────────────────────
        ├─ 🛑 accessor macro can only be applied to a single variable
        ╰─ 🛑 peer macro can only be applied to a single variable
      }
      """
    }
  }
}
