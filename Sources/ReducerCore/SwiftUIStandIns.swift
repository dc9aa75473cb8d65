#if canImport(SwiftUI)
  import SwiftUI
#endif

// TCA's reducer API takes a few SwiftUI types: `send(_:animation:)` in an effect, the animation
// of an alert button, a transaction. ReducerCore's stores drive no views, so animations and
// transactions have nothing to animate: every API here accepts them and otherwise does what the
// version without them does. Where SwiftUI exists, they are SwiftUI's own types; elsewhere
// (Linux), the stand-ins below, whose values do nothing.

#if !canImport(SwiftUI)
  /// A stand-in for SwiftUI's `Animation` where SwiftUI does not exist: its values have the
  /// names of SwiftUI's (`.default`, `.linear`, `.spring()`, `.easeInOut(duration:)`, …) and
  /// do nothing.
  ///
  /// ```swift
  /// await send(.sortCompletedTodos, animation: .default)
  /// ```
  public struct Animation: Hashable, Sendable, CustomStringConvertible {
    /// The name of the SwiftUI animation that the value stands for, with its arguments.
    public let description: String

    init(_ description: String) {
      self.description = description
    }

    public static let `default` = Self("default")
    public static let linear = Self("linear")
    public static let easeIn = Self("easeIn")
    public static let easeOut = Self("easeOut")
    public static let easeInOut = Self("easeInOut")
    public static let bouncy = Self("bouncy")
    public static let smooth = Self("smooth")
    public static let snappy = Self("snappy")
    public static let interactiveSpring = Self("interactiveSpring")
    public static let spring = Self("spring")

    public static func linear(duration: Double) -> Self { Self("linear(duration: \(duration))") }
    public static func easeIn(duration: Double) -> Self { Self("easeIn(duration: \(duration))") }
    public static func easeOut(duration: Double) -> Self { Self("easeOut(duration: \(duration))") }
    public static func easeInOut(duration: Double) -> Self { Self("easeInOut(duration: \(duration))") }

    public static func timingCurve(
      _ c0x: Double, _ c0y: Double, _ c1x: Double, _ c1y: Double, duration: Double = 0.35
    ) -> Self {
      Self("timingCurve(\(c0x), \(c0y), \(c1x), \(c1y), duration: \(duration))")
    }

    public static func spring(
      response: Double = 0.5, dampingFraction: Double = 0.825, blendDuration: Double = 0
    ) -> Self {
      Self("spring(response: \(response), dampingFraction: \(dampingFraction), blendDuration: \(blendDuration))")
    }

    @_disfavoredOverload
    public static func spring(duration: Double = 0.5, bounce: Double = 0, blendDuration: Double = 0) -> Self {
      Self("spring(duration: \(duration), bounce: \(bounce), blendDuration: \(blendDuration))")
    }

    public static func interactiveSpring(
      response: Double = 0.15, dampingFraction: Double = 0.86, blendDuration: Double = 0.25
    ) -> Self {
      Self(
        "interactiveSpring(response: \(response), dampingFraction: \(dampingFraction), blendDuration: \(blendDuration))"
      )
    }

    public static func interpolatingSpring(
      mass: Double = 1, stiffness: Double, damping: Double, initialVelocity: Double = 0
    ) -> Self {
      Self(
        "interpolatingSpring(mass: \(mass), stiffness: \(stiffness), damping: \(damping), initialVelocity: \(initialVelocity))"
      )
    }

    public static func bouncy(duration: Double = 0.5, extraBounce: Double = 0) -> Self {
      Self("bouncy(duration: \(duration), extraBounce: \(extraBounce))")
    }

    public static func smooth(duration: Double = 0.5, extraBounce: Double = 0) -> Self {
      Self("smooth(duration: \(duration), extraBounce: \(extraBounce))")
    }

    public static func snappy(duration: Double = 0.5, extraBounce: Double = 0) -> Self {
      Self("snappy(duration: \(duration), extraBounce: \(extraBounce))")
    }

    /// The same animation, started after `delay` seconds.
    public func delay(_ delay: Double) -> Self { Self("\(description).delay(\(delay))") }
    /// The same animation at another speed.
    public func speed(_ speed: Double) -> Self { Self("\(description).speed(\(speed))") }
    /// The same animation, repeated.
    public func repeatCount(_ repeatCount: Int, autoreverses: Bool = true) -> Self {
      Self("\(description).repeatCount(\(repeatCount), autoreverses: \(autoreverses))")
    }
    /// The same animation, repeated for ever.
    public func repeatForever(autoreverses: Bool = true) -> Self {
      Self("\(description).repeatForever(autoreverses: \(autoreverses))")
    }
  }

  /// A stand-in for SwiftUI's `Transaction` where SwiftUI does not exist: it holds an animation
  /// and does nothing with it.
  public struct Transaction: Sendable {
    /// The animation of the transaction.
    public var animation: Animation?
    /// Whether animations are turned off.
    public var disablesAnimations = false

    /// A transaction without an animation.
    public init() {}

    /// A transaction with an animation.
    public init(animation: Animation?) {
      self.animation = animation
    }
  }

  /// SwiftUI's `withAnimation` where SwiftUI does not exist: runs `body`; the animation does
  /// nothing.
  @discardableResult
  public func withAnimation<Result>(_ animation: Animation? = .default, _ body: () throws -> Result) rethrows -> Result {
    try body()
  }

  /// SwiftUI's `withTransaction` where SwiftUI does not exist: runs `body`; the transaction does
  /// nothing.
  @discardableResult
  public func withTransaction<Result>(_ transaction: Transaction, _ body: () throws -> Result) rethrows -> Result {
    try body()
  }
