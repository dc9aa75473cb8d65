import SpecYAML
import CasePaths
import IdentifiedCollections
import ReducerCore
import SpecRunner

// How `features`, `schema` and the checks of case paths show ReducerCore's own types.

extension IdentifiedArray: IdentifiedArrayShape where Element: Decodable & Identifiable, ID == Element.ID {
  package static var elementDecodable: any Decodable.Type { Element.self }
  package static var empty: Any { [] as Self }
}

extension PresentationState: PresentationStateShape where State: Decodable {
  package static var wrappedDecodable: any Decodable.Type { State.self }
  package static var noneValue: Any { Self(wrappedValue: nil) }
}

extension StackState: StackStateShape where Element: Decodable {
  package static var elementDecodable: any Decodable.Type { Element.self }
  package static var empty: Any { Self() }
}

extension BindingAction: BindingActionShape where Root: BindableStateFields {
  package static var fieldNames: [String] { Root.bindableFields.map(\.name) }
  package static var rootName: String { typeName(Root.self) }
}

extension PresentationAction: RoleShape { package static var shapeRole: TypeShape.Role { .presentationAction } }
extension IdentifiedAction: RoleShape { package static var shapeRole: TypeShape.Role { .identifiedAction } }
extension StackAction: RoleShape { package static var shapeRole: TypeShape.Role { .stackAction } }
extension AlertState: RoleShape { package static var shapeRole: TypeShape.Role { .alert } }
extension ConfirmationDialogState: RoleShape { package static var shapeRole: TypeShape.Role { .alert } }
extension ButtonState: RoleShape { package static var shapeRole: TypeShape.Role { .button } }
