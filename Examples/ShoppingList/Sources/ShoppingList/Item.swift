import ReducerCore

/// One thing to buy. A spec writes only what differs from a new item: `{ id: 0, name: Milk }`
/// has a quantity of 1 and is not bought yet.
@CodableDefaults
public struct Item: Codable, Equatable, Identifiable, Sendable {
  public var id: UUID
  public var name: String
  public var quantity = 1
  public var isBought = false

  public init(id: UUID, name: String, quantity: Int = 1, isBought: Bool = false) {
    self.id = id
    self.name = name
    self.quantity = quantity
    self.isBought = isBought
  }
}
