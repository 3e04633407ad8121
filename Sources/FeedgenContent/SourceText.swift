import FeedgenDiagnostics

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The text of one source file, decoded and normalised once before anything parses it.
///
/// - A UTF-8 byte-order mark is removed (it is not counted in columns).
/// - CRLF and lone CR line endings become LF. Each ending stays one line break, so line
///   numbers are those an editor shows for the original file.
/// - Invalid UTF-8 is an error at the line and column of the first bad byte.
struct SourceText: Sendable {
    /// The normalised text: LF line endings, no BOM.
    var text: String

    /// Decodes `bytes` (the whole file). `path` is the site-relative path used in diagnostics.
    static func decode(_ bytes: [UInt8], path: String) -> Result<SourceText, Diagnostic> {
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        let content = bytes[start...]
        // The common case, valid UTF-8 with LF line ends: validated and copied once.
        // memchr: a byte loop over the slice cost as much as the validation.
        let hasCR = content.withUnsafeBufferPointer { b in b.baseAddress.map { memchr($0, 0x0D, b.count) != nil } ?? false }
        if !hasCR, let text = content.withUnsafeBufferPointer({ String(checkedUTF8: $0) }) {
            return .success(SourceText(text: text))
        }
        if let bad = firstInvalidUTF8Offset(content) {
            let (line, column) = position(ofByte: bad, in: content)
            return .failure(
                .error(
                    SourceLocation(path: path, line: line, column: column),
                    "file is not valid UTF-8 (invalid byte at offset \(start + bad))"))
        }
        let normalised: String
        if hasCR {
            var out = [UInt8]()
            out.reserveCapacity(content.count)
            var i = content.startIndex
            while i < content.endIndex {
                let b = content[i]
                if b == UInt8(ascii: "\r") {
                    out.append(UInt8(ascii: "\n"))
                    if i + 1 < content.endIndex, content[i + 1] == UInt8(ascii: "\n") { i += 1 }
                } else {
                    out.append(b)
                }
                i += 1
            }
            normalised = String(decoding: out, as: UTF8.self)
        } else {
            normalised = String(decoding: content, as: UTF8.self)
        }
        return .success(SourceText(text: normalised))
    }

    /// The offset (from the start of `bytes`, BOM excluded) of the first byte of the first
    /// ill-formed UTF-8 sequence, or nil when the whole buffer is valid.
    static func firstInvalidUTF8Offset(_ bytes: ArraySlice<UInt8>) -> Int? {
        // Fast path: the standard library validates in bulk (Swift 6 runtime).
        if #available(macOS 15, iOS 18, *) {
            if String(validating: bytes, as: UTF8.self) != nil { return nil }
        }
        var i = bytes.startIndex
        let end = bytes.endIndex
        while i < end {
            let b0 = bytes[i]
            if b0 < 0x80 {
                i += 1
                continue
            }
            let length: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch b0 {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                upper = 0x9F
            case 0xF0:
                length = 4
                lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                upper = 0x8F
            default: return i - bytes.startIndex
            }
            // An ill-formed sequence is reported at its first byte.
            for k in 1..<length {
                let j = i + k
                guard j < end else { return i - bytes.startIndex }
                let b = bytes[j]
                let (lo, hi) = k == 1 ? (lower, upper) : (UInt8(0x80), UInt8(0xBF))
                guard b >= lo, b <= hi else { return i - bytes.startIndex }
            }
            i += length
        }
        return nil
    }

    /// The 1-based line and column (in Unicode scalars) of byte `offset` of `bytes`. CR, LF and
    /// CRLF each end a line.
    static func position(ofByte offset: Int, in bytes: ArraySlice<UInt8>) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        var i = bytes.startIndex
        let target = bytes.startIndex + offset
        while i < target, i < bytes.endIndex {
            let b = bytes[i]
            if b == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if b == UInt8(ascii: "\r") {
                if i + 1 < bytes.endIndex, bytes[i + 1] == UInt8(ascii: "\n") {
                    // The LF that follows ends the line.
                } else {
                    line += 1
                    column = 1
                }
            } else if b & 0xC0 != 0x80 {
                column += 1
            }
            i += 1
        }
        return (line, column)
    }
}

/// Text sources outside `content/`.
public enum SourceFile {
    /// The error at the first byte of `bytes` that is not UTF-8 (`path:line:column: error: file
    /// is not valid UTF-8 (invalid byte at offset N)`, the column in Unicode scalars), or nil
    /// when all of it is UTF-8.
    public static func invalidUTF8(in bytes: [UInt8], shownAs shown: String) -> Diagnostic? {
        guard let bad = SourceText.firstInvalidUTF8Offset(bytes[...]) else { return nil }
        let (line, column) = SourceText.position(ofByte: bad, in: bytes[...])
        return .error(SourceLocation(path: shown, line: line, column: column), "file is not valid UTF-8 (invalid byte at offset \(bad))")
    }

    /// Reads a text source outside `content/` (a template, a data file): the whole file, checked
    /// to be UTF-8.
    ///
    /// - Parameters:
    ///   - path: the file to read (absolute or relative to the working folder).
    ///   - shownAs: the path diagnostics name (site-relative for site files).
    ///   - regularOnly: anything but a regular file (a FIFO, socket, device) is an error, found
    ///     without waiting for a writer; false for files named on the command line (pipes).
    /// - Returns: the text, or one error: `path: error: cannot read: <strerror>` or, for bad
    ///   bytes, `path:line:column: error: file is not valid UTF-8 …` or `… file has a NUL byte …`.
    ///
    /// Unlike content files, the text is kept byte for byte but for a leading UTF-8 BOM, which is
    /// removed (it would be copied into every page): a template's line endings are its output's
    /// (the Mustache spec has CRLF cases).
    public static func readText(_ path: String, shownAs shown: String, regularOnly: Bool = true) -> Result<String, Diagnostic> {
        switch FileSystem.readFile(path, regularOnly: regularOnly) {
        case .failure(let error):
            return .failure(.error(SourceLocation(path: shown), "cannot read: \(error.message)"))
        case .success(let bytes):
            if let bad = invalidUTF8(in: bytes, shownAs: shown) { return .failure(bad) }
            if let nul = bytes.firstIndex(of: 0) {
                // Copied into every page it renders (a NUL in HTML is a parse error): text never has one.
                let (line, column) = SourceText.position(ofByte: nul, in: bytes[...])
                return .failure(
                    .error(SourceLocation(path: shown, line: line, column: column), "file has a NUL byte (offset \(nul)); remove it"))
            }
            let bom = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            return .success(String(decoding: bytes[bom...], as: UTF8.self))
        }
    }
}
