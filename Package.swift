// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "reducer-spec",
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    .library(name: "SpecRunner", targets: ["SpecRunner"]),
  ],
  dependencies: [
    .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
  ],
  targets: [
    .systemLibrary(
      name: "CYAML",
      pkgConfig: "yaml-0.1",
      providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
    ),
    .target(
      name: "SpecRunner",
      dependencies: ["CYAML"]
    ),
    .testTarget(
      name: "SpecRunnerTests",
      dependencies: [
        "SpecRunner",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
  ]
)
