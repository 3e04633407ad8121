import CMimalloc
import FeedgenCLI
import Foundation

// feedgen's malloc is mimalloc (Debian's libmimalloc2.0, linked, so it replaces glibc's malloc
// for the whole process; docs/benchmarks.md, "The allocator"). A build makes millions of small,
// short-lived allocations on both cores (libcmark's nodes, Swift strings and arrays): with
// glibc's malloc they were 15-19% of a 100,000-item build's samples and grew faster than the
// site. A one-shot build never hands freed memory back to the system (`allow_decommit` off:
// peak RSS is unchanged, and reusing pages avoids page faults); `--watch` keeps mimalloc's
// default, since it runs for hours.
let arguments = Array(CommandLine.arguments.dropFirst())
if !arguments.contains("--watch") {
    mi_option_set(mi_option_allow_decommit, 0)
}
exit(CommandLineTool.run(arguments))
