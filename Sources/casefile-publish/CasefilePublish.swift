import ArgumentParser
import CasefileCore
import CasefileStore
import CasefileTracker
import Foundation
import Logging

/// `casefile-publish`: what `casefile publish` runs. A program of its own so that only publishing loads the HTTP
/// stack (FoundationNetworking, libcurl and some thirty libraries): every other `casefile` command starts without it.
@main
struct CasefilePublish: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "casefile publish",
        abstract: TrackerSettings.publishAbstract, discussion: TrackerSettings.publishDiscussion)

    @Argument(help: "The pipeline definition.")
    var pipeline = "Pipelines/nightly.toml"

    @Flag(help: "Print what would be sent; send nothing and change nothing.")
    var dryRun = false

    @Option(help: "Log level on stderr: trace, debug, info, notice, warning, error, critical (default warning).")
    var logLevel: String?

    func run() async throws {
        let definition: PipelineDefinition
        do {
            definition = try PipelineDefinition.load(from: pipeline)
        } catch {
            Self.printError("casefile: \(error)")
            throw ExitCode(2)
        }
        let settings = definition.tracker
        guard let repository = settings.repository else {
            Self.printError("casefile: \(pipeline): [tracker] repository is not set; nothing to publish to")
            throw ExitCode(2)
        }
        var logger = Logger(label: "casefile") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = logLevel.flatMap(Logger.Level.init(rawValue:)) ?? .warning
        let token = ProcessInfo.processInfo.environment[settings.tokenVariable]
        if token == nil, !dryRun {
            Self.printError("casefile: \(settings.tokenVariable) is not set; sending without a token")
        }
        let store: IndexStore
        let lock: RunLock
        do {
            lock = try RunLock(path: definition.database.path + ".lock")
            store = try IndexStore(path: definition.database.path)
        } catch {
            Self.printError("casefile: \(error)")
            throw ExitCode(3)
        }
        defer { lock.release() }
        let publisher = Publisher(
            outbox: definition.output.appendingPathComponent("outbox"), store: store, settings: settings,
            logger: logger)
        let client = dryRun ? nil : GitHubClient(settings: settings, repository: repository, token: token)
        let outcome: Publisher.Outcome
        do {
            outcome = try await publisher.publish(client: client)
        } catch {
            Self.printError("casefile: publish stopped, nothing more sent: \(error)")
            throw ExitCode(1)
        }
        for line in outcome.planned { print("would \(line)") }
        for line in outcome.failed { Self.printError("not sent: \(line)") }
        print(
            "casefile: \(outcome.opened) opened, \(outcome.updated) updated, \(outcome.alreadySent) already sent, "
                + "\(outcome.failed.count) left for the next publish, \(outcome.rejected.count) rejected"
                + (dryRun ? " (dry run: \(outcome.planned.count) to send)" : ""))
        if !outcome.failed.isEmpty || !outcome.rejected.isEmpty {
            throw ExitCode(1)
        }
    }

    private static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
