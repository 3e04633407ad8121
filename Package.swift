// swift-tools-version: 6.0
//
// feedgen: a static HTML site generator for card feeds.
//
// One module per stage; data flows one way (docs/architecture.md):
//   FeedgenStorage (bytes on disk: hashes, mapped files, logs, codec)
//     → FeedgenContent (Markdown + YAML → content model)
//     → FeedgenResolve (layouts decoded with FeedgenLayout, images, links, output paths)
//     → FeedgenEmit (HTML/CSS, with FeedgenMustache)
//     → FeedgenBuild (the pipeline's stages, output folder, build cache)
//     → FeedgenIncremental (the build from start to end: patch builds, snapshots)
//     → FeedgenCLI (commands, terminal, watcher) → feedgen (executable)
import PackageDescription

let package = Package(
    name: "feedgen",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "feedgen", targets: ["feedgen"]),
        .library(name: "FeedgenLayout", targets: ["FeedgenLayout"]),
        .library(name: "FeedgenMustache", targets: ["FeedgenMustache"]),
        .library(name: "FeedgenContent", targets: ["FeedgenContent"]),
        // For Fuzz/ (FuzzImageHeader reads ImageProbe, FuzzLayout decodes layouts).
        .library(name: "FeedgenResolve", targets: ["FeedgenResolve"]),
        .library(name: "FeedgenBuild", targets: ["FeedgenBuild"]),
    ],
    targets: [
        // Debian's libcmark-gfm-dev + libcmark-gfm-extensions-dev (GitHub's cmark-gfm: CommonMark
        // with the GFM extensions; it exports libcmark's `cmark_*` symbols, so libcmark must not be
        // linked too), its static archives linked by CCmarkSpecialChars; libyaml-dev through pkg-config.
        .systemLibrary(
            name: "CCmark",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]),
        .systemLibrary(
            name: "CYaml", pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]),
        // Debian's libmimalloc-dev: the executable's malloc (see Sources/feedgen/main.swift).
        .systemLibrary(name: "CMimalloc", providers: [.apt(["libmimalloc-dev"])]),
        // Debian's libxxhash-dev (XXH3: the build cache's content hash) and nettle-dev (SHA-256:
        // the names of image sources in the build cache).
        .systemLibrary(
            name: "CXXHash", pkgConfig: "libxxhash",
            providers: [.apt(["libxxhash-dev"])]),
        .systemLibrary(
            name: "CNettle", pkgConfig: "nettle",
            providers: [.apt(["nettle-dev"])]),
        // Non-variadic wrappers around libvips (Swift cannot call its NULL-terminated option lists),
        // for responsive image variants. libvips (Debian's libvips42) is loaded with dlopen when a
        // site has images, so feedgen does not link it.
        .target(name: "CVipsShim"),

        // renameat2(RENAME_EXCHANGE): swaps the new output in atomically.
        .target(name: "CFileSystem"),
        // Debian's libtomlplusplus-dev (toml++ 3.3, TOML 1.0; its headers and libtomlplusplus.so,
        // whose pkg-config file asks for these two defines) behind a plain C API: TOML front
        // matter (Hugo's `+++`) as a flat list of nodes with positions.
        .target(
            name: "CToml",
            cxxSettings: [.define("TOML_HEADER_ONLY", to: "0"), .define("TOML_SHARED_LIB", to: "1")],
            linkerSettings: [.linkedLibrary("tomlplusplus")]),
        // cmark-gfm's static archives (its calls within the library are direct, not through a
        // shared library's PLT), with its special-character table made thread-safe (see the file).
        .target(
            name: "CCmarkSpecialChars",
            linkerSettings: [
                .unsafeFlags([
                    "-Xlinker", "-l:libcmark-gfm-extensions.a", "-Xlinker", "-l:libcmark-gfm.a",
                    "-Xlinker", "--wrap=cmark_inlines_add_special_character",
                    "-Xlinker", "--wrap=cmark_inlines_remove_special_character",
                ])
            ]),
        // A per-thread arena for cmark-gfm's nodes and buffers (see its file).
        .target(name: "CCmarkArena"),

        // Diagnostics shared by every stage: `path:line:column: severity: message` (Storage's
        // hashing and parallel map count them by kind).
        .target(name: "FeedgenDiagnostics", dependencies: ["FeedgenStorage"]),
        // Storage: the only module besides the output writer that knows bytes on disk: hashing
        // (XXH3, SHA-256), file stamps, mapped and cache files, record logs and their seals, the
        // byte codec, parallel map.
        .target(name: "FeedgenStorage", dependencies: ["CFileSystem", "CXXHash", "CNettle"]),
        // The compositional layout model: pure Swift, no I/O, no dependencies.
        .target(name: "FeedgenLayout"),
        // The Mustache engine (official spec, partials, inheritance, dynamic names).
        .target(name: "FeedgenMustache"),
        // Content: front matter, YAML (libyaml), TOML (toml++), Markdown (cmark-gfm), the site model.
        .target(
            name: "FeedgenContent",
            dependencies: ["CCmark", "CCmarkSpecialChars", "CCmarkArena", "CYaml", "CToml", "CFileSystem", "FeedgenStorage", "FeedgenDiagnostics"]),
        // Resolve: a loaded site → one resolved site (layouts decoded, images found and
        // measured, links checked, output paths and collisions), read by every later stage.
        .target(
            name: "FeedgenResolve",
            dependencies: ["FeedgenContent", "FeedgenLayout", "FeedgenStorage", "FeedgenDiagnostics", "CFileSystem"]),
        // Emit: template contexts, generated layout CSS, HTML pages.
        .target(
            name: "FeedgenEmit",
            dependencies: [
                "FeedgenContent", "FeedgenResolve", "FeedgenLayout", "FeedgenMustache", "FeedgenStorage", "FeedgenDiagnostics",
            ],
            plugins: ["EmbedTemplatesPlugin"]),
        // Build: the pipeline's stages, output folder handling; what it reuses of earlier builds
        // is lent through `BuildMemo` (by FeedgenIncremental).
        .target(
            name: "FeedgenBuild",
            dependencies: [
                "FeedgenContent", "FeedgenResolve", "FeedgenLayout", "FeedgenMustache", "FeedgenEmit", "FeedgenStorage",
                "FeedgenDiagnostics", "CFileSystem", "CVipsShim",
            ]),
        // Incremental: the build from start to end, with the patch build and the snapshots
        // around the pipeline's stages, and the build cache's stores (items, cards, keys); the
        // only module that knows a previous build exists.
        .target(
            name: "FeedgenIncremental",
            dependencies: [
                "FeedgenBuild", "FeedgenEmit", "FeedgenResolve", "FeedgenContent", "FeedgenStorage", "FeedgenDiagnostics",
            ]),
        // CLI: the commands, their arguments and help, the terminal, progress, the watcher.
        .target(
            name: "FeedgenCLI",
            dependencies: [
                "FeedgenIncremental", "FeedgenBuild", "FeedgenResolve", "FeedgenContent", "FeedgenLayout", "FeedgenMustache", "FeedgenEmit",
                "FeedgenDiagnostics", "FeedgenStorage", "CFileSystem",
            ]),
        .executableTarget(name: "feedgen", dependencies: ["FeedgenCLI", "CMimalloc"]),

        // Compiles the repository's Templates/ folder into the binary.
        .executableTarget(name: "EmbedTemplates"),
        .plugin(
            name: "EmbedTemplatesPlugin", capability: .buildTool(),
            dependencies: ["EmbedTemplates"]),

        // Benchmarks of the core stages: `swift run -c release feedgen-bench`.
        .executableTarget(
            name: "feedgen-bench",
            dependencies: [
                "FeedgenContent", "FeedgenResolve", "FeedgenLayout", "FeedgenMustache", "FeedgenEmit", "FeedgenBuild",
                "FeedgenIncremental", "FeedgenStorage",
            ],
            path: "Benchmarks/FeedgenBenchmarks"),

        .testTarget(name: "FeedgenStorageTests", dependencies: ["FeedgenStorage", "CXXHash"]),
        .testTarget(name: "FeedgenLayoutTests", dependencies: ["FeedgenLayout"]),
        .testTarget(name: "FeedgenResolveTests", dependencies: ["FeedgenResolve", "FeedgenContent"]),
        .testTarget(name: "FeedgenMustacheTests", dependencies: ["FeedgenMustache"]),
        .testTarget(name: "FeedgenContentTests", dependencies: ["FeedgenContent", "FeedgenStorage", "FeedgenDiagnostics", "CCmarkSpecialChars"]),
        .testTarget(
            name: "FeedgenBuildTests",
            dependencies: [
                "FeedgenIncremental", "FeedgenBuild", "FeedgenEmit", "FeedgenResolve", "FeedgenContent", "FeedgenLayout",
                "FeedgenStorage",
            ],
            exclude: ["Golden"]),
        .testTarget(
            name: "FeedgenIncrementalTests",
            dependencies: ["FeedgenIncremental", "FeedgenBuild", "FeedgenContent", "FeedgenDiagnostics"]),
        .testTarget(
            name: "FeedgenCLITests",
            dependencies: [
                "FeedgenCLI", "FeedgenIncremental", "FeedgenBuild", "FeedgenContent", "FeedgenMustache", "FeedgenDiagnostics",
            ]),
    ],
    cxxLanguageStandard: .cxx17
)

// Release builds optimize across the stage modules (generic helpers of FeedgenStorage and
// FeedgenDiagnostics are specialized and inlined where they are called).
for target in package.targets where target.name.hasPrefix("Feedgen") && target.type == .regular {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]
}
