/// Where a build writes: the output folder's absolute path (`--output` or `output`, symbolic links followed), and the site's template overrides.
import Dispatch
import FeedgenContent
import FeedgenDiagnostics
import FeedgenEmit
import FeedgenLayout
import FeedgenResolve
import FeedgenStorage
import Foundation

extension Pipeline {
    package static func outputPath(_ options: BuildOptions, site: Site, root: String) -> String {
        outputPath(options, configured: site.config.output, root: root)
    }

    /// The output folder's absolute path: `--output`, else the configuration's `output` (relative
    /// to the site). A symbolic link to a folder stands for that folder: the build replaces the
    /// folder it points to (the link is kept), and the build cache sits beside that folder.
    package static func outputPath(_ options: BuildOptions, configured: String, root: String) -> String {
        let path = options.output ?? (configured.hasPrefix("/") ? configured : root + "/" + configured)
        let url = URL(fileURLWithPath: path).standardizedFileURL
        var info = stat()
        if lstat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK {
            var isDirectory: ObjCBool = false
            let target = url.resolvingSymlinksInPath()
            if FileManager.default.fileExists(atPath: target.path, isDirectory: &isDirectory), isDirectory.boolValue {
                return target.standardizedFileURL.path
            }
        }
        return url.path
    }

    /// The site's template overrides, by path relative to `Templates/` (sorted; hidden files skipped).
    package static func readTemplates(_ folder: String) throws -> [String: String] {
        var result: [String: String] = [:]
        let fm = FileManager.default
        guard let walker = fm.enumerator(atPath: folder) else { return result }
        for case let relative as String in walker {
            if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            var isDirectory: ObjCBool = false
            let path = folder + "/" + relative
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            switch SourceFile.readText(path, shownAs: "Templates/" + relative) {
            case .success(let text): result[relative] = text
            case .failure(let problem): throw TemplateErrors(diagnostics: [problem])
            }
        }
        return result
    }

    /// A site's templates compiled before the build asked for them (while its content was
    /// listed), with the files read for them: `overrides` as ``readTemplates(_:)`` gave them for
    /// `folder`.
    package struct CompiledTemplates: Sendable {
        package var folder: String
        package var overrides: [String: String]
        package var templates: TemplateSet

        package init(folder: String, overrides: [String: String], templates: TemplateSet) {
            (self.folder, self.overrides, self.templates) = (folder, overrides, templates)
        }
    }
}
