// swift-tools-version: 6.0
//
// feedgen: a static HTML site generator for card feeds.
//
// One module per stage; data flows one way:
//   FeedgenContent (Markdown + YAML → content model)
//     → FeedgenLayout (pure compositional-layout model)
//     → FeedgenMustache (template engine) + FeedgenEmit (HTML/CSS)
//     → FeedgenBuild (orchestration, output folder) → feedgen (CLI)
import PackageDescription

let package = Package(
    name: "feedgen",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "feedgen", targets: ["feedgen"]),
        .library(name: "FeedgenLayout", targets: ["FeedgenLayout"]),
        .library(name: "FeedgenMustache", targets: ["FeedgenMustache"]),
        .library(name: "FeedgenContent", targets: ["FeedgenContent"]),
        // For Fuzz/ (FuzzImageHeader reads ImageProbe).
        .library(name: "FeedgenBuild", targets: ["FeedgenBuild"]),
    ],
    targets: [
        // Debian's libcmark-gfm-dev + libcmark-gfm-extensions-dev (GitHub's cmark-gfm: CommonMark
        // with the GFM extensions; it exports libcmark's `cmark_*` symbols, so libcmark must not be
        // linked too) and libyaml-dev, through pkg-config.
        .systemLibrary(
            name: "CCmark", pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]),
        .systemLibrary(
            name: "CYaml", pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]),
        // Debian's libmimalloc-dev: the executable's malloc (see Sources/feedgen/main.swift).
        .systemLibrary(name: "CMimalloc", providers: [.apt(["libmimalloc-dev"])]),
        // Non-variadic wrappers around libvips (Swift cannot call its NULL-terminated option lists),
        // for responsive image variants. libvips (Debian's libvips42) is loaded with dlopen when a
        // site has images, so feedgen does not link it; SHA-256 of image sources, in C.
        .target(name: "CVipsShim"),

        // renameat2(RENAME_EXCHANGE): swaps the new output in atomically.
        .target(name: "CFileSystem"),

        // Diagnostics shared by every stage: `path:line:column: severity: message`.
        .target(name: "FeedgenDiagnostics"),
        // The compositional layout model: pure Swift, no I/O, no dependencies.
        .target(name: "FeedgenLayout"),
        // The Mustache engine (official spec, partials, inheritance, dynamic names).
        .target(name: "FeedgenMustache"),
        // Content: front matter, YAML (libyaml), Markdown (cmark-gfm), the site model.
        .target(
            name: "FeedgenContent",
            dependencies: ["CCmark", "CYaml", "CFileSystem", "FeedgenDiagnostics", "FeedgenLayout"]),
        // Emit: template contexts, generated layout CSS, HTML pages.
        .target(
            name: "FeedgenEmit",
            dependencies: ["FeedgenContent", "FeedgenLayout", "FeedgenMustache", "FeedgenDiagnostics"],
            plugins: ["EmbedTemplatesPlugin"]),
        // Build: the whole pipeline, output folder handling, the CLI commands.
        .target(
            name: "FeedgenBuild",
            dependencies: [
                "FeedgenContent", "FeedgenLayout", "FeedgenMustache", "FeedgenEmit",
                "FeedgenDiagnostics", "CFileSystem", "CVipsShim",
            ]),
        .executableTarget(name: "feedgen", dependencies: ["FeedgenBuild", "CMimalloc"]),

        // Compiles the repository's Templates/ folder into the binary.
        .executableTarget(name: "EmbedTemplates"),
        .plugin(
            name: "EmbedTemplatesPlugin", capability: .buildTool(),
            dependencies: ["EmbedTemplates"]),

        // Benchmarks of the core stages: `swift run -c release feedgen-bench`.
        .executableTarget(
            name: "feedgen-bench",
            dependencies: ["FeedgenContent", "FeedgenLayout", "FeedgenMustache", "FeedgenEmit", "FeedgenBuild"],
            path: "Benchmarks/FeedgenBenchmarks"),

        .testTarget(name: "FeedgenLayoutTests", dependencies: ["FeedgenLayout"]),
        .testTarget(name: "FeedgenMustacheTests", dependencies: ["FeedgenMustache"]),
        .testTarget(name: "FeedgenContentTests", dependencies: ["FeedgenContent", "FeedgenDiagnostics"]),
        .testTarget(
            name: "FeedgenBuildTests",
            dependencies: ["FeedgenBuild", "FeedgenEmit", "FeedgenContent", "FeedgenLayout"],
            exclude: ["Golden"]),
    ]
)
