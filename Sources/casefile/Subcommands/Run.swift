import ArgumentParser
import CasefileCore
import CasefileStore
import Foundation
import Logging

extension Casefile {
    /// `casefile run [PIPELINE.toml]`: the nightly batch over the inbox.
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run",
            abstract: "Process every new input in the pipeline's inbox into the index and Markdown summaries.")

        @Argument(help: "The pipeline definition.")
        var pipeline = "Pipelines/nightly.toml"

        @Flag(name: .shortAndLong, help: "Log each input's notes to stderr.")
        var verbose = false

        @Flag(help: "Wait for another run holding the lock to end, instead of exiting with code 3.")
        var wait = false

        @Option(help: "Log level on stderr: trace, debug, info, notice, warning, error, critical (default warning).")
        var logLevel: LogLevel?

        @Flag(help: "Print the run's figures as JSON (Schemas/run-v1.schema.json) instead of the one line.")
        var json = false

        func run() async throws {
            let definition = try Casefile.loadDefinition(pipeline)
            let (store, lock) = try Casefile.openLocked(definition, wait: wait)
            defer { lock.release() }

            var logger = Logger(label: "casefile") { StreamLogHandler.standardError(label: $0) }
            logger.logLevel = logLevel?.level ?? (verbose ? .info : .warning)
            let interactive = isatty(STDERR_FILENO) == 1
            let runner = PipelineRunner(definition: definition, logger: logger)
            let summary: RunSummary
            do {
                summary = try await runner.run(index: store, pipelineName: pipeline) { progress in
                    guard interactive, !json else { return }
                    let name = URL(fileURLWithPath: progress.input).lastPathComponent
                    let line = "[\(progress.done)/\(progress.total)] \(name)"
                    FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
                }
            } catch let error as InputError {
                printError("casefile: \(error)")
                throw ExitStatus.usage.exitCode
            } catch {
                printError("casefile: the run stopped: \(error)")
                throw ExitStatus.cannotStart.exitCode
            }
            if interactive { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            for error in summary.quarantined {
                printError("quarantined: \(error)")
            }
            if json {
                print(
                    try RunReport(summary: summary, output: definition.output, database: definition.database).encoded())
            } else {
                let reports = definition.output.appendingPathComponent("reports").path
                print("casefile: \(summary.line) — index \(definition.database.path), summaries \(reports)")
            }
            if summary.exitCode != 0 {
                throw ExitCode(summary.exitCode)
            }
        }
    }
}
