import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
    private let RUSAGE_SELF_ID = Int32(RUSAGE_SELF.rawValue)
#elseif canImport(Darwin)
    import Darwin
    private let RUSAGE_SELF_ID = RUSAGE_SELF
#endif

/// Wall time, CPU time (user + system, all threads) and peak resident set per build stage,
/// printed to stderr when enabled (``BuildOptions/timing``, for profiling):
/// `timing: load 873 ms (cpu 1650 ms, peak 180 MiB), …`.
public struct StageTiming {
    private var last = DispatchTime.now().uptimeNanoseconds
    private var lastCPU = StageTiming.cpuMilliseconds()
    private var stages: [(name: String, wall: Double, cpu: Double, peak: Int)] = []
    private let enabled: Bool

    /// - Parameter enabled: whether anything is recorded and printed; off, every call is free.
    public init(enabled: Bool = false) { self.enabled = enabled }

    public mutating func mark(_ stage: String) {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        let cpu = Self.cpuMilliseconds()
        stages.append((stage, Double(now - last) / 1e6, cpu - lastCPU, Self.peakMiB()))
        last = now
        lastCPU = cpu
    }

    /// A remark printed with the timings (what the cache did).
    public mutating func note(_ text: String) {
        guard enabled else { return }
        notes.append(text)
    }

    private var notes: [String] = []

    public func report() {
        guard enabled, !stages.isEmpty else { return }
        let text = stages.map {
            "\($0.name) \(String(format: "%.0f", $0.wall)) ms (cpu \(String(format: "%.0f", $0.cpu)) ms, peak \($0.peak) MiB)"
        }.joined(separator: ", ")
        FileHandle.standardError.write(Data("timing: \(text)\n".utf8))
        for note in notes { FileHandle.standardError.write(Data("timing: \(note)\n".utf8)) }
    }

    /// User + system CPU time of the whole process so far, in ms.
    private static func cpuMilliseconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF_ID, &usage)
        let user = Double(usage.ru_utime.tv_sec) * 1e3 + Double(usage.ru_utime.tv_usec) / 1e3
        let system = Double(usage.ru_stime.tv_sec) * 1e3 + Double(usage.ru_stime.tv_usec) / 1e3
        return user + system
    }

    /// The process's peak resident set so far, in MiB (Linux reports `ru_maxrss` in KiB).
    private static func peakMiB() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF_ID, &usage)
        return Int(usage.ru_maxrss) / 1024
    }
}
