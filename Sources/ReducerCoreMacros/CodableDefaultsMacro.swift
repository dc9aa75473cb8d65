import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@CodableDefaults` on a `Codable` struct: coding keys named as the properties, an
/// `init(from:)` in which a property with an initial value (or of an optional type) may be
/// missing, and an `encode(to:)` with the same keys, in an extension.
///
/// ```swift
/// extension Item {
///   private enum CodingKeys: String, CodingKey {
///     case name
///     case quantity
///   }
///   init(from decoder: any Decoder) throws {
///     let container = try decoder.container(keyedBy: CodingKeys.self)
///     self.name = try container.decode(.name)
///     try container.decode(.quantity, into: &self.quantity)
///   }
///   func encode(to encoder: any Encoder) throws {
///     var container = encoder.container(keyedBy: CodingKeys.self)
///     try container.encode(self.name, forKey: .name)
///     try container.encode(self.quantity, forKey: .quantity)
///   }
/// }
/// ```
public enum CodableDefaultsMacro {}

extension CodableDefaultsMacro: ExtensionMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    guard let structDecl = declaration.as(StructDeclSyntax.self) else {
      context.diagnose(
        Diagnostic(
          node: node,
          message: MacroDiagnostic(
            "'@CodableDefaults' can only be applied to a struct, not to \(declaration.kindName == "enum" ? "an" : "a") "
              + "\(declaration.kindName)",
            id: "codable-defaults-not-struct")))
      return []
    }
    let coding = Coding(of: structDecl)
    guard coding.isDecodable || coding.isEncodable else {
      context.diagnose(
        Diagnostic(
          node: node,
          message: MacroDiagnostic(
            "'@CodableDefaults' needs a struct that declares 'Codable', 'Decodable' or 'Encodable'",
            id: "codable-defaults-not-codable"),
          fixIt: FixIt(
            message: MacroFixIt("Add 'Codable'"),
            changes: [.replace(oldNode: Syntax(structDecl), newNode: Syntax(structDecl.adding(conformance: "Codable")))])))
      return []
    }
    return coding.extensions(of: type, availability: declaration.availability, in: context)
  }
}

extension StructDeclSyntax {
  /// The declaration with `conformance` added to its inheritance clause.
  func adding(conformance: String) -> StructDeclSyntax {
    var decl = self
    let added = IdentifierTypeSyntax(name: .identifier(conformance))
    if var clause = decl.inheritanceClause, let last = clause.inheritedTypes.last {
      var types = Array(clause.inheritedTypes)
      types[types.count - 1] =
        last
        .with(\.trailingTrivia, [])
        .with(\.trailingComma, .commaToken(trailingTrivia: .space))
      types.append(InheritedTypeSyntax(type: added, trailingTrivia: last.trailingTrivia))
      clause.inheritedTypes = InheritedTypeListSyntax(types)
      decl.inheritanceClause = clause
    } else {
      let trivia = decl.name.trailingTrivia
      decl.name = decl.name.with(\.trailingTrivia, [])
      decl.inheritanceClause = InheritanceClauseSyntax(
        colon: .colonToken(trailingTrivia: .space),
        inheritedTypes: [InheritedTypeSyntax(type: added, trailingTrivia: trivia)])
    }
    return decl
  }
}

/// What a struct's `Codable` conformance needs generated, and how each stored property is coded.
struct Coding {
  /// The struct lists `Codable` or `Decodable`.
  let isDecodable: Bool
  /// The struct lists `Codable` or `Encodable`.
  let isEncodable: Bool
  /// The struct declares `CodingKeys`: nothing is generated.
  let hasCodingKeys: Bool
  let hasInitFromDecoder: Bool
  let hasEncodeToEncoder: Bool
  let properties: [StoredProperty]
  let access: String

  init(of decl: StructDeclSyntax) {
    let inheritance = decl.inheritanceClause
    isDecodable = inheritance.lists(["Codable", "Decodable"])
    isEncodable = inheritance.lists(["Codable", "Encodable"])
    hasCodingKeys = decl.nestedTypeNames.contains("CodingKeys")
    hasInitFromDecoder = decl.memberBlock.members.contains { member in
      guard let initializer = member.decl.as(InitializerDeclSyntax.self) else { return false }
      let parameters = initializer.signature.parameterClause.parameters
      return parameters.count == 1 && parameters.first?.firstName.text == "from"
    }
    hasEncodeToEncoder = decl.memberBlock.members.contains { member in
      guard let function = member.decl.as(FunctionDeclSyntax.self), function.name.text == "encode" else { return false }
      let parameters = function.signature.parameterClause.parameters
      return parameters.count == 1 && parameters.first?.firstName.text == "to"
    }
    properties = StoredProperty.all(in: decl)
    access = decl.visibleAccess
  }

