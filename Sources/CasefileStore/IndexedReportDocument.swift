public import CasefileCore
import Foundation
import GRDB

/// The JSON document `casefile show REPORT --format json` prints: what the index holds of one report — its row, the
/// groups its crashes and failures are in, every thread and binary image of its crashes, its causal chains, its
/// timeline and its warnings — versioned and documented by `Schemas/report-v1.schema.json`. Crashes and events have
/// the shapes they have in the triage document.
public struct IndexedReportDocument: Sendable, Encodable {
    /// The document's schema version; it changes only when a field changes meaning or goes away.
    public static let currentSchemaVersion = 1

    /// One crash: its row and, from its compact blob, every thread and binary image.
    public struct CrashEntry: Sendable, Encodable {
        /// The incident identifier.
        public var incidentID: String?
        /// The Mach exception type.
        public var exceptionType: String?
        /// The signal.
        public var signal: String?
        /// The crashed thread's index.
        public var crashedThread: Int?
        /// The app image's UUID.
        public var appUUID: String?
        /// Every thread, frames innermost first, with what symbolication found.
        public var threads: [CrashThread]
        /// Every binary image.
        public var images: [BinaryImage]
    }

    /// ``currentSchemaVersion`` when written.
    public var schemaVersion = Self.currentSchemaVersion
    /// Always `casefile`.
    public var generator = "casefile"
    /// The report's row.
    public var report: IndexedReport
    /// The groups holding the report's crashes and failures, by id.
    public var groups: [GroupEntry]
    /// The crashes, in the report's order.
    public var crashes: [CrashEntry]
    /// One causal chain per failed request.
    public var chains: [IndexedChain]
    /// The timeline, in order; `seq` of a chain is a position here.
    public var events: [TimelineEvent]
    /// What could not be read from the report's files, as the run found it.
    public var warnings: [Diagnostic]
}

extension IndexStore {
    /// The document of `report`, a row this index gave (``report(named:)``).
    public func reportDocument(_ report: IndexedReport) throws -> IndexedReportDocument {
        let id = report.id
        let groups = try queue.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM groups WHERE id IN (SELECT group_id FROM occurrences WHERE report_id = ?) ORDER BY id
                    """, arguments: [id]
            ).map(Self.group)
        }
        let crashes = try crashes(reportID: id).map { crash in
            let detail = try crashDetail(crashID: crash.id)
            return IndexedReportDocument.CrashEntry(
                incidentID: crash.incidentID, exceptionType: crash.exceptionType, signal: crash.signal,
                crashedThread: crash.crashedThread, appUUID: crash.appUUID, threads: detail.threads,
                images: detail.images)
        }
        let warnings = try queue.read { db in
            try Row.fetchAll(
                db, sql: "SELECT file, line, message FROM report_warnings WHERE report_id = ? ORDER BY id",
                arguments: [id]
            ).map { Diagnostic(file: $0["file"], line: $0["line"], message: $0["message"]) }
        }
        return IndexedReportDocument(
            report: report, groups: groups.map(GroupEntry.init), crashes: crashes, chains: try chains(reportID: id),
            events: try events(reportID: id).compactMap(\.detail), warnings: warnings)
    }
}
