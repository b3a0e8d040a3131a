import Foundation
import Testing

#if os(Linux)
    /// The `casefile` binary links jemalloc (Package.swift) so that a run's allocations bypass glibc's `malloc`: the
    /// dynamic loader, asked to show its bindings, must bind every `malloc` and `free` of the process — the Swift runtime's,
    /// and the C library's own — to jemalloc. A link order that put the C library first would leave jemalloc loaded and
    /// unused, and the run slower with nothing else to show it. The Swift runtime is `libswiftCore.so` in a debug
    /// build, and part of the binary itself in `make release`'s (`--static-swift-stdlib`; run the suite with
    /// `CASEFILE_BIN` naming that binary to check it).
    @Suite("The casefile binary's allocator")
    struct AllocatorTests {
        /// The library each binding of `symbol` goes to, keyed by the file that asked: the loader's lines read
        /// "binding file ASKER [0] to LIBRARY [0]: normal symbol `SYMBOL' [VERSION]".
        private static func bindings(of symbol: String, in log: String) -> [(asker: String, library: String)] {
            log.split(separator: "\n").compactMap { line in
                guard line.contains("normal symbol `\(symbol)'"),
                    let file = line.range(of: "binding file "), let to = line.range(of: " to "),
                    let colon = line.range(of: ": normal symbol")
                else { return nil }
                let asker = line[file.upperBound..<to.lowerBound].split(separator: " ").first.map(String.init) ?? ""
                let library = line[to.upperBound..<colon.lowerBound].split(separator: " ").first.map(String.init) ?? ""
                return (asker, library)
            }
        }

        @Test("malloc and free bind to jemalloc, for the Swift runtime and the C library alike")
        func mallocIsJemalloc() throws {
            let result = try Casefile.run(["--version"], environment: ["LD_DEBUG": "bindings"])
            #expect(result.status == 0, "\(result.stderr.suffix(500))")
            // The runtime's allocations come from the shared library when the binary loads it, or else from the binary.
            let sharedRuntime = result.stderr.contains("/libswiftCore.so")
            let binary = Casefile.binary.resolvingSymlinksInPath().path
            for symbol in ["malloc", "free"] {
                let bindings = Self.bindings(of: symbol, in: result.stderr)
                #expect(
                    bindings.contains {
                        sharedRuntime
                            ? $0.asker.hasSuffix("/libswiftCore.so")
                            : URL(fileURLWithPath: $0.asker).resolvingSymlinksInPath().path == binary
                    }, "no binding of \(symbol) from Swift")
                #expect(
                    bindings.contains { $0.asker.contains("/libc.so") }, "no binding of \(symbol) from the C library")
                let elsewhere = bindings.filter { !$0.library.contains("libjemalloc.so") }
                #expect(elsewhere.isEmpty, "\(symbol) bound elsewhere: \(elsewhere.prefix(3))")
            }
        }

        /// The options `CJemallocSettings` gives jemalloc: with its defaults (freed pages kept ten seconds), a run over 24
        /// long recordings peaked above the 150 MB goal. jemalloc prints the options it runs with when asked to print its
        /// statistics at exit.
        @Test("jemalloc returns freed pages after a second, as the binary asks")
        func jemallocReturnsFreedPagesAfterASecond() throws {
            let result = try Casefile.run(["--version"], environment: ["MALLOC_CONF": "stats_print:true"])
            #expect(result.status == 0, "\(result.stderr.suffix(500))")
            #expect(result.stderr.contains("opt.dirty_decay_ms: 1000 "), "\(result.stderr.prefix(2000))")
        }
    }
#endif
