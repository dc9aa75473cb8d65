import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@ObservableState` on a struct or an enum.
///
/// On a struct: the list of the bindable fields as a member, the conformances to
/// `ObservableState` and `BindableStateFields` in an extension, and the coding of
/// ``CodableDefaultsMacro`` when the struct declares `Codable` (or `Decodable`, `Encodable`)
/// and no `CodingKeys`:
///
/// ```swift
/// struct State {
///   var count = 0
///   @Presents var destination: Destination.State?
///
///   static var bindableFields: [ReducerCore.BindableField<Self>] {
///     ReducerCore.BindableField<Self>.writable(.property("count", \.count), .property("destination", \.destination))
///   }
/// }
/// extension State: ReducerCore.ObservableState, ReducerCore.BindableStateFields {}
/// ```
///
/// The list is a member, not part of the extension, so that it can name `Self` whatever the
/// type's access level: in an extension of a struct nested in a `private` type, a member with
/// no modifier is `internal` and cannot have a type that names the struct.
///
/// On an enum: the conformance to `ObservableState`.
public enum ObservableStateMacro {}

extension ObservableStateMacro: MemberMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    guard let structDecl = declaration.as(StructDeclSyntax.self) else { return [] }
    var members: [DeclSyntax] = []
    let hasFields = structDecl.memberBlock.members.contains { member in
      member.decl.as(VariableDeclSyntax.self)?.bindings.contains { $0.name?.text == "bindableFields" } ?? false
    }
    if !hasFields {
      let properties = StoredProperty.all(in: structDecl)
        .filter(\.isBindable)
        .map { ".property(\"\($0.name.trimmingBackticks)\", \\.\($0.name))" }
      members.append(
        """
        \(raw: structDecl.visibleAccess)static var bindableFields: [ReducerCore.BindableField<Self>] {
        ReducerCore.BindableField<Self>.writable(\(raw: properties.joined(separator: ", ")))
        }
        """)
    }
    return members
  }
}

extension ObservableStateMacro: ExtensionMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    let availability = declaration.availability
    if declaration.is(EnumDeclSyntax.self) {
      guard protocols.contains(where: { $0.trimmedDescription.hasSuffix("ObservableState") }) else { return [] }
      let decl: DeclSyntax = "\(raw: availability)extension \(type.trimmed): ReducerCore.ObservableState {}"
      return [decl.cast(ExtensionDeclSyntax.self)]
    }
    guard let structDecl = declaration.as(StructDeclSyntax.self) else {
      let name = declaration.declName.map { " '\($0)'" } ?? ""
      context.diagnose(
        Diagnostic(
          node: node,
          message: MacroDiagnostic(
            "'@ObservableState' cannot be applied to \(declaration.kindName) type\(name)",
            id: "observable-state-invalid-type")))
      return []
    }
    diagnoseAttributes(of: structDecl, in: context)

    var extensions: [ExtensionDeclSyntax] = []
    // Those the compiler asks for, less those that the declaration lists.
    let conformances = protocols.map { String($0.trimmedDescription.split(separator: ".").last!) }
      .filter { !structDecl.inheritanceClause.lists([$0]) }
      .map { "ReducerCore.\($0)" }
    if !conformances.isEmpty {
      let decl: DeclSyntax =
        "\(raw: availability)extension \(type.trimmed): \(raw: conformances.joined(separator: ", ")) {}"
      extensions.append(decl.cast(ExtensionDeclSyntax.self))
    }
    extensions += Coding(of: structDecl).extensions(of: type, availability: availability, in: context)
    return extensions
  }

  /// TCA's attributes that an `@ObservableState` struct uses under other names.
  private static let renamedAttributes = [
    ("ObservationIgnored", "ObservationStateIgnored"),
    ("PresentationState", "Presents"),
  ]

  private static func diagnoseAttributes(of decl: StructDeclSyntax, in context: some MacroExpansionContext) {
    for member in decl.memberBlock.members {
      guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
      for (name, replacement) in renamedAttributes {
        guard let attribute = variable.attributes.attribute(named: name) else { continue }
        let renamed = attribute.with(
          \.attributeName,
          TypeSyntax(
            IdentifierTypeSyntax(
              name: .identifier(replacement, trailingTrivia: attribute.attributeName.trailingTrivia))))
        context.diagnose(
          Diagnostic(
            node: attribute,
            message: MacroDiagnostic("'@\(name)' cannot be used in '@ObservableState'", id: "observable-state-\(name)"),
            fixIt: .replace(
              message: MacroFixIt("Use '@\(replacement)' instead"), oldNode: attribute, newNode: renamed)))
      }
    }
  }
}

/// `@ObservationStateIgnored`: TCA's mark of a property it does not observe. Nothing is
/// observed here, so it adds nothing.
public enum ObservationStateIgnoredMacro: PeerMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    []
  }
}
