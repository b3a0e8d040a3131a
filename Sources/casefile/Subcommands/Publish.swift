import ArgumentParser
import CasefileCore
import CasefileStore
import CasefileTracker
import Foundation
import Logging

extension Casefile {
    /// `casefile publish [--dry-run] [PIPELINE.toml]`: send the tracker outbox.
    struct Publish: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send the tracker outbox: open one issue per group, update it and comment as it grows.",
            discussion: """
                The tracker is [tracker] in the pipeline definition (url, repository = "owner/name", token_env, \
                labels); the token is read from the environment variable token_env names \
                (CASEFILE_TRACKER_TOKEN by default). A payload that fails stays in the outbox for the next publish. \
                Exit codes: 0 everything sent, 1 some payloads left for the next publish, 2 usage or configuration \
                error, 3 the index or the lock could not be taken.
                """)

        @Argument(help: "The pipeline definition.")
        var pipeline = "Pipelines/nightly.toml"

        @Flag(help: "Print what would be sent; send nothing and change nothing.")
        var dryRun = false

        @Option(help: "Log level on stderr: trace, debug, info, notice, warning, error, critical (default warning).")
        var logLevel: LogLevel?

        func run() async throws {
            let definition = try Casefile.loadDefinition(pipeline)
            let settings = definition.tracker
            guard let repository = settings.repository else {
                printError("casefile: \(pipeline): [tracker] repository is not set; nothing to publish to")
                throw ExitStatus.usage.exitCode
            }
            let token = ProcessInfo.processInfo.environment[settings.tokenVariable]
            if token == nil, !dryRun {
                printError("casefile: \(settings.tokenVariable) is not set; sending without a token")
            }
            let (store, lock) = try Casefile.openLocked(definition)
            defer { lock.release() }
            var logger = Logger(label: "casefile") { StreamLogHandler.standardError(label: $0) }
            logger.logLevel = logLevel?.level ?? .warning
            let publisher = Publisher(
                outbox: definition.output.appendingPathComponent("outbox"), store: store, settings: settings,
                logger: logger)
            let client = dryRun ? nil : GitHubClient(settings: settings, repository: repository, token: token)
            let outcome: Publisher.Outcome
            do {
                outcome = try await publisher.publish(client: client)
            } catch {
                printError("casefile: publish stopped, nothing more sent: \(error)")
                throw ExitCode(ExitStatus.quarantined.rawValue)
            }
            for line in outcome.planned { print("would \(line)") }
            for line in outcome.failed { printError("not sent: \(line)") }
            print(
                "casefile: \(outcome.opened) opened, \(outcome.updated) updated, \(outcome.alreadySent) already sent, "
                    + "\(outcome.failed.count) left for the next publish, \(outcome.rejected.count) rejected"
                    + (dryRun ? " (dry run: \(outcome.planned.count) to send)" : ""))
            if !outcome.failed.isEmpty || !outcome.rejected.isEmpty {
                throw ExitCode(ExitStatus.quarantined.rawValue)
            }
        }
    }
}
