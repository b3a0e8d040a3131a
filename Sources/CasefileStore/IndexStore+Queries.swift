import CasefileArchive
public import CasefileCore
import Foundation
import GRDB

/// A report row of the index.
public struct IndexedReport: Sendable, Hashable, Encodable {
    /// The report id (SHA-256 of its files).
    public var id: String
    /// The format, e.g. `clue`.
    public var format: String
    /// The input the report was first read from.
    public var inputPath: String
    /// The device model.
    public var deviceModel: String?
    /// The OS name, as the report gives it (`iPhone OS`, `iOS`).
    public var systemName: String?
    /// The OS version.
    public var systemVersion: String?
    /// The app's name.
    public var appName: String?
    /// The app's bundle identifier.
    public var appBundleID: String?
    /// The app's version (`CFBundleShortVersionString`).
    public var appVersion: String?
    /// The app's build (`CFBundleVersion`).
    public var appBuild: String?
    /// A recording's length in seconds.
    public var duration: Double?
    /// The uncaught exception's name, when the report has one.
    public var exceptionName: String?
    /// Its reason, after redaction.
    public var exceptionReason: String?
    /// Timeline events stored.
    public var eventCount: Int
    /// Failed network exchanges.
    public var failureCount: Int
    /// Warnings stored.
    public var warningCount: Int
    /// The summary file, relative to the output folder.
    public var summaryPath: String?
}

/// A timeline event row of the index.
public struct IndexedEvent: Sendable, Hashable {
    /// The position in the report's timeline.
    public var seq: Int
    /// Seconds on the recording clock.
    public var timestamp: Double
    /// `touch`, `network`, `screen`, `view`, `exception`, `custom` or `log`.
    public var kind: String
    /// One line describing the event.
    public var summary: String
    /// The HTTP method, when recorded.
    public var method: String?
    /// The URL of a network exchange.
    public var url: String?
    /// The HTTP status of a network exchange.
    public var status: Int?
    /// The transport error domain.
    public var errorDomain: String?
    /// The transport error code.
    public var errorCode: Int?
    /// Whether the exchange failed.
    public var failed: Bool
    /// The whole event, read back from the report's `event_details` blob; `nil` when it cannot be read as an event.
    public var detail: TimelineEvent?
}

/// A quarantined input of the index.
public struct QuarantinedInput: Sendable, Hashable {
    /// The input's path.
    public var path: String
    /// The entry inside it that failed, when one did.
    public var entry: String?
    /// Why it was quarantined.
    public var reason: String
}

extension IndexStore {
    /// Every report, oldest first.
    public func reports() throws -> [IndexedReport] {
        try reports(where: "1", [])
    }

    /// The query of the reports that meet `condition`, with their inputs' paths, oldest first.
    static func reportsSQL(where condition: String) -> String {
        """
        SELECT r.*, i.path AS input_path FROM reports r JOIN inputs i ON i.id = r.input_id
        WHERE \(condition) ORDER BY r.indexed_at, r.id
        """
    }

    /// The condition of the reports whose id lies in a ``HexPrefix``'s range, its two bounds.
    static let reportPrefixCondition = "r.id >= ? AND r.id < ?"

    private func reports(where condition: String, _ arguments: StatementArguments) throws -> [IndexedReport] {
        try queue.read { db in
            try Row.fetchAll(db, sql: Self.reportsSQL(where: condition), arguments: arguments).map { row in
                IndexedReport(
                    id: row["id"], format: row["format"], inputPath: row["input_path"],
                    deviceModel: row["device_model"], systemName: row["system_name"],
                    systemVersion: row["system_version"], appName: row["app_name"], appBundleID: row["app_bundle_id"],
                    appVersion: row["app_version"], appBuild: row["app_build"], duration: row["duration"],
                    exceptionName: row["exception_name"], exceptionReason: row["exception_reason"],
                    eventCount: row["event_count"], failureCount: row["failure_count"],
                    warningCount: row["warning_count"], summaryPath: row["summary_path"])
            }
        }
    }

    /// The report whose id starts with `prefix` (at least 6 hex digits, either case), when exactly one does.
    public func report(named prefix: String) throws -> IndexedReport? {
        guard let range = HexPrefix(prefix) else { return nil }
        return try reports(where: Self.reportPrefixCondition, [range.lower, range.upper]).onlyElement
    }

    /// The timeline of one report, in order, each event with its whole detail from the report's `event_details` blob.
    /// A blob that cannot be read, or of a later version, leaves every `detail` `nil`; the rows are still listed.
    public func events(reportID: String) throws -> [IndexedEvent] {
        try queue.read { db in
            let stored = try Row.fetchOne(
                db, sql: "SELECT version, detail FROM event_details WHERE report_id = ?", arguments: [reportID])
            var details: [TimelineEvent?] = []
            if let stored, stored["version"] as Int? == EventDetailCodec.version, let blob = stored["detail"] as Data? {
                details = (try? EventDetailCodec.decode([UInt8](blob))) ?? []
            }
            return try Row.fetchAll(
                db, sql: "SELECT * FROM timeline_events WHERE report_id = ? ORDER BY seq", arguments: [reportID]
            )
            .map { row in
                let seq: Int = row["seq"]
                return IndexedEvent(
                    seq: seq, timestamp: row["timestamp"], kind: row["kind"], summary: row["summary"],
                    method: row["method"], url: row["url"], status: row["status"], errorDomain: row["error_domain"],
                    errorCode: row["error_code"], failed: row["failed"],
                    detail: details.indices.contains(seq) ? details[seq] : nil)
            }
        }
    }