  /// The properties that have a key: every stored property but a `let` with an initial value
  /// (which a decoder cannot set), a `lazy var`, and a property whose property wrapper
  /// initializes it (``StoredProperty/isInitializedByWrapper``).
  var codedProperties: [StoredProperty] {
    properties.filter {
      !($0.isLet && $0.initializer != nil) && !$0.isLazy && (!$0.isInitializedByWrapper || $0.shared != nil)
    }
  }

  /// The coded properties in the order `init(from:)` decodes them: the `@SharedReader`s with
  /// a key first, so that each is checked against its key's value before any `@Shared` of
  /// the struct writes to the key, then the others as declared.
  var decodingOrder: [StoredProperty] {
    let coded = codedProperties
    func readsAKey(_ property: StoredProperty) -> Bool {
      property.shared == .reader && (property.wrapper?.arguments != nil || property.initializer != nil)
    }
    return coded.filter(readsAKey) + coded.filter { !readsAKey($0) }
  }

  /// The extension with the keys, `init(from:)` and `encode(to:)`, or none when the struct
  /// is not coded or declares its own `CodingKeys`.
  func extensions(
    of type: some TypeSyntaxProtocol, availability: String, in context: some MacroExpansionContext
  ) -> [ExtensionDeclSyntax] {
    guard isDecodable || isEncodable, !hasCodingKeys else { return [] }
    var members: [String] = []
    let coded = codedProperties
    let keys = coded.map { "case \($0.name)" }
    members.append(
      keys.isEmpty
        ? "private enum CodingKeys: CodingKey {}"
        : """
        private enum CodingKeys: String, CodingKey {
        \(keys.joined(separator: "\n"))
        }
        """)
    if isDecodable && !hasInitFromDecoder {
      let body =
        coded.isEmpty
        ? "_ = try decoder.container(keyedBy: CodingKeys.self)"
        : (["let container = try decoder.container(keyedBy: CodingKeys.self)"] + decodingOrder.map(\.decoding))
          .joined(separator: "\n")
      members.append(
        """
        \(access)init(from decoder: any Decoder) throws {
        \(body)
        }
        """)
    }
    if isEncodable && !hasEncodeToEncoder {
      let body =
        coded.isEmpty
        ? "_ = encoder.container(keyedBy: CodingKeys.self)"
        : (["var container = encoder.container(keyedBy: CodingKeys.self)"] + coded.map(\.encoding))
          .joined(separator: "\n")
      members.append(
        """
        \(access)func encode(to encoder: any Encoder) throws {
        \(body)
        }
        """)
    }
    let decl: DeclSyntax =
      """
      \(raw: availability)extension \(type.trimmed) {
      \(raw: members.joined(separator: "\n"))
      }
      """
    return [decl.cast(ExtensionDeclSyntax.self)]
  }
}

/// A stored instance property of a struct, as the coding and the bindable fields see it.
struct StoredProperty {
  /// The name as written (with backticks for a keyword).
  let name: String
  let type: TypeSyntax?
  let initializer: ExprSyntax?
  let isLet: Bool
  let isLazy: Bool
  /// Stored by `@Presents`.
  let isPresented: Bool
  /// The attribute of its property wrapper, when it has one other than `@Presents`.
  let wrapper: AttributeSyntax?

  /// How a `@Shared` or `@SharedReader` property is kept.
  enum SharedKind {
    /// `@Shared`: decoding writes the value through the reference.
    case shared
    /// `@SharedReader`: decoding checks the value against the reference's.
    case reader
  }

  /// Whether the property is shared state, and how.
  var shared: SharedKind? {
    switch wrapper?.baseName {
    case "Shared": .shared
    case "SharedReader": .reader
    default: nil
    }
  }

  /// Whether a binding action may set the property: a `var` that is not `lazy` (a key path
  /// cannot name a `lazy var`). A property wrapper whose value cannot be set (`@SharedReader`)
  /// makes the key path read-only, which only the compiler knows: the generated list leaves
  /// such a property out when the program runs (`BindableField.writable(_:)`).
  var isBindable: Bool {
    !isLet && !isLazy
  }

