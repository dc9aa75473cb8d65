import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Reducer` on a struct (a feature) or on an enum of child features, as TCA's.
///
/// A struct gets its conformance to `Reducer`, `@CasePathable` on its `Action` (and
/// `@dynamicMemberLookup` on an enum `State`), `@ReducerBuilder` on its `body`, and an empty
/// `State`, `Action` or `body` when it has none. An enum gets a `State` and an `Action` with
/// a case for each of its cases, and a static `body` that runs each case's reducer on its
/// case; it conforms to `CaseReducer` and `Reducer`.
public enum ReducerMacro {}

extension ReducerMacro: ExtensionMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    guard declaration.is(StructDeclSyntax.self) || declaration.is(EnumDeclSyntax.self) else { return [] }
    if declaration.inheritanceClause.lists(["Reducer"]) { return [] }
    let missing = Set(protocols.map { $0.trimmedDescription.split(separator: ".").last.map(String.init) ?? "" })
    let wanted = declaration.is(EnumDeclSyntax.self) ? ["CaseReducer", "Reducer"] : ["Reducer"]
    let conformances = wanted.filter(missing.contains).map { "ReducerCore.\($0)" }
    guard !conformances.isEmpty else { return [] }
    let decl: DeclSyntax =
      "\(raw: declaration.availability)extension \(type.trimmed): \(raw: conformances.joined(separator: ", ")) {}"
    return [decl.cast(ExtensionDeclSyntax.self)]
  }
}

extension ReducerMacro: MemberAttributeMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingAttributesFor member: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AttributeSyntax] {
    guard declaration.is(StructDeclSyntax.self) || declaration.is(EnumDeclSyntax.self) else { return [] }
    if let enumDecl = member.as(EnumDeclSyntax.self) {
      var names: [String]
      switch enumDecl.name.text {
      case "State": names = ["CasePathable", "dynamicMemberLookup"]
      case "Action": names = ["CasePathable"]
      default: return []
      }
      if enumDecl.inheritanceClause.lists(["CasePathable"]) {
        names.removeAll { $0 == "CasePathable" }
      }
      names.removeAll { enumDecl.attributes.contains(named: $0) }
      return names.map { AttributeSyntax(attributeName: IdentifierTypeSyntax(name: .identifier($0))) }
    }
    if let variable = member.as(VariableDeclSyntax.self) {
      guard let arguments = variable.reducerBodyGenericArguments,
        !variable.attributes.contains(named: "ReducerBuilder")
      else { return [] }
      let builderArguments =
        arguments.count == 1
        ? "\(arguments[0]).State, \(arguments[0]).Action"
        : arguments.joined(separator: ", ")
      return [
        AttributeSyntax(
          attributeName: IdentifierTypeSyntax(
            name: .identifier("ReducerCore.ReducerBuilder<\(builderArguments)>")))
      ]
    }
    if declaration.is(EnumDeclSyntax.self), let caseDecl = member.as(EnumCaseDeclSyntax.self),
      caseDecl.elements.count == 1, let element = caseDecl.elements.first
    {
      let parameters = element.parameterClause?.parameters
      if let parameters, parameters.count == 1, let parameter = parameters.first {
        guard parameter.type.isEphemeral, !caseDecl.attributes.contains(named: "ReducerCaseEphemeral") else {
          return []
        }
        return [AttributeSyntax(attributeName: IdentifierTypeSyntax(name: .identifier("ReducerCaseEphemeral")))]
      }
      guard !caseDecl.attributes.contains(named: "ReducerCaseIgnored") else { return [] }
      return [AttributeSyntax(attributeName: IdentifierTypeSyntax(name: .identifier("ReducerCaseIgnored")))]
    }
    return []
  }
}

extension ReducerMacro: MemberMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    if let enumDecl = declaration.as(EnumDeclSyntax.self) {
      return enumMembers(of: enumDecl, node: node)
    }
    if let structDecl = declaration.as(StructDeclSyntax.self) {
      return structMembers(of: structDecl, node: node, in: context)
    }
    var fixIts: [FixIt] = []
    if declaration.is(ClassDeclSyntax.self) || declaration.is(ActorDeclSyntax.self),
      let introducer = declaration.introducer
    {
      fixIts.append(
        FixIt(
          message: MacroFixIt("Replace '\(introducer.text)' with 'struct'"),
          changes: [
            .replace(oldNode: Syntax(introducer), newNode: Syntax(introducer.with(\.tokenKind, .keyword(.struct))))
          ]))
    }
    context.diagnose(
      Diagnostic(
        node: node,
        message: MacroDiagnostic(
          "'@Reducer' can only be applied to a struct or an enum, not to \(declaration.kindName == "actor" || declaration.kindName == "extension" ? "an" : "a") \(declaration.kindName)",
          id: "reducer-invalid-declaration"),
        fixIts: fixIts))
    return []
  }

  // MARK: Struct

  private static func structMembers(
    of decl: StructDeclSyntax, node: AttributeSyntax, in context: some MacroExpansionContext
  ) -> [DeclSyntax] {
    if let arguments = node.arguments {
      context.diagnose(
        Diagnostic(
          node: arguments,
          message: MacroDiagnostic(
            "Argument passed to call that takes no arguments when applied to a struct", id: "reducer-struct-arguments"),
          fixIt: .replace(
            message: MacroFixIt("Remove '(\(arguments.trimmedDescription))'"),
            oldNode: node,
            newNode: node.with(\.leftParen, nil).with(\.arguments, nil).with(\.rightParen, nil))))
    }
    let access = decl.visibleAccess
    let typeNames = decl.nestedTypeNames
    let variables = decl.memberBlock.members.compactMap { $0.decl.as(VariableDeclSyntax.self) }
    let reduceMethods = decl.memberBlock.members.compactMap { $0.decl.as(FunctionDeclSyntax.self) }
      .filter(\.isReduceMethod)
    for method in reduceMethods {
      let statements = method.body?.statements.map(\.trimmedDescription).joined(separator: "\n") ?? ""
      let replacement: DeclSyntax =
        """
        var body: some Reducer<State, Action> {
        Reduce { state, action in
        \(raw: statements)
        }
        }
        """
      context.diagnose(
        Diagnostic(
          node: method.name,
          message: MacroDiagnostic(
            "'reduce(into:action:)' is deprecated: Reducers should be defined using the 'body' property and a 'Reduce'.",
            id: "reducer-reduce-method", severity: .warning),
          fixIt: .replace(
            message: MacroFixIt("Use 'body' instead"),
            oldNode: method,
            newNode: replacement.with(\.leadingTrivia, method.leadingTrivia))))
    }
    let bodyBindings = variables.flatMap(\.bindings).filter { $0.name?.text == "body" }
    let hasBody = !bodyBindings.isEmpty || !reduceMethods.isEmpty
    let hasExplicitBody =
      !reduceMethods.isEmpty
      || bodyBindings.contains { $0.initializer != nil || $0.typeAnnotation?.type.isSomeReducer == true }

    var members: [DeclSyntax] = []
    if !typeNames.contains("State") && !hasExplicitBody {
      members.append(
        """
        @ObservableState
        \(raw: access)struct State: Codable, Equatable, Hashable, Sendable {
        \(raw: access)init() {}
        }
        """)
    }
    if !typeNames.contains("Action") && !hasExplicitBody {
      members.append("\(raw: access)enum Action: Equatable, Hashable, Sendable {}")
    }
    if !hasBody {
      members.append("\(raw: access)let body = ReducerCore.EmptyReducer<State, Action>()")
    }
    return members
  }

  // MARK: Enum

  private static func enumMembers(of decl: EnumDeclSyntax, node: AttributeSyntax) -> [DeclSyntax] {
    let access = decl.visibleAccess
    let typeNames = decl.nestedTypeNames
    let cases = ReducerCase.cases(in: decl.memberBlock.members)
    var members: [DeclSyntax] = []
    if !typeNames.contains("State") {
      let conformances = ["ReducerCore.CaseReducerState"] + synthesizedConformances(node, label: "state")
      members.append(
        """
        @CasePathable
        @dynamicMemberLookup
        @ObservableState
        \(raw: access)enum State: \(raw: conformances.joined(separator: ", ")) {
        \(raw: access)typealias StateReducer = \(decl.name.trimmed)
        \(raw: ReducerCase.render(cases, \.stateCase))
        }
        """)
    }
    if !typeNames.contains("Action") {
      let conformances = synthesizedConformances(node, label: "action")
      members.append(
        """
        @CasePathable
        \(raw: access)enum Action\(raw: conformances.isEmpty ? "" : ": " + conformances.joined(separator: ", ")) {
        \(raw: ReducerCase.render(cases, \.actionCase))
        }
        """)
    }
    let hasBody = decl.memberBlock.members.contains {
      $0.decl.as(VariableDeclSyntax.self)?.bindings.contains { $0.name?.text == "body" } ?? false
    }
    if !hasBody {
      let scopes = ReducerCase.render(cases, \.scope)
      if scopes.isEmpty {
        members.append(
          """
          @ReducerCore.ReducerBuilder<Self.State, Self.Action>
          \(raw: access)static var body: ReducerCore.EmptyReducer<Self.State, Self.Action> {
          ReducerCore.EmptyReducer<Self.State, Self.Action>()
          }
          """)
      } else {
        members.append(
          """
          @ReducerCore.ReducerBuilder<Self.State, Self.Action>
          \(raw: access)static var body: ReducerCore.Reduce<Self.State, Self.Action> {
          ReducerCore.Reduce(
          ReducerCore.EmptyReducer<Self.State, Self.Action>()
          \(raw: scopes)
          )
          }
          """)
      }
    }
    return members
  }

  /// The conformances that `@Reducer(state: .equatable, action: .hashable)` asks for: the
  /// arguments from `label` up to the next label, capitalized.
  private static func synthesizedConformances(_ node: AttributeSyntax, label: String) -> [String] {
    guard case .argumentList(let arguments) = node.arguments,
      let start = arguments.firstIndex(where: { $0.label?.text == label })
    else { return [] }
    var names: [String] = []
    var index = start
    while index != arguments.endIndex {
      let argument = arguments[index]
      if index != start, argument.label != nil { break }
      if let name = argument.expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text {
        names.append(name.prefix(1).uppercased() + name.dropFirst())
      }
      index = arguments.index(after: index)
    }
    return names
  }
}

/// A case of an enum reducer, and what it becomes in the generated `State`, `Action` and
/// `body`.
private enum ReducerCase {
  /// A case; its attribute, if it has one.
  case element(EnumCaseElementSyntax, attribute: Attribute?)
  /// Cases under `#if`: each clause's keyword, condition and cases.
  indirect case ifConfig([(keyword: TokenSyntax, condition: ExprSyntax?, cases: [ReducerCase])])

  enum Attribute {
    case ephemeral, ignored
  }

  static func cases(in members: MemberBlockItemListSyntax) -> [ReducerCase] {
    members.flatMap { member -> [ReducerCase] in
      if let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) {
        let attribute = caseDecl.reducerCaseAttribute
        return caseDecl.elements.map { .element($0, attribute: attribute) }
      }
      if let ifConfig = member.decl.as(IfConfigDeclSyntax.self) {
        return [
          .ifConfig(
            ifConfig.clauses.map { clause in
              let cases = clause.elements?.as(MemberBlockItemListSyntax.self).map(Self.cases(in:)) ?? []
              return (clause.poundKeyword, clause.condition, cases)
            })
        ]
      }
      return []
    }
  }

  /// The lines for `cases`, one text each, in their `#if` clauses (a block whose clauses are
  /// all empty is left out).
  static func render(_ cases: [ReducerCase], _ line: (ReducerCase) -> String?) -> String {
    cases.compactMap { reducerCase -> String? in
      switch reducerCase {
      case .element:
        return line(reducerCase)
      case .ifConfig(let clauses):
        let bodies = clauses.map { render($0.cases, line) }
        guard bodies.contains(where: { !$0.isEmpty }) else { return nil }
        let rendered = zip(clauses, bodies).map { clause, body in
          let condition = clause.condition.map { " " + $0.trimmedDescription } ?? ""
          return "\(clause.keyword.text)\(condition)" + (body.isEmpty ? "" : "\n" + body)
        }
        return rendered.joined(separator: "\n") + "\n#endif"
      }
    }
    .joined(separator: "\n")
  }

  /// The case's one value, when it has exactly one.
  private var parameter: EnumCaseParameterSyntax? {
    guard case .element(let element, _) = self, let parameters = element.parameterClause?.parameters,
      parameters.count == 1
    else { return nil }
    return parameters.first
  }

  /// A case whose value is a child reducer: not marked, one value of a named type.
  private var reducerType: TypeSyntax? {
    guard case .element(_, nil) = self, let parameter, parameter.type.isNamed else { return nil }
    return parameter.type
  }

  /// The case of the generated `State`: the child's state for a reducer case, the case as
  /// written for the others.
  var stateCase: String? {
    guard case .element(let element, _) = self else { return nil }
    if let reducerType {
      return "case \(element.replacingParameterType(with: "\(reducerType.trimmedDescription).State"))"
    }
    return "case \(element.trimmedDescription)"
  }

  /// The case of the generated `Action`.
  var actionCase: String? {
    guard case .element(let element, let attribute) = self else { return nil }
    if let reducerType {
      return "case \(element.replacingParameterType(with: "\(reducerType.trimmedDescription).Action"))"
    }
    if attribute == .ephemeral, let type = parameter?.type, type.isNamed {
      if let action = type.ephemeralAction {
        return "case \(element.name.text)(\(action.trimmedDescription))"
      }
      return "case \(element.replacingParameterType(with: "\(type.trimmedDescription).Action"))"
    }
    return "case \(element.name.text)(Swift.Never)"
  }

  /// The `ifCaseLet` of the static `body` that runs the case's reducer.
  var scope: String? {
    guard case .element(let element, _) = self, let reducerType else { return nil }
    let name = element.name.text
    let reducer = parameter?.defaultValue?.value.trimmedDescription ?? "\(reducerType.trimmedDescription)()"
    return """
      .ifCaseLet(\\Self.State.Cases.\(name), action: \\Self.Action.Cases.\(name)) {
      \(reducer)
      }
      """
  }
}

