import ReducerCoreMacros
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// `@Presents` alone, and its diagnostics.
struct PresentsMacroTests {
  static let macros: [String: MacroSpec] = ["Presents": MacroSpec(type: PresentsMacro.self)]

  @Test func aPresentedChild() {
    assertExpansion(
      """
      struct State {
        @Presents var destination: Destination.State?
      }
      """,
      expandsTo: """
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
      """,
      macros: Self.macros)
  }

  @Test func anInitialValueAndAccessControl() {
    assertExpansion(
      """
      public struct State {
        @Presents public var alert: AlertState<Action.Alert>? = nil
      }
      """,
      expandsTo: """
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
      """,
      macros: Self.macros)
  }

  /// The projected value is as visible as the property, whatever the type's access level;
  /// the storage is `private`.
  @Test(arguments: ["private ", "fileprivate ", "", "package ", "public "])
  func theProjectionIsAsVisibleAsTheProperty(access: String) {
    assertExpansion(
      """
      private struct Feature {
        \(access)struct State {
          @Presents \(access)var destination: Destination.State?
        }
      }
      """,
      expandsTo: """
      private struct Feature {
        \(access)struct State {
          \(access)var destination: Destination.State? {
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

          \(access)var $destination: ReducerCore.PresentationState<Destination.State> {
            get {
              _destination
            }
            set {
              _destination = newValue
            }
          }

          private var _destination = ReducerCore.PresentationState<Destination.State>(wrappedValue: nil)
        }
      }
      """,
      macros: Self.macros)
  }

  @Test func aStatePresentingItself() {
    assertExpansion(
      """
      struct State {
        var count = 0
        @Presents var child: Optional<State>
      }
      """,
      expandsTo: """
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
      """,
      macros: Self.macros)
  }

  @Test func aLetIsAnError() {
    assertExpansion(
      """
      struct State {
        @Presents let destination: Destination.State?
      }
      """,
      expandsTo: """
      struct State {
        let destination: Destination.State?
      }
      """,
      diagnostics: [
        DiagnosticSpec(message: "'@Presents' requires a 'var': the parent presents and dismisses the child", line: 2, column: 13, fixIts: [FixItSpec(message: "Replace 'let' with 'var'")]),
      ],
      fixed: """
      struct State {
        @Presents var destination: Destination.State?
      }
      """,
      macros: Self.macros)
  }

  @Test func aTypeThatIsNotOptionalIsAnError() {
    assertExpansion(
      """
      struct State {
        @Presents var destination: Destination.State
      }
      """,
      expandsTo: """
      struct State {
        var destination: Destination.State
      }
      """,
      diagnostics: [
        DiagnosticSpec(message: "'@Presents' needs an optional type: the property is 'nil' when nothing is presented", line: 2, column: 30, fixIts: [FixItSpec(message: "Make the type optional")]),
      ],
      fixed: """
      struct State {
        @Presents var destination: Destination.State?
      }
      """,
      macros: Self.macros)
  }

  @Test func aPropertyWithoutATypeIsAnError() {
    assertExpansion(
      """
      struct State {
        @Presents var destination = Destination.State.alert(.delete)
      }
      """,
      expandsTo: """
      struct State {
        var destination = Destination.State.alert(.delete)
      }
      """,
      diagnostics: [
        DiagnosticSpec(message: "'@Presents' needs the property's optional type: '@Presents var destination: Child.State?'", line: 2, column: 17),
      ],
      macros: Self.macros)
  }

  @Test func aComputedPropertyIsAnError() {
    assertExpansion(
      """
      struct State {
        @Presents var destination: Destination.State? { nil }
      }
      """,
      expandsTo: """
      struct State {
        var destination: Destination.State? { nil }
      }
      """,
      diagnostics: [
        DiagnosticSpec(message: "'@Presents' cannot be applied to a computed property", line: 2, column: 3),
      ],
      macros: Self.macros)
  }

  @Test func aStaticPropertyIsAnError() {
    assertExpansion(
      """
      struct State {
        @Presents static var destination: Destination.State?
      }
      """,
      expandsTo: """
      struct State {
        static var destination: Destination.State?
      }
      """,
      diagnostics: [
        DiagnosticSpec(message: "'@Presents' cannot be applied to a static property", line: 2, column: 3),
      ],
      macros: Self.macros)
  }

  @Test func aFunctionIsAnError() {
    assertExpansion(
      """
      struct State {
        @Presents func destination() {}
      }
      """,
      expandsTo: """
      struct State {
        func destination() {}
      }
      """,
      diagnostics: [
        DiagnosticSpec(message: "'@Presents' can only be applied to a property", line: 2, column: 3),
      ],
      macros: Self.macros)
  }

  @Test func severalPropertiesAreAnError() {
    assertExpansion(
      """
      struct State {
        @Presents var sheet: Sheet.State?, alert: AlertState<Alert>?
      }
      """,
      expandsTo: """
      struct State {
        var sheet: Sheet.State?, alert: AlertState<Alert>?
      }
      """,
      diagnostics: [
        DiagnosticSpec(message: "accessor macro can only be applied to a single variable", line: 2, column: 3),
        DiagnosticSpec(message: "peer macro can only be applied to a single variable", line: 2, column: 3),
      ],
      macros: Self.macros)
  }
}
