import Dispatch
import Foundation

/// Wall time per build stage, printed to stderr when `FEEDGEN_TIMING=1` (for profiling).
struct StageTiming {
    private var last = DispatchTime.now().uptimeNanoseconds
    private var stages: [(String, Double)] = []
    private let enabled = ProcessInfo.processInfo.environment["FEEDGEN_TIMING"] == "1"

    mutating func mark(_ stage: String) {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        stages.append((stage, Double(now - last) / 1e6))
        last = now
    }

    /// A remark printed with the timings (what the cache did).
    mutating func note(_ text: String) {
        guard enabled else { return }
        notes.append(text)
    }

    private var notes: [String] = []

    func report() {
        guard enabled, !stages.isEmpty else { return }
        let text = stages.map { "\($0.0) \(String(format: "%.0f", $0.1)) ms" }.joined(separator: ", ")
        FileHandle.standardError.write(Data("timing: \(text)\n".utf8))
        for note in notes { FileHandle.standardError.write(Data("timing: \(note)\n".utf8)) }
    }
}
