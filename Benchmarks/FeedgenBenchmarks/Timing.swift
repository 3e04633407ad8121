import Dispatch

/// Runs `body` `runs` times and returns the median wall time in milliseconds.
func medianMilliseconds(runs: Int = 7, _ body: () -> Void) -> Double {
    var times: [Double] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    times.sort()
    return times[times.count / 2]
}
