// swift-tools-version: 6.0
//
// libFuzzer targets for feedgen's input parsers. Built separately from the main package because
// every module is compiled with `-sanitize=fuzzer,address`; see Fuzz/README.md and Fuzz/run.
import PackageDescription

let package = Package(
    name: "feedgen-fuzz",
    dependencies: [.package(name: "feedgen", path: "..")],
    targets: [
        .target(name: "FuzzDriver"),
        .executableTarget(
            name: "FuzzFrontMatter",
            dependencies: ["FuzzDriver", .product(name: "FeedgenContent", package: "feedgen")]),
        .executableTarget(
            name: "FuzzMarkdown",
            dependencies: ["FuzzDriver", .product(name: "FeedgenContent", package: "feedgen")]),
        .executableTarget(
            name: "FuzzLayout",
            dependencies: ["FuzzDriver", .product(name: "FeedgenResolve", package: "feedgen")]),
        .executableTarget(
            name: "FuzzImageHeader",
            dependencies: [
                "FuzzDriver", .product(name: "FeedgenResolve", package: "feedgen"), .product(name: "FeedgenBuild", package: "feedgen"),
            ]),
        .executableTarget(
            name: "FuzzLinks",
            dependencies: ["FuzzDriver", .product(name: "FeedgenContent", package: "feedgen")]),
        .executableTarget(
            name: "FuzzMustache",
            dependencies: ["FuzzDriver", .product(name: "FeedgenMustache", package: "feedgen")]),
    ]
)
