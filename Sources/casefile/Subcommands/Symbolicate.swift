import ArgumentParser
import CasefileCore
import Foundation

extension Casefile {
    /// `casefile symbolicate CRASHFILE`: any crash, printed back in Apple's text layout.
    struct Symbolicate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a crash report of any format in Apple's text layout (symbol lookup comes with --symbols).")

        @Argument(help: "A crash report: .crash, .ips, KSCrash or MetricKit JSON, an in-app exception report.")
        var crashFile: String

        func run() throws {
            let output = try Casefile.readReports(at: crashFile)
            let crashes = output.reports.flatMap(\.crashes)
            guard !crashes.isEmpty else {
                printError("casefile: \(crashFile): holds no crash")
                throw ExitStatus.quarantined.exitCode
            }
            for report in output.reports {
                for warning in report.warnings { printError("warning: \(warning)") }
            }
            let writer = AppleCrashWriter()
            print(crashes.map(writer.write).joined(separator: "\n"), terminator: "")
        }
    }
}
