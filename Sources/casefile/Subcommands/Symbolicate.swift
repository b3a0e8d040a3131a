import ArgumentParser
import CasefileCore
import Foundation

extension Casefile {
    /// `casefile symbolicate CRASHFILE`: any crash, printed back in Apple's text layout.
    struct Symbolicate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "symbolicate",
            abstract: "Print a crash report of any format in Apple's text layout (symbol lookup comes with --symbols).")

        @Argument(help: "A crash report: .crash, .ips, KSCrash or MetricKit JSON, an in-app exception report.")
        var crashFile: String

        @Option(name: .long, help: "A folder of debug files (.dSYM bundles, Mach-O binaries); may be repeated.")
        var symbols: [String] = []

        @Flag(name: .shortAndLong, help: "Name every image left unsymbolicated, system libraries included.")
        var verbose = false

        func run() throws {
            let output = try Casefile.readReports(at: crashFile)
            var crashes = output.reports.flatMap(\.crashes)
            guard !crashes.isEmpty else {
                printError("casefile: \(crashFile): holds no crash")
                throw ExitStatus.quarantined.exitCode
            }
            for report in output.reports {
                for warning in report.warnings { printError("warning: \(warning)") }
            }
            if !symbols.isEmpty {
                let index = Casefile.debugFiles(in: symbols)
                let symbolicator = Symbolicator(index: index)
                if symbolicator.llvmSymbolizer == nil {
                    printError("warning: llvm-symbolizer not found: function names from symbol tables only")
                }
                crashes = crashes.map { crash in
                    let result = symbolicator.symbolicate(crash)
                    for warning in result.warnings { printError("warning: \(warning)") }
                    return result.crash
                }
                for line in SymbolDiagnostics.lines(crashes, verbose: verbose) { printError(line) }
            }
            let writer = AppleCrashWriter()
            print(crashes.map(writer.write).joined(separator: "\n"), terminator: "")
        }
    }
}
