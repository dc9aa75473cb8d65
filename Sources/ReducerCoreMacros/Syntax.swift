import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// The diagnostics' domain.
let diagnosticDomain = "ReducerCoreMacros"

/// A diagnostic of these macros, with the severity given.
struct MacroDiagnostic: DiagnosticMessage {
  let message: String
  let diagnosticID: MessageID
  let severity: DiagnosticSeverity

  init(_ message: String, id: String, severity: DiagnosticSeverity = .error) {
    self.message = message
    self.diagnosticID = MessageID(domain: diagnosticDomain, id: id)
    self.severity = severity
  }
}

/// What a fix-it of these macros says it does.
struct MacroFixIt: FixItMessage {
  let message: String
  var fixItID: MessageID { MessageID(domain: diagnosticDomain, id: message) }

  init(_ message: String) {
    self.message = message
  }
}

extension AttributeListSyntax {
  /// Whether an attribute named `name` (or `ReducerCore.name`, `CasePaths.name`) is there.
  func contains(named name: String) -> Bool {
    attribute(named: name) != nil
  }

  /// The attribute named `name`, module-qualified or not, ignoring generic arguments.
  func attribute(named name: String) -> AttributeSyntax? {
    for element in self {
      guard case .attribute(let attribute) = element else { continue }
      if attribute.baseName == name { return attribute }
    }
    return nil
  }
}

extension AttributeSyntax {
  /// The attribute's name without its module or generic arguments: `ReducerBuilder` for
  /// `@ReducerCore.ReducerBuilder<State, Action>`.
  var baseName: String {
    if let identifier = attributeName.as(IdentifierTypeSyntax.self) {
      return identifier.name.text
    }
    if let member = attributeName.as(MemberTypeSyntax.self) {
      return member.name.text
    }
    return attributeName.trimmedDescription
  }
}

extension InheritanceClauseSyntax? {
  /// Whether the clause lists one of `names`, written alone or module-qualified.
  func lists(_ names: Set<String>) -> Bool {
    guard let self else { return false }
    return self.inheritedTypes.contains { inherited in
      let text = inherited.type.trimmedDescription
      let last = text.split(separator: ".").last.map(String.init) ?? text
      return names.contains(last)
    }
  }
}

extension DeclGroupSyntax {
  /// The `public` or `package` modifier of the declaration, for the members that must be as
  /// visible as it is.
  var visibleAccess: String {
    for modifier in modifiers {
      switch modifier.name.tokenKind {
      case .keyword(.public): return "public "
      case .keyword(.package): return "package "
      default: continue
      }
    }
    return ""
  }

  /// The `@available` attributes of the declaration, for the extensions that macros add.
  var availability: String {
    attributes.compactMap { element -> String? in
      guard case .attribute(let attribute) = element, attribute.baseName == "available" else { return nil }
      return attribute.trimmedDescription + " "
    }.joined()
  }

  /// The names of the types that the declaration nests (structs, enums, classes, type aliases).
  var nestedTypeNames: Set<String> {
    Set(
      memberBlock.members.compactMap { member in
        if let decl = member.decl.as(StructDeclSyntax.self) { return decl.name.text }
        if let decl = member.decl.as(EnumDeclSyntax.self) { return decl.name.text }
        if let decl = member.decl.as(ClassDeclSyntax.self) { return decl.name.text }
        if let decl = member.decl.as(TypeAliasDeclSyntax.self) { return decl.name.text }
        return nil
      })
  }

  /// What kind of declaration it is, for messages: `class`, `actor`, `protocol`, `extension`.
  var kindName: String {
    if self.is(ClassDeclSyntax.self) { return "class" }
    if self.is(ActorDeclSyntax.self) { return "actor" }
    if self.is(ProtocolDeclSyntax.self) { return "protocol" }
    if self.is(ExtensionDeclSyntax.self) { return "extension" }
    if self.is(EnumDeclSyntax.self) { return "enum" }
    return "struct"
  }

  /// The keyword that introduces the declaration (`class`, `actor`, …).
  var introducer: TokenSyntax? {
    if let decl = self.as(ClassDeclSyntax.self) { return decl.classKeyword }
    if let decl = self.as(ActorDeclSyntax.self) { return decl.actorKeyword }
    if let decl = self.as(ProtocolDeclSyntax.self) { return decl.protocolKeyword }
    if let decl = self.as(ExtensionDeclSyntax.self) { return decl.extensionKeyword }
    if let decl = self.as(EnumDeclSyntax.self) { return decl.enumKeyword }
    if let decl = self.as(StructDeclSyntax.self) { return decl.structKeyword }
    return nil
  }

  /// The declaration's name, when it has one.
  var declName: String? {
    self.asProtocol(NamedDeclSyntax.self)?.name.text
  }
}

extension VariableDeclSyntax {
  /// Whether the declaration is `static` or `class`.
  var isStatic: Bool {
    modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
  }

  /// Whether the declaration is a `let`.
  var isLet: Bool {
    bindingSpecifier.tokenKind == .keyword(.let)
  }
}

extension PatternBindingSyntax {
  /// Whether the binding is computed: a getter, or accessors other than observers.
  var isComputed: Bool {
    switch accessorBlock?.accessors {
    case .none:
      return false
    case .getter:
      return true
    case .accessors(let accessors):
      return accessors.contains {
        switch $0.accessorSpecifier.tokenKind {
        case .keyword(.willSet), .keyword(.didSet): return false
        default: return true
        }
      }
    }
  }

  /// The bound name, for a binding of one identifier.
  var name: TokenSyntax? {
    pattern.as(IdentifierPatternSyntax.self)?.identifier
  }
}

extension TypeSyntax {
  /// Whether the type is written as an optional: `T?`, `T!` or `Optional<T>`.
  var isOptional: Bool {
    if self.is(OptionalTypeSyntax.self) || self.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return true }
    if let identifier = self.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional",
      identifier.genericArgumentClause != nil
    {
      return true
    }
    if let member = self.as(MemberTypeSyntax.self), member.name.text == "Optional",
      member.baseType.trimmedDescription == "Swift", member.genericArgumentClause != nil
    {
      return true
    }
    return false
  }
}
