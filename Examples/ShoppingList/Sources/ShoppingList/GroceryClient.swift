import ReducerCore

/// Suggests groceries for what the user has typed.
@DependencyClient
public struct GroceryClient: Sendable {
  public var suggestions: @Sendable (_ query: String) async throws -> [String]
}

extension GroceryClient: DependencyKey {
  public static let liveValue = GroceryClient(suggestions: { query in
    ["Apples", "Bread", "Butter", "Cheese", "Milk", "Oat milk"].filter {
      $0.localizedCaseInsensitiveContains(query)
    }
  })
  public static let testValue = GroceryClient()
}

extension DependencyValues {
  public var groceryClient: GroceryClient {
    get { self[GroceryClient.self] }
    set { self[GroceryClient.self] = newValue }
  }
}
