/// `CacheState.path(_:sameAs:at:)`: a path of the state file read as the String of the tree
/// before when it is the same.
import Foundation

extension CacheState {
    /// `list[line]` when its bytes are `text`, else a new String of them: the live and back
    /// trees are mostly the same files in the same order, so most paths of the second are the
    /// first's again (10,000 Strings fewer to make and free).
    static func path(_ text: UnsafeBufferPointer<UInt8>, sameAs list: [String], at line: Int) -> String {
        if line < list.count, list[line].utf8.count == text.count,
            list[line].utf8.withContiguousStorageIfAvailable({ text.isEmpty || memcmp($0.baseAddress!, text.baseAddress!, text.count) == 0 })
                ?? false
        {
            return list[line]
        }
        return String(decoding: text, as: UTF8.self)
    }
}
