public import CasefileCore
public import CasefileStore
public import Foundation
public import Logging

/// Sends the tracker outbox: one issue per group, kept up to date.
///
/// Payloads are sent in file order (oldest run first). A fingerprint with no issue gets one opened; one with an
/// issue — remembered in the index, or found by the hidden marker in an issue's body — gets that issue's title,
/// body and labels replaced and a comment with the new occurrences. A payload sent is recorded in the index and moved
/// to `outbox/sent/`, so it is never sent twice; one that fails stays for the next `publish`, and so do the later
/// payloads of the same fingerprint.
public struct Publisher: Sendable {
    /// What one `publish` did.
    public struct Outcome: Sendable, Equatable {
        /// Issues opened.
        public var opened = 0
        /// Issues updated (and commented on).
        public var updated = 0
        /// Payloads the index says were already sent (moved aside, not sent again).
        public var alreadySent = 0
        /// Payloads left for the next publish, each with its reason.
        public var failed: [String] = []
        /// Payloads that are not valid outbox JSON (moved to `outbox/rejected/`).
        public var rejected: [String] = []
        /// In a dry run, what would be sent, one line each.
        public var planned: [String] = []
    }

    private let outbox: URL
    private let store: IndexStore
    private let settings: TrackerSettings
    private let logger: Logger

    /// A publisher of the outbox folder `outbox`, remembering issues in `store`.
    public init(outbox: URL, store: IndexStore, settings: TrackerSettings, logger: Logger) {
        self.outbox = outbox
        self.store = store
        self.settings = settings
        self.logger = logger
    }

    /// The payload files waiting, oldest run first.
    public func pending() -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: outbox.path)) ?? []
        return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
            .map { outbox.appendingPathComponent($0) }
    }

    /// Sends every pending payload through `client`; with `client` `nil` (a dry run) only says what it would send.
    public func publish(client: GitHubClient?) async throws -> Outcome {
        var outcome = Outcome()
        var issues = try store.trackerIssues()
        if let client {
            // Issues opened before the index knew them (another machine, a lost index, a kill after the reply).
            for (fingerprint, number) in try await client.markedIssues() where issues[fingerprint] == nil {
                try store.recordTrackerIssue(fingerprint: fingerprint, number: number, url: nil)
                issues[fingerprint] = number
            }
        }
        var blocked: Set<String> = []
        for file in pending() {
            guard let data = FileManager.default.contents(atPath: file.path),
                var payload = try? JSONDecoder().decode(TrackerPayload.self, from: data),
                payload.schema == TrackerPayload.schema
            else {
                outcome.rejected.append(file.lastPathComponent)
                logger.error("\(file.path): not a \(TrackerPayload.schema) payload; moved to rejected/")
                move(file, to: "rejected")
                continue
            }
            if try store.isDelivered(payloadID: payload.id) {
                outcome.alreadySent += 1
                move(file, to: "sent")
                continue
            }
            guard !blocked.contains(payload.fingerprint) else {
                outcome.failed.append("\(file.lastPathComponent): waits for an earlier payload of its group")
                continue
            }
            payload.issue.labels += settings.labels.filter { !payload.issue.labels.contains($0) }
            let known = issues[payload.fingerprint]
            guard let client else {
                outcome.planned.append(
                    known.map { "update #\($0) and comment: \(payload.issue.title)" }
                        ?? "open: \(payload.issue.title) [\(payload.issue.labels.joined(separator: ", "))]")
                continue
            }
            do {
                if let number = known {
                    try await client.update(number, with: payload.issue)
                    try await client.comment(on: number, payload.comment)
                    try store.recordDelivery(
                        payloadID: payload.id, fingerprint: payload.fingerprint, number: number, action: "updated")
                    outcome.updated += 1
                } else {
                    let opened = try await client.open(payload.issue)
                    try store.recordTrackerIssue(
                        fingerprint: payload.fingerprint, number: opened.number, url: opened.url)
                    try store.recordDelivery(
                        payloadID: payload.id, fingerprint: payload.fingerprint, number: opened.number, action: "opened"
                    )
                    issues[payload.fingerprint] = opened.number
                    outcome.opened += 1
                }
                move(file, to: "sent")
            } catch {
                blocked.insert(payload.fingerprint)
                outcome.failed.append("\(file.lastPathComponent): \(error)")
                logger.error("\(file.path): not sent, kept for the next publish: \(error)")
            }
        }
        return outcome
    }

    private func move(_ file: URL, to folder: String) {
        let target = outbox.appendingPathComponent(folder)
        try? FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        let destination = target.appendingPathComponent(file.lastPathComponent)
        try? FileManager.default.removeItem(at: destination)
        try? FileManager.default.moveItem(at: file, to: destination)
    }
}
