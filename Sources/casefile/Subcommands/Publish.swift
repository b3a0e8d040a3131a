import ArgumentParser
import CasefileCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Casefile {
    /// `casefile publish [--dry-run] [PIPELINE.toml]`: runs `casefile-publish`, installed beside `casefile`, which
    /// alone loads the HTTP stack (see `Sources/casefile-publish`).
    struct Publish: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "publish",
            abstract: TrackerSettings.publishAbstract, discussion: TrackerSettings.publishDiscussion)

        @Argument(help: "The pipeline definition.")
        var pipeline = "Pipelines/nightly.toml"

        @Flag(help: "Print what would be sent; send nothing and change nothing.")
        var dryRun = false

        @Option(help: "Log level on stderr: trace, debug, info, notice, warning, error, critical (default warning).")
        var logLevel: LogLevel?

        func run() throws {
            let folder = URL(fileURLWithPath: Bundle.main.executablePath ?? CommandLine.arguments[0])
                .resolvingSymlinksInPath().deletingLastPathComponent()
            let program = folder.appendingPathComponent("casefile-publish").path
            guard FileManager.default.isExecutableFile(atPath: program) else {
                printError("casefile: \(program) is missing; it is built with casefile (swift build)")
                throw ExitStatus.cannotStart.exitCode
            }
            var arguments = [program, pipeline]
            if dryRun { arguments.append("--dry-run") }
            if let logLevel { arguments += ["--log-level", logLevel.rawValue] }
            let argv = arguments.map { strdup($0) } + [nil]
            execv(program, argv)
            printError("casefile: cannot run \(program) (errno \(errno))")
            throw ExitStatus.cannotStart.exitCode
        }
    }
}