#endif

extension Send {
  /// Sends an action with an animation, as TCA's `send(_:animation:)`: the action is sent as
  /// ``callAsFunction(_:)`` sends it, inside `withAnimation`.
  ///
  /// ```swift
  /// await send(.timerTicked, animation: .interpolatingSpring(stiffness: 3000, damping: 40))
  /// ```
  public func callAsFunction(_ action: Action, animation: Animation?) {
    callAsFunction(action, transaction: Transaction(animation: animation))
  }

  /// Sends an action inside a transaction, as TCA's `send(_:transaction:)`.
  public func callAsFunction(_ action: Action, transaction: Transaction) {
    guard !Task.isCancelled else { return }
    withTransaction(transaction) {
      self(action)
    }
  }
}

extension Effect {
  /// Sends an action at once, with an animation, as TCA's `send(_:animation:)`; a store of
  /// ReducerCore drives no views, so it is ``send(_:)``.
  public static func send(_ action: Action, animation: Animation? = nil) -> Self {
    .send(action)
  }

  /// The same effect, its actions sent with an animation, as TCA's `animation(_:)`; a store of
  /// ReducerCore drives no views, so the effect is returned unchanged.
  public func animation(_ animation: Animation? = .default) -> Self {
    transaction(Transaction(animation: animation))
  }

  /// The same effect, its actions sent inside a transaction, as TCA's `transaction(_:)`; a
  /// store of ReducerCore drives no views, so the effect is returned unchanged.
  public func transaction(_ transaction: Transaction) -> Self {
    self
  }
}

extension DismissEffect {
  /// Dismisses with an animation, as TCA's `dismiss(animation:)`: the same as ``callAsFunction(fileID:filePath:line:column:)``.
  @MainActor
  public func callAsFunction(
    animation: Animation?,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await callAsFunction(
      transaction: Transaction(animation: animation), fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Dismisses inside a transaction, as TCA's `dismiss(transaction:)`.
  @MainActor
  public func callAsFunction(
    transaction: Transaction,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    withTransaction(transaction) {
      self.dismissOrReport(fileID: fileID, filePath: filePath, line: line, column: column)
    }
  }
}
