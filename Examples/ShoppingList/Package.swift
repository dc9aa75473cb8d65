// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "ShoppingList",
  platforms: [.macOS(.v13)],
  dependencies: [
    // A checkout of reducer-spec beside this package, or its repository's URL:
    // .package(url: "https://example.com/you/reducer-spec.git", branch: "main")
    .package(path: "../reducer-spec")
  ],
  targets: [
    // The features: ReducerCore is all they import.
    .target(
      name: "ShoppingList",
      dependencies: [.product(name: "ReducerCore", package: "reducer-spec")]
    ),
    // The executable that runs their specs: `swift run shopping-list-specs specs/`.
    .executableTarget(
      name: "shopping-list-specs",
      dependencies: ["ShoppingList", .product(name: "ReducerSpecCLI", package: "reducer-spec")]
    ),
  ]
)
