import ReducerSpecCLI
import ShoppingList

await ReducerSpecCommand.main(features: [
  Feature(
    "ShoppingList", initialState: ShoppingList.State(),
    stubs: [.endpoint("groceryClient.suggestions", \.groceryClient.suggestions)]
  ) {
    ShoppingList()
  }
])
