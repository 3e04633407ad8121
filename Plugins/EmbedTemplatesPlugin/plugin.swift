// Build-tool plugin: compiles the repository's top-level Templates/ folder into the module that
// uses it, so that the `feedgen` binary works from any directory.
import Foundation
import PackagePlugin

@main
struct EmbedTemplatesPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let templates = context.package.directoryURL.appending(path: "Templates")
        let output = context.pluginWorkDirectoryURL.appending(path: "BuiltinTemplates.swift")
        var inputs: [URL] = []
        if let walker = FileManager.default.enumerator(at: templates, includingPropertiesForKeys: nil) {
            for case let url as URL in walker where !url.hasDirectoryPath {
                inputs.append(url)
            }
        }
        inputs.sort { $0.path < $1.path }
        return [
            .buildCommand(
                displayName: "Embedding Templates/ (\(inputs.count) files)",
                executable: try context.tool(named: "EmbedTemplates").url,
                arguments: [templates.path, output.path],
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }
}
