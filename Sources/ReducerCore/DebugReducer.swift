import ConcurrencyExtras
import CustomDump
import Dispatch

extension Reducer {
  /// Prints each action this reducer receives and the change it makes to the state, as TCA's
  /// `_printChanges`: in debug builds only, on the printer's queue.
  ///
  /// ```swift
  /// var body: some ReducerOf<Self> {
  ///   Reduce { state, action in … }
  ///     ._printChanges()
  /// }
  /// ```
  ///
  /// The default printer, ``_ReducerPrinter/customDump``, prints:
  ///
  /// ```
  /// received action:
  ///   Counter.Action.incrementButtonTapped
  /// - Counter.State(count: 0)
  /// + Counter.State(count: 1)
  /// ```
  public func _printChanges(
    _ printer: _ReducerPrinter<State, Action>? = .customDump
  ) -> _PrintChangesReducer<Self> {
    _PrintChangesReducer(base: self, printer: printer)
  }
}

private let printQueue = DispatchQueue(label: "reducer-core.printer")

/// How ``Reducer/_printChanges(_:)`` prints an action and the change it made, and on which queue.
public struct _ReducerPrinter<State, Action>: Sendable {
  private let _printChange: @Sendable (_ receivedAction: Action, _ oldState: State, _ newState: State) -> Void
  let queue: DispatchQueue

  /// A printer that calls `printChange` on `queue` (by default, a serial queue of its own).
  public init(
    printChange: @escaping @Sendable (_ receivedAction: Action, _ oldState: State, _ newState: State) -> Void,
    queue: DispatchQueue? = nil
  ) {
    self._printChange = printChange
    self.queue = queue ?? printQueue
  }

  /// Prints one action and the states before and after it.
  public func printChange(receivedAction: Action, oldState: State, newState: State) {
    _printChange(receivedAction, oldState, newState)
  }
}

extension _ReducerPrinter {
  /// Prints the action as `customDump` writes it, and the difference of the states (or
  /// `(No state changes)`).
  public static var customDump: Self {
    Self { receivedAction, oldState, newState in
      print(customDumpText(receivedAction: receivedAction, oldState: oldState, newState: newState))
    }
  }

  /// Prints only the action's case: `received action: Counter.Action.incrementButtonTapped`.
  public static var actionLabels: Self {
    Self { receivedAction, _, _ in
      print(actionLabelText(receivedAction: receivedAction))
    }
  }

  /// The text that ``customDump`` prints.
  package static func customDumpText(receivedAction: Action, oldState: State, newState: State) -> String {
    var target = ""
    target.write("received action:\n")
    CustomDump.customDump(receivedAction, to: &target, indent: 2)
    target.write("\n")
    target.write(diff(oldState, newState).map { "\($0)\n" } ?? "  (No state changes)\n")
    return target
  }

  /// The text that ``actionLabels`` prints.
  package static func actionLabelText(receivedAction: Action) -> String {
    "received action: \(debugCaseOutput(receivedAction))"
  }
}

/// The reducer of ``Reducer/_printChanges(_:)``.
public struct _PrintChangesReducer<Base: Reducer>: Reducer {
  let base: Base
  let printer: _ReducerPrinter<Base.State, Base.Action>?

  init(base: Base, printer: _ReducerPrinter<Base.State, Base.Action>?) {
    self.base = base
    self.printer = printer
  }

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    #if DEBUG
      if let printer {
        let oldState = UncheckedSendable(state)
        let effects = base.reduce(into: &state, action: action)
        let newState = UncheckedSendable(state)
        let action = UncheckedSendable(action)
        printer.queue.async {
          printer.printChange(
            receivedAction: action.wrappedValue, oldState: oldState.wrappedValue, newState: newState.wrappedValue)
        }
        return effects
      }
    #endif
    return base.reduce(into: &state, action: action)
  }
}
