import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Presents var destination: Destination.State?`: the property reads and writes the state
/// kept in `_destination`, a `PresentationState`, and `$destination` is that
/// `PresentationState`.
///
/// ```swift
/// var destination: Destination.State? {
///   @storageRestrictions(initializes: _destination)
///   init(initialValue) {
///     _destination = ReducerCore.PresentationState(wrappedValue: initialValue)
///   }
///   get {
///     _destination.wrappedValue
///   }
///   set {
///     _destination.wrappedValue = newValue
///   }
/// }
///
/// var $destination: ReducerCore.PresentationState<Destination.State> {
///   get {
///     _destination
///   }
///   set {
///     _destination = newValue
///   }
/// }
///
/// private var _destination = ReducerCore.PresentationState<Destination.State>(wrappedValue: nil)
/// ```
public enum PresentsMacro {}

extension PresentsMacro: AccessorMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingAccessorsOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AccessorDeclSyntax] {
    // The diagnostics are given here only, not again by the peer role.
    guard let property = PresentedProperty(declaration, attribute: node, context: context) else { return [] }
    let storage = property.storageName
    return [
      """
      @storageRestrictions(initializes: \(storage))
      init(initialValue) {
      \(storage) = ReducerCore.PresentationState(wrappedValue: initialValue)
      }
      """,
      """
      get {
      \(storage).wrappedValue
      }
      """,
      """
      set {
      \(storage).wrappedValue = newValue
      }
      """,
    ]
  }
}

extension PresentsMacro: PeerMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    guard declaration.is(VariableDeclSyntax.self) else {
      context.diagnose(
        Diagnostic(
          node: node,
          message: MacroDiagnostic("'@Presents' can only be applied to a property", id: "presents-not-property")))
      return []
    }
    // A property that `@Presents` cannot store is diagnosed by the accessor role.
    guard let property = PresentedProperty(declaration, attribute: node, context: nil) else { return [] }
    let modifiers = property.decl.modifiers.map { $0.trimmedDescription + " " }.joined()
    let wrapped = property.wrappedType.trimmed
    let initialValue = property.binding.initializer?.value.trimmed ?? "nil"
    return [
      """
      \(raw: modifiers)var \(property.projectedName): ReducerCore.PresentationState<\(wrapped)> {
      get {
      \(property.storageName)
      }
      set {
      \(property.storageName) = newValue
      }
      }
      """,
      """
      private var \(property.storageName) = ReducerCore.PresentationState<\(wrapped)>(wrappedValue: \(initialValue))
      """,
    ]
  }
}

/// A property that `@Presents` can store: one instance `var` of an optional type.
struct PresentedProperty {
  let decl: VariableDeclSyntax
  let binding: PatternBindingSyntax
  let name: TokenSyntax
  let wrappedType: TypeSyntax

  var storageName: TokenSyntax { .identifier("_" + name.text.trimmingBackticks) }
  var projectedName: TokenSyntax { .identifier("$" + name.text.trimmingBackticks) }

  /// The property, or `nil` (with a diagnostic when `context` is given) when `@Presents`
  /// cannot store it.
  init?(_ declaration: some DeclSyntaxProtocol, attribute: AttributeSyntax, context: (any MacroExpansionContext)?) {
    func diagnose(_ node: some SyntaxProtocol, _ message: String, id: String, fixIts: [FixIt] = []) -> Void? {
      context?.diagnose(Diagnostic(node: Syntax(node), message: MacroDiagnostic(message, id: id), fixIts: fixIts))
      return nil
    }
    // The compiler itself rejects `@Presents` on several variables at once; on anything but a
    // variable, the peer role says so.
    guard let decl = declaration.as(VariableDeclSyntax.self), decl.bindings.count == 1,
      let binding = decl.bindings.first, let name = binding.name
    else { return nil }
    if decl.isStatic {
      _ = diagnose(attribute, "'@Presents' cannot be applied to a static property", id: "presents-static")
      return nil
    }
    if decl.isLet {
      let fixIt = FixIt(
        message: MacroFixIt("Replace 'let' with 'var'"),
        changes: [
          .replace(
            oldNode: Syntax(decl.bindingSpecifier),
            newNode: Syntax(decl.bindingSpecifier.with(\.tokenKind, .keyword(.var))))
        ])
      _ = diagnose(
        decl.bindingSpecifier, "'@Presents' requires a 'var': the parent presents and dismisses the child",
        id: "presents-let", fixIts: [fixIt])
      return nil
    }
    if binding.isComputed {
      _ = diagnose(attribute, "'@Presents' cannot be applied to a computed property", id: "presents-computed")
      return nil
    }
    guard let type = binding.typeAnnotation?.type else {
      _ = diagnose(
        binding.pattern, "'@Presents' needs the property's optional type: '@Presents var \(name.text): Child.State?'",
        id: "presents-untyped")
      return nil
    }
    guard let wrapped = type.optionalWrapped else {
      let fixIt = FixIt(
        message: MacroFixIt("Make the type optional"),
        changes: [
          .replace(
            oldNode: Syntax(type),
            newNode: Syntax(OptionalTypeSyntax(wrappedType: type.trimmed).with(\.trailingTrivia, type.trailingTrivia)))
        ])
      _ = diagnose(
        type, "'@Presents' needs an optional type: the property is 'nil' when nothing is presented",
        id: "presents-not-optional", fixIts: [fixIt])
      return nil
    }
    self.decl = decl
    self.binding = binding
    self.name = name
    self.wrappedType = wrapped
  }
}

extension TypeSyntax {
  /// `T` of `T?`, `T!` or `Optional<T>`.
  var optionalWrapped: TypeSyntax? {
    if let optional = self.as(OptionalTypeSyntax.self) { return optional.wrappedType }
    if let optional = self.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return optional.wrappedType }
    if isOptional, let argument = genericArgument {
      return argument
    }
    return nil
  }

  /// The one generic argument of `Optional<T>` or `Swift.Optional<T>`.
  private var genericArgument: TypeSyntax? {
    let clause =
      self.as(IdentifierTypeSyntax.self)?.genericArgumentClause ?? self.as(MemberTypeSyntax.self)?.genericArgumentClause
    guard let arguments = clause?.arguments, arguments.count == 1, let argument = arguments.first else { return nil }
    return argument.argument.as(TypeSyntax.self)
  }
}

extension String {
  /// The name without the backticks that quote a keyword: `default` for `` `default` ``.
  var trimmingBackticks: String {
    hasPrefix("`") && hasSuffix("`") && count > 1 ? String(dropFirst().dropLast()) : self
  }
}