    /// Every quarantined input, oldest first.
    public func quarantined() throws -> [QuarantinedInput] {
        try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT path, entry, reason FROM quarantine ORDER BY id").map { row in
                QuarantinedInput(path: row["path"], entry: row["entry"], reason: row["reason"])
            }
        }
    }

    /// How many rows a table holds; for tests and figures.
    public func count(_ table: IndexTable) throws -> Int {
        try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.rawValue)") ?? 0 }
    }
}

/// The tables of the index, for ``IndexStore/count(_:)``.
public enum IndexTable: String, Sendable, CaseIterable {
    /// Runs.
    case runs
    /// Inputs, indexed or quarantined.
    case inputs
    /// Reports.
    case reports
    /// Timeline events.
    case timelineEvents = "timeline_events"
    /// Each report's whole timeline events, one blob per report.
    case eventDetails = "event_details"
    /// Quarantine records.
    case quarantine
    /// Report warnings.
    case reportWarnings = "report_warnings"
    /// Crashes.
    case crashes
    /// Crash binary images.
    case crashImages = "crash_images"
    /// Crash threads.
    case crashThreads = "crash_threads"
    /// Crash frames.
    case crashFrames = "crash_frames"
    /// Symbolication answers.
    case symbolCache = "symbol_cache"
    /// Files of the symbol folders.
    case debugFiles = "debug_files"
    /// Links between reports and the inputs they were found in.
    case reportInputs = "report_inputs"
    /// Causal chains.
    case chains
}

/// A crash row of the index.
public struct IndexedCrash: Sendable, Hashable {
    /// The row id.
    public var id: Int64
    /// The report holding the crash.
    public var reportID: String
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
}

/// A frame row of the index.
public struct IndexedFrame: Sendable, Hashable {
    /// The image name.
    public var image: String?
    /// The absolute address.
    public var address: UInt64?
    /// The symbol, when the report had one.
    public var symbol: String?
    /// Whether the frame is in the app's own image.
    public var inApp: Bool
}

extension IndexStore {
    /// Every crash, or the crashes of one report, in the order indexed.
    public func crashes(reportID: String? = nil) throws -> [IndexedCrash] {
        try queue.read { db in
            let rows =
                if let reportID {
                    try Row.fetchAll(
                        db, sql: "SELECT * FROM crashes WHERE report_id = ? ORDER BY id", arguments: [reportID])
                } else {
                    try Row.fetchAll(db, sql: "SELECT * FROM crashes ORDER BY id")
                }
            return rows.map { row in
                IndexedCrash(
                    id: row["id"], reportID: row["report_id"], incidentID: row["incident_id"],
                    exceptionType: row["exception_type"], signal: row["signal"], crashedThread: row["crashed_thread"],
                    appUUID: row["app_uuid"])
            }
        }
    }

    /// The indices of a crash's threads stored as rows — the crashed thread and the threads holding app frames — in
    /// order; every thread is in ``crashDetail(crashID:)``.
    public func threadRows(crashID: Int64) throws -> [Int] {
        try queue.read { db in
            try Int.fetchAll(
                db, sql: "SELECT thread_index FROM crash_threads WHERE crash_id = ? ORDER BY thread_index",
                arguments: [crashID])
        }
    }

    /// The frames of one thread of a crash, innermost first.
    public func frames(crashID: Int64, thread: Int) throws -> [IndexedFrame] {
        try queue.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT * FROM crash_frames WHERE crash_id = ? AND thread_index = ? ORDER BY seq",
                arguments: [crashID, thread]
            ).map { row in
                let address: Int64? = row["address"]
                return IndexedFrame(
                    image: row["image"], address: address.map { UInt64(bitPattern: $0) }, symbol: row["symbol"],
                    inApp: row["in_app"])
            }
        }
    }
}

extension Array {
    /// The one element, or `nil` when there are none or several.
    fileprivate var onlyElement: Element? {
        count == 1 ? first : nil
    }
}

extension IndexStore {
    /// Every thread and binary image of a crash, from its compact blob (frames with their symbolication as the
    /// function, file and line it found).
    public func crashDetail(crashID: Int64) throws -> (threads: [CrashThread], images: [BinaryImage]) {
        try queue.read { db in
            guard let data = try Data.fetchOne(db, sql: "SELECT detail FROM crashes WHERE id = ?", arguments: [crashID])
            else { return ([], []) }
            // Each set of system images the blob names is read as the blob comes to it; a missing one is the codec's
            // to report, and one SQLite cannot read is reported as SQLite's error.
            var failure: (any Error)?
            do throws(ArchiveError) {
                return try CrashDetailCodec.decode([UInt8](data)) { id throws(ArchiveError) in
                    do {
                        let set = try Data.fetchOne(
                            db.cachedStatement(sql: "SELECT detail FROM image_sets WHERE id = ?"), arguments: [id])
                        return set.map { CrashImageSet(id: id, blob: [UInt8]($0)) }
                    } catch {
                        failure = error
                        throw ArchiveError(code: .unreadable, input: "image set \(id)", reason: "\(error)")
                    }
                }
            } catch {
                if let failure { throw failure }
                throw StoreError(path: path, reason: "crash \(crashID): \(error.reason)")
            }
        }
    }
}
