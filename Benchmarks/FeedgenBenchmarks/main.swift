// feedgen-bench: micro-benchmarks of the core stages, printing figures (not run by the tests).
//
// Usage: swift run -c release feedgen-bench [layout|render|all]
import Foundation

let which = CommandLine.arguments.dropFirst().first ?? "all"
switch which {
case "layout": LayoutBenchmark.run()
case "render": RenderBenchmark.run()
case "all":
    LayoutBenchmark.run()
    RenderBenchmark.run()
default:
    FileHandle.standardError.write(Data("usage: feedgen-bench [layout|render|all]\n".utf8))
    exit(2)
}