extension EnumCaseDeclSyntax {
  /// How `@Reducer` treats the cases of the declaration: ignored when marked so or when a case
  /// has other than one value; ephemeral when marked so or when the value is an alert or a
  /// confirmation dialog.
  fileprivate var reducerCaseAttribute: ReducerCase.Attribute? {
    if attributes.contains(named: "ReducerCaseIgnored") || elements.contains(where: {
      $0.parameterClause?.parameters.count != 1
    }) {
      return .ignored
    }
    if attributes.contains(named: "ReducerCaseEphemeral")
      || elements.contains(where: { $0.parameterClause?.parameters.first?.type.isEphemeral == true })
    {
      return .ephemeral
    }
    return nil
  }
}

extension EnumCaseElementSyntax {
  /// The case with its one value of type `type` (its label kept, its default value dropped).
  fileprivate func replacingParameterType(with type: String) -> String {
    guard var clause = parameterClause, let first = clause.parameters.first else { return trimmedDescription }
    var parameter = first
    parameter.type = TypeSyntax(IdentifierTypeSyntax(name: .identifier(type)))
    parameter.defaultValue = nil
    clause.parameters = EnumCaseParameterListSyntax([parameter])
    return with(\.parameterClause, clause).with(\.rawValue, nil).trimmedDescription
  }
}

