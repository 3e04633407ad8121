/// `LazyValue`: a value of an item (its rendered body, its front matter) made by the parser, or
/// left encoded in a mapped file (``EncodedValue``) and decoded the first time it is read.
import CFileSystem
import FeedgenStorage
import Synchronization

/// A value made by the parser, or left where a store of parsed items (``ParsedItemStore``)
/// holds it in a mapped file and decoded when first read: an unchanged item whose card and page
/// are not rendered again never needs its body, and decoding it (UTF-8 validation, a copy) was
/// most of the cost of taking an item from the store; its front matter is read only for a few
/// diagnostics.
package enum LazyValue<Value: Hashable & Sendable>: Sendable, Hashable {
    case value(Value)
    case encoded(EncodedValue<Value>)

    package init(_ value: Value) { self = .value(value) }

    package var value: Value {
        switch self {
        case .value(let value): value
        case .encoded(let encoded): encoded.value
        }
    }

    package static func == (a: LazyValue, b: LazyValue) -> Bool {
        if case .encoded(let x) = a, case .encoded(let y) = b, x === y { return true }
        return a.value == b.value
    }

    package func hash(into hasher: inout Hasher) { hasher.combine(value) }

    /// False when the value is still encoded and its encoding lacks `text`'s UTF-8 bytes: then
    /// no string in it is `text` (an encoding holds its strings' bytes as they are), and it
    /// need not be decoded to look for one. True otherwise.
    package func mayHold(_ text: String) -> Bool {
        guard case .encoded(let encoded) = self else { return true }
        return encoded.encodingContains(text)
    }
}

/// An item's rendered body.
package typealias ItemText = LazyValue<String>
/// An item's front matter.
package typealias ItemYAML = LazyValue<YAMLNode>

/// The encoding of a value at `range` of a mapped file (whose bytes the caller checked), decoded
/// once, when first read, on whichever thread reads it first.
package final class EncodedValue<Value: Sendable>: Sendable {
    /// Held so that the mapping outlives every item that points into it.
    let file: MappedFile
    let range: Range<Int>
    private let decode: @Sendable (UnsafeRawBufferPointer) -> Value
    private let decoded = Mutex<Value?>(nil)
    /// A text whose bytes the encoding was found to lack when it was made (while its bytes were
    /// read): ``encodingContains(_:)`` answers for it without reading them again, by then
    /// likely out of the cache (an item's front matter asked for `build` at every build).
    private let lacking: String?

    package init(
        file: MappedFile, range: Range<Int>, lacking: String? = nil,
        decode: @escaping @Sendable (UnsafeRawBufferPointer) -> Value
    ) {
        self.file = file
        self.range = range
        self.lacking = lacking
        self.decode = decode
    }

    var value: Value {
        decoded.withLock { decoded in
            if let decoded { return decoded }
            let value = decode(UnsafeRawBufferPointer(rebasing: file.bytes[range]))
            decoded = value
            return value
        }
    }
}

extension EncodedValue {
    /// Whether `text`'s UTF-8 bytes occur in the encoding.
    func encodingContains(_ text: String) -> Bool {
        if let lacking, lacking == text { return false }
        return Self.bytes(UnsafeRawBufferPointer(rebasing: file.bytes[range]), contain: text)
    }

    /// Whether `text`'s UTF-8 bytes occur in `bytes` (an encoding being made: its `lacking`).
    package static func bytes(_ bytes: UnsafeRawBufferPointer, contain text: String) -> Bool {
        var text = text
        return text.withUTF8 { needle in
            guard let base = bytes.baseAddress, !needle.isEmpty else { return needle.isEmpty }
            return feedgen_find(base, bytes.count, needle.baseAddress, needle.count) != nil
        }
    }
}

extension EncodedValue where Value == String {
    /// UTF-8 text.
    package convenience init(text file: MappedFile, range: Range<Int>) {
        self.init(file: file, range: range) { String(decoding: $0, as: UTF8.self) }
    }
}