  /// A property wrapper with arguments and no initial value (`@Shared(.syncUps) var
  /// syncUps`): its attribute initializes it, and assigning a decoded value would need an
  /// initializer of the wrapper that may not exist. Without a type or an initial value, the
  /// coding could not name its type either.
  var isInitializedByWrapper: Bool {
    guard initializer == nil else { return false }
    return type == nil || wrapper?.arguments != nil
  }

  /// Whether the property may be left out of the input: it has an initial value, or an
  /// optional type (`nil` then).
  var hasDefault: Bool {
    initializer != nil || isPresented || (type?.isOptional ?? false)
  }

  /// The statement of `init(from:)` that sets the property. It names neither a type, which
  /// comes from the property, nor the initial value: the extension is at file scope, where
  /// what the initial value names may not be visible (`StackState<Path.State>()`, `Path`
  /// nested in the feature around the state). A property with an initial value already has
  /// it when `init(from:)` starts, as in any initializer of the struct, and keeps it when its
  /// key is missing.
  var decoding: String {
    if let shared {
      // A key in the attribute (`@Shared(.count) var count = 0`, `@Shared(.syncUps) var
      // syncUps`) or an initial value makes the reference before `init(from:)` starts; the
      // decoded value goes through it, to every holder of the key. Without either, the
      // decoded value makes a reference of its own.
      guard wrapper?.arguments != nil || initializer != nil else {
        return "self._\(name) = try container.decode(.\(name))"
      }
      switch shared {
      case .shared: return "try container.decode(.\(name), into: self._\(name))"
      case .reader: return "try container.decode(.\(name), matching: self._\(name))"
      }
    }
    if initializer != nil {
      return "try container.decode(.\(name), into: &self.\(name))"
    }
    if hasDefault {
      return "self.\(name) = try container.decode(.\(name), default: nil)"
    }
    return "self.\(name) = try container.decode(.\(name))"
  }

  /// The statement of `encode(to:)` that writes the property: an optional is left out when
  /// `nil`, a presented child is written `null`.
  var encoding: String {
    if !isPresented, type?.isOptional ?? false {
      return "try container.encodeIfPresent(self.\(name), forKey: .\(name))"
    }
    return "try container.encode(self.\(name), forKey: .\(name))"
  }

  /// The stored instance properties of a struct, in order.
  static func all(in decl: StructDeclSyntax) -> [StoredProperty] {
    var properties: [StoredProperty] = []
    for member in decl.memberBlock.members {
      guard let variable = member.decl.as(VariableDeclSyntax.self), !variable.isStatic else { continue }
      let isPresented = variable.attributes.contains(named: "Presents")
      let isLazy = variable.modifiers.contains { $0.name.tokenKind == .keyword(.lazy) }
      let bindings = Array(variable.bindings)
      for (index, binding) in bindings.enumerated() {
        guard let name = binding.name, !binding.isComputed else { continue }
        // `var a, b: Int`: the annotation of a later binding types the earlier ones.
        let type =
          binding.typeAnnotation?.type
          ?? (binding.initializer == nil
            ? bindings[(index + 1)...].first(where: { $0.typeAnnotation != nil })?.typeAnnotation?.type : nil)
        properties.append(
          StoredProperty(
            name: name.text, type: type, initializer: binding.initializer?.value, isLet: variable.isLet,
            isLazy: isLazy, isPresented: isPresented,
            wrapper: variable.propertyWrapper))
      }
    }
    return properties
  }
}

extension VariableDeclSyntax {
  /// The attributes of a stored property that are macros of these or other TCA-shaped
  /// libraries, or global actors, rather than property wrappers.
  private static let notWrappers: Set<String> = [
    "Presents", "ObservationStateIgnored", "ObservationStateTracked", "ObservationIgnored", "ObservationTracked",
    "MainActor",
  ]

  /// The attribute of the property's wrapper: the first custom attribute (a capitalized name)
  /// that is not one of ``notWrappers``.
  var propertyWrapper: AttributeSyntax? {
    for element in attributes {
      guard case .attribute(let attribute) = element else { continue }
      let name = attribute.baseName
      guard let first = name.first, first.isUppercase, !Self.notWrappers.contains(name) else { continue }
      return attribute
    }
    return nil
  }
}