extension TypeSyntax {
  /// A type named by an identifier or a member (`Feature`, `Nested.Feature`): what a reducer
  /// case holds.
  fileprivate var isNamed: Bool {
    self.is(IdentifierTypeSyntax.self) || self.is(MemberTypeSyntax.self)
  }

  /// `AlertState<…>` or `ConfirmationDialogState<…>`.
  fileprivate var isEphemeral: Bool {
    let name = self.as(IdentifierTypeSyntax.self)?.name.text ?? self.as(MemberTypeSyntax.self)?.name.text
    return name == "AlertState" || name == "ConfirmationDialogState"
  }

  /// The button action of `AlertState<Action>` or `ConfirmationDialogState<Action>`.
  fileprivate var ephemeralAction: TypeSyntax? {
    guard isEphemeral else { return nil }
    let clause =
      self.as(IdentifierTypeSyntax.self)?.genericArgumentClause ?? self.as(MemberTypeSyntax.self)?.genericArgumentClause
    guard let arguments = clause?.arguments, arguments.count == 1 else { return nil }
    return arguments.first?.argument.as(TypeSyntax.self)
  }

  /// `some Reducer<…>` or `some ReducerOf<…>`.
  fileprivate var isSomeReducer: Bool {
    guard let constraint = self.as(SomeOrAnyTypeSyntax.self)?.constraint else { return false }
    let name = constraint.as(IdentifierTypeSyntax.self)?.name.text ?? constraint.as(MemberTypeSyntax.self)?.name.text
    return name == "Reducer" || name == "ReducerOf"
  }
}

