/// `PatchBuild.EarlySnapshot`: the output's snapshot read on another thread while the content is
/// listed, before the build cache's lock is taken; a patch uses it only if its file is still the
/// one read (another build may have replaced it meanwhile).
import FeedgenBuild
import FeedgenStorage
import Foundation

extension PatchBuild {
    final class EarlySnapshot: @unchecked Sendable {
        private let lock = NSLock()
        private var read: (folder: String, stamp: FileStamp, snapshot: BuildSnapshot)?

        /// Reads the snapshot in the build cache of `output` (``BuildRun/listFirst(alongside:)``).
        func read(output: String) {
            let folder = BuildCache.folder(forOutput: output)
            let path = folder + "/" + BuildSnapshot.fileName
            guard let before = FileStamp.of(path), let snapshot = BuildSnapshot.read(cacheFolder: folder),
                FileStamp.of(path) == before
            else { return }
            lock.withLock { read = (folder, before, snapshot) }
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
