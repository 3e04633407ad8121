/// `PatchBuild.EarlySnapshot`: the output's snapshot read on another thread while the content is
/// listed, before the build cache's lock is taken; a patch uses it only if its file is still the
/// one read (another build may have replaced it meanwhile). The site's templates are compiled
/// there too, after it: the thread has time left while the output is examined.
import FeedgenBuild
import FeedgenEmit
import FeedgenStorage
import Foundation

extension PatchBuild {
    final class EarlySnapshot: @unchecked Sendable {
        private let lock = NSLock()
        private var read: (folder: String, stamp: FileStamp, snapshot: BuildSnapshot)?
        private var compiled: (folder: String, overrides: [String: String]?, templates: Result<TemplateSet, any Error>)?

        /// Reads the snapshot in the build cache of `output` (``BuildRun/listFirst(alongside:)``).
        /// - Returns: whether there was one to read.
        @discardableResult func read(output: String) -> Bool {
            let folder = BuildCache.folder(forOutput: output)
            let path = folder + "/" + BuildSnapshot.fileName
            guard let before = FileStamp.of(path), let snapshot = BuildSnapshot.read(cacheFolder: folder),
                FileStamp.of(path) == before
            else { return false }
            lock.withLock { read = (folder, before, snapshot) }
            return true
        }

        /// Compiles the templates of `folder` (a site's `Templates`), as a patch would.
        func compileTemplates(folder: String) {
            var overrides: [String: String]?
            let templates = Result<TemplateSet, any Error> {
                overrides = try Pipeline.readTemplates(folder)
                return try TemplateSet(overrides: overrides!)
            }
            lock.withLock { compiled = (folder, overrides, templates) }
        }

        /// The templates of `folder` compiled early with the files they were compiled from, for
        /// a full build to reuse when it reads the same files; nil when they did not compile.
        func compiledTemplates(folder: String) -> Pipeline.CompiledTemplates? {
            lock.withLock {
                guard let compiled, compiled.folder == folder, let overrides = compiled.overrides,
                    case .success(let templates) = compiled.templates
                else { return nil }
                return Pipeline.CompiledTemplates(folder: folder, overrides: overrides, templates: templates)
            }
        }

        /// The templates of `folder` compiled early (or the error compiling them), else nil.
        func templates(folder: String) -> Result<TemplateSet, any Error>? {
            lock.withLock { compiled?.folder == folder ? compiled?.templates : nil }
        }

        /// The snapshot read early, when it is the one of `folder` and its file has not been
        /// replaced since; else nil (it is read again).
        func snapshot(cacheFolder folder: String) -> BuildSnapshot? {
            lock.withLock {
                guard let read, read.folder == folder, FileStamp.of(folder + "/" + BuildSnapshot.fileName) == read.stamp else { return nil }
                return read.snapshot
            }
        }
    }
}