extension VariableDeclSyntax {
  /// The generic arguments of `var body: some Reducer<State, Action> { … }` (or
  /// `some ReducerOf<Self>`), for its `@ReducerBuilder`.
  fileprivate var reducerBodyGenericArguments: [String]? {
    guard !isLet, bindings.count == 1, let binding = bindings.first, binding.name?.text == "body",
      binding.isComputed,
      let constraint = binding.typeAnnotation?.type.as(SomeOrAnyTypeSyntax.self)?.constraint
    else { return nil }
    let clause =
      constraint.as(IdentifierTypeSyntax.self)?.genericArgumentClause
      ?? constraint.as(MemberTypeSyntax.self)?.genericArgumentClause
    guard let arguments = clause?.arguments, !arguments.isEmpty else { return nil }
    return arguments.map { $0.argument.trimmedDescription }
  }
}

extension FunctionDeclSyntax {
  /// `func reduce(into state: inout State, action: Action) -> Effect<Action>`.
  fileprivate var isReduceMethod: Bool {
    let parameters = signature.parameterClause.parameters
    guard name.text == "reduce", parameters.count == 2, let state = parameters.first,
      state.firstName.text == "into", parameters.last?.firstName.text == "action",
      signature.effectSpecifiers == nil,
      signature.returnClause?.type.is(IdentifierTypeSyntax.self) == true
    else { return false }
    return state.type.as(AttributedTypeSyntax.self)?.specifiers.contains {
      $0.as(SimpleTypeSpecifierSyntax.self)?.specifier.tokenKind == .keyword(.inout)
    } == true
  }
}

/// `@ReducerCaseEphemeral`: a mark that `@Reducer` reads; it adds nothing itself.
public enum ReducerCaseEphemeralMacro: PeerMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    []
  }
}

/// `@ReducerCaseIgnored`: a mark that `@Reducer` reads; it adds nothing itself.
public enum ReducerCaseIgnoredMacro: PeerMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    []
  }
}
