import CasefileArchive
import CasefileCore
import Foundation
import GRDB

/// The index schema, as named migrations applied in order; see the Schema article for what each column means.
enum Schema {
    /// The condition on a `runs` row of a run that was killed: it never finished, and no run that did has finished its
    /// work yet (`recovered_by`).
    static let killedRun = "(finished_at IS NULL AND recovered_by IS NULL)"

    /// The order groups are listed in: most occurrences first, then the run that found them, then their fingerprint.
    /// Not their `id`: a run's parallel tasks create groups in the order they finish, so ids would list ties
    /// differently for the same inbox.
    static let groupOrder = "occurrences DESC, first_run_id, fingerprint"

    /// The order a group page lists its occurrences in: the latest run first, then by report and position (both
    /// descending, so the index `occurrences_by_group_run` is walked backwards, without a sort). Not by `id`, for the
    /// reason of ``groupOrder``.
    static let occurrenceOrder = "o.run_id DESC, o.report_id DESC, o.source DESC, o.seq DESC"

    /// `?, ?, …`: the parameters of an `IN (…)` list or a `VALUES (…)` row of `count` values.
    static func parameters(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-foundation") { db in
            try db.create(table: "runs") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("pipeline", .text).notNull()
                t.column("inbox", .text).notNull()
                t.column("started_at", .datetime).notNull()
                t.column("finished_at", .datetime)
                t.column("inputs", .integer)
                t.column("processed", .integer)
                t.column("skipped", .integer)
                t.column("quarantined", .integer)
                t.column("new_reports", .integer)
                t.column("duplicate_reports", .integer)
                t.column("seconds", .double)
            }
            try db.create(table: "inputs") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("sha256", .text).notNull().unique()
                t.column("path", .text).notNull()
                t.column("kind", .text).notNull()
                t.column("status", .text).notNull().check { ["indexed", "quarantined"].contains($0) }
                t.column("run_id", .integer).notNull().indexed().references("runs")
                t.column("notes", .text)
                t.column("indexed_at", .datetime).notNull()
            }
            try db.create(table: "quarantine") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("input_id", .integer).indexed().references("inputs", onDelete: .cascade)
                t.column("run_id", .integer).notNull().indexed().references("runs")
                t.column("path", .text).notNull()
                t.column("entry", .text)
                t.column("reason", .text).notNull()
                t.column("created_at", .datetime).notNull()
            }
            try db.create(table: "reports") { t in
                t.primaryKey("id", .text)
                t.column("input_id", .integer).notNull().indexed().references("inputs", onDelete: .cascade)
                t.column("run_id", .integer).notNull().indexed().references("runs")
                t.column("format", .text).notNull()
                t.column("root", .text).notNull()
                t.column("clue_uuid", .text)
                t.column("device_model", .text)
                t.column("system_name", .text)
                t.column("system_version", .text)
                t.column("vendor_id", .text)
                t.column("app_name", .text)
                t.column("app_bundle_id", .text)
                t.column("app_version", .text)
                t.column("app_build", .text)
                t.column("duration", .double)
                t.column("video_bytes", .integer)
                t.column("video_duration", .double)
                t.column("view_snapshots", .integer).notNull()
                t.column("event_count", .integer).notNull()
                t.column("failure_count", .integer).notNull()
                t.column("warning_count", .integer).notNull()
                t.column("exception_name", .text)
                t.column("exception_reason", .text)
                t.column("summary_path", .text)
                t.column("indexed_at", .datetime).notNull()
            }
            try db.create(table: "report_inputs") { t in
                t.column("report_id", .text).notNull().indexed().references("reports", onDelete: .cascade)
                t.column("input_id", .integer).notNull().indexed().references("inputs", onDelete: .cascade)
                t.column("root", .text).notNull()
                t.primaryKey(["report_id", "input_id", "root"])
            }
            try db.create(table: "timeline_events") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("report_id", .text).notNull().indexed().references("reports", onDelete: .cascade)
                t.column("seq", .integer).notNull()
                t.column("timestamp", .double).notNull()
                t.column("time_recorded", .boolean).notNull()
                t.column("kind", .text).notNull().indexed()
                t.column("summary", .text).notNull()
                t.column("source_file", .text).notNull()
                t.column("source_line", .integer)
                t.column("method", .text)
                t.column("url", .text)
                t.column("status", .integer)
                t.column("error_domain", .text)
                t.column("error_code", .integer)
                t.column("error", .text)
                t.column("failed", .boolean).notNull().defaults(to: false)
                t.column("start_ts", .double)
                t.column("end_ts", .double)
                t.column("expected_bytes", .integer)
                t.column("received_bytes", .integer)
                t.column("detail_json", .text).notNull()
                t.uniqueKey(["report_id", "seq"])
            }
            try db.create(table: "report_warnings") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("report_id", .text).notNull().indexed().references("reports", onDelete: .cascade)
                t.column("file", .text).notNull()
                t.column("line", .integer)
                t.column("message", .text).notNull()
            }
        }
        migrator.registerMigration("v2-crashes") { db in
            try db.create(table: "crashes") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("report_id", .text).notNull().indexed().references("reports", onDelete: .cascade)
                t.column("seq", .integer).notNull()
                t.column("format", .text).notNull()
                t.column("kind", .text).notNull()
                t.column("incident_id", .text).indexed()
                t.column("timestamp", .text)
                t.column("app_name", .text)
                t.column("bundle_id", .text)
                t.column("app_version", .text)
                t.column("app_build", .text)
                t.column("os_name", .text)
                t.column("os_version", .text)
                t.column("os_build", .text)
                t.column("device_model", .text)
                t.column("process_name", .text)
                t.column("exception_type", .text)
                t.column("signal", .text)
                t.column("exception_codes", .text)
                t.column("exception_subtype", .text)
                t.column("exception_name", .text)
                t.column("exception_reason", .text)
                t.column("termination_namespace", .text)
                t.column("termination_code", .integer)
                t.column("termination_reason", .text)
                t.column("crashed_thread", .integer)
                t.column("app_uuid", .text)
                t.column("raw_fields", .text).notNull()
                t.uniqueKey(["report_id", "seq"])
            }
            try db.create(table: "crash_images") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("crash_id", .integer).notNull().indexed().references("crashes", onDelete: .cascade)
                t.column("name", .text).notNull()
                t.column("path", .text)
                t.column("arch", .text)
                t.column("uuid", .text).indexed()
                t.column("load_address", .integer).notNull()
                t.column("end_address", .integer)
                t.column("is_app", .boolean).notNull()
            }
            try db.create(table: "crash_threads") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("crash_id", .integer).notNull().indexed().references("crashes", onDelete: .cascade)
                t.column("thread_index", .integer).notNull()
                t.column("name", .text)
                t.column("queue", .text)
                t.column("crashed", .boolean).notNull()
            }
            try db.create(table: "crash_frames") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("crash_id", .integer).notNull().indexed().references("crashes", onDelete: .cascade)
                t.column("thread_index", .integer)
                t.column("exception_backtrace", .boolean).notNull()
                t.column("seq", .integer).notNull()
                t.column("image", .text)
                t.column("image_uuid", .text)
                t.column("address", .integer)
                t.column("load_address", .integer)
                t.column("image_offset", .integer)
                t.column("symbol", .text)
                t.column("symbol_offset", .integer)
                t.column("file", .text)
                t.column("line", .integer)
                t.column("inlined", .boolean).notNull()
                t.column("in_app", .boolean).notNull()
            }
        }
        migrator.registerMigration("v3-symbolication") { db in
            try db.alter(table: "crash_frames") { t in
                t.add(column: "symbolication_status", .text)
                t.add(column: "symbolication_reason", .text)
                t.add(column: "function", .text)
                t.add(column: "source_file", .text)
                t.add(column: "source_line", .integer)
                t.add(column: "inlined_json", .text)
            }
        }
        migrator.registerMigration("v4-symbol-cache") { db in
            try db.create(table: "symbol_cache") { t in
                t.column("uuid", .text).notNull()
                t.column("address", .integer).notNull()
                t.column("backend", .text).notNull()
                t.column("locations_json", .text).notNull()
                t.primaryKey(["uuid", "address"])
            }
        }
        migrator.registerMigration("v5-debug-files") { db in
            try db.create(table: "debug_files") { t in
                t.primaryKey("path", .text)
                t.column("size", .integer).notNull()
                t.column("modified", .double).notNull()
                t.column("entries_json", .text).notNull()
            }
        }
        migrator.registerMigration("v6-groups") { db in
            // Cached answers of earlier versions lack the declaration line closures are now grouped by: a closure
            // would be keyed one way from the cache and another from llvm-symbolizer. They are asked again once.
            try db.execute(sql: "DELETE FROM symbol_cache")
            try db.create(table: "groups") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("fingerprint", .text).notNull().unique()
                t.column("kind", .text).notNull()
                t.column("resolution", .text).notNull()
                t.column("title", .text).notNull()
                t.column("status", .text).notNull().indexed()
                    .check { ["new", "ongoing", "regressed", "resolved", "merged"].contains($0) }
                t.column("occurrences", .integer).notNull()
                t.column("first_seen", .datetime).notNull()
                t.column("last_seen", .datetime).notNull()
                t.column("first_run_id", .integer).notNull().references("runs")
                t.column("last_run_id", .integer).notNull().references("runs")
                t.column("rules_version", .text).notNull()
                t.column("explanation_json", .text)
                t.column("resolved_at", .datetime)
                t.column("resolved_in_version", .text)
                t.column("resolved_max_version", .text)
                t.column("regressed_in_version", .text)
                t.column("regressed_run_id", .integer)
                t.column("merged_into", .integer).references("groups")
            }
            try db.create(table: "occurrences") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("group_id", .integer).notNull().indexed().references("groups")
                t.column("report_id", .text).notNull().references("reports", onDelete: .cascade)
                t.column("source", .text).notNull().check { ["crash", "failure"].contains($0) }
                t.column("seq", .integer).notNull()
                t.column("run_id", .integer).notNull().indexed().references("runs")
                t.column("fingerprint", .text).notNull()
                t.column("rules_version", .text).notNull()
                t.column("app_version", .text)
                t.column("os_version", .text)
                t.column("device_model", .text)
                // The key at every resolution, so regrouping at another one is a query (not indexed: a preview
                // reads them all once).
                for resolution in Fingerprint.Resolution.allCases {
                    t.column("key_\(resolution.rawValue)", .text)
                }
                t.uniqueKey(["report_id", "source", "seq"])
            }
            try db.create(table: "group_aliases") { t in
                t.primaryKey("fingerprint", .text)
                t.column("group_id", .integer).notNull().references("groups")
            }
        }
        migrator.registerMigration("v7-compact-crashes") { db in
            // Rows for what is queried (crashed thread, exception backtrace, app frames, the images they lie in);
            // every thread and image of the crash in one compressed blob (see CrashDetailCodec).
            try db.alter(table: "crashes") { t in
                t.add(column: "detail", .blob)
            }
        }
        migrator.registerMigration("v8-input-signatures") { db in
            // Size and modification times of an input when it was read: an unchanged input is skipped unread.
            try db.alter(table: "inputs") { t in
                t.add(column: "signature", .text)
            }
            try db.create(index: "inputs_by_path", on: "inputs", columns: ["path"])
        }
        migrator.registerMigration("v9-chains") { db in
            // One row per causal chain: a failed request, the tap that most plausibly triggered it, what the
            // screen did next; seq columns point into timeline_events of the same report.
            try db.create(table: "chains") { t in
                t.column("report_id", .text).notNull().references("reports", onDelete: .cascade)
                t.column("ordinal", .integer).notNull()
                t.column("trigger_seq", .integer)
                t.column("trigger_at", .double)
                t.column("trigger", .text)
                t.column("exchange_seq", .integer).notNull()
                t.column("failure_at", .double).notNull()
                t.column("endpoint", .text)
                t.column("status", .integer)
                t.column("failure", .text).notNull()
                t.column("outcome_kind", .text).notNull().indexed()
                t.column("outcome_seq", .integer)
                t.column("outcome", .text).notNull()
                t.column("follow_ups_json", .text).notNull()
                t.column("confidence", .double).notNull()
                t.column("evidence_json", .text).notNull()
                t.primaryKey(["report_id", "ordinal"])
            }
        }
        migrator.registerMigration("v10-tracker") { db in
            // The issue each group's fingerprint has in the tracker, and each outbox payload sent, so `casefile
            // publish` updates the same issue and never sends a payload twice.
            try db.create(table: "tracker_issues") { t in
                t.primaryKey("fingerprint", .text)
                t.column("number", .integer).notNull()
                t.column("url", .text)
                t.column("opened_at", .datetime).notNull()
                t.column("updated_at", .datetime).notNull()
            }
            try db.create(table: "tracker_deliveries") { t in
                t.primaryKey("payload_id", .text)
                t.column("fingerprint", .text).notNull()
                t.column("number", .integer).notNull()
                t.column("action", .text).notNull()
                t.column("sent_at", .datetime).notNull()
            }
        }
        migrator.registerMigration("v11-run-recovery") { db in
            // A run killed before it finished is recovered by the next run that finishes: its groups' pages and
            // tracker payloads are written then, and its new groups stay new until then.
            try db.alter(table: "runs") { t in
                t.add(column: "recovered_by", .integer)
            }
        }
        migrator.registerMigration("v12-no-duplicate-indexes") { db in
            // Each of these indexes repeats the first column of a unique key of its table, which SQLite already
            // uses for the same look-ups (a report's events, crashes and inputs): every insert kept one more b-tree.
            for index in ["timeline_events_on_report_id", "crashes_on_report_id", "report_inputs_on_report_id"] {
                try db.drop(index: index)
            }
        }
        migrator.registerMigration("v13-occurrence-counts") { db in
            // A group page counts its occurrences by app version, OS version and device. Counted from `occurrences`,
            // that read every occurrence of the group at every run that touched it: 0.5 s for a group of 400,000.
            // Kept by triggers instead, so every way an occurrence is written, moved or deleted keeps them.
            try db.execute(
                sql: """
                    CREATE TABLE occurrence_counts (
                        group_id INTEGER NOT NULL,
                        dimension TEXT NOT NULL CHECK (dimension IN ('app_version', 'os_version', 'device_model')),
                        value TEXT NOT NULL,
                        n INTEGER NOT NULL,
                        PRIMARY KEY (group_id, dimension, value)
                    ) WITHOUT ROWID
                    """)
            for dimension in OccurrenceCounts.dimensions {
                try db.execute(
                    sql: """
                        INSERT INTO occurrence_counts (group_id, dimension, value, n)
                        SELECT group_id, '\(dimension)', \(dimension), COUNT(*) FROM occurrences
                        WHERE \(dimension) IS NOT NULL GROUP BY group_id, \(dimension)
                        """)
            }
            try db.execute(sql: OccurrenceCounts.triggers)
        }
        migrator.registerMigration("v14-occurrence-counts-by-input") { db in
            // The index writer adds each input's counts itself (`OccurrenceTally`): the insert trigger kept a statement
            // journal for every occurrence, which cost more the more reports an input held. Moving and deleting
            // occurrences stay with the triggers.
            try db.execute(sql: "DROP TRIGGER IF EXISTS occurrence_counts_after_insert")
        }
        migrator.registerMigration("v15-group-title-input") { db in
            // The input whose report gave a group its title: until the run that found the group is done, an
            // occurrence from an input that sorts first takes the title over, so the title does not depend on which
            // input the parallel tasks indexed first (nor on kills). Null for groups from before: their titles stay.
            try db.alter(table: "groups") { t in
                t.add(column: "title_input", .text)
            }
        }
        migrator.registerMigration("v16-occurrences-by-run") { db in
            // A group page lists its latest occurrences by run, then report (`occurrenceOrder`), not by id. With every
            // column of that order in the index, the page reads 50 entries of it, however many occurrences the group's
            // latest run gave (a first run over a backlog gives the largest group hundreds of thousands). It serves
            // every look-up the index on `group_id` alone served.
            try db.drop(index: "occurrences_on_group_id")
            try db.create(
                index: "occurrences_by_group_run", on: "occurrences",
                columns: ["group_id", "run_id", "report_id", "source", "seq"])
        }
        migrator.registerMigration("v17-report-completeness") { db in
            // How much each stored copy of a report holds (`Report.completeness`): until its run is done, a more
            // complete copy from another input replaces it. Null for reports from before: they stay. The copy's
            // symbol coverage, which the run's digest counted, is kept for the digest to take off when it is replaced.
            try db.alter(table: "reports") { t in
                t.add(column: "completeness", .integer)
                t.add(column: "symbol_coverage", .text)
            }
        }
        migrator.registerMigration("v18-image-sets") { db in
            // Runs of a crash's system images, the same in every report from one OS build, stored once per set
            // (`CrashImageSet`); a crash blob of version 3 names its sets and lists only their load addresses.
            try db.create(table: "image_sets") { t in
                t.primaryKey("id", .text)
                t.column("detail", .blob).notNull()
            }
        }
        migrator.registerMigration("v19-group-order") { db in
            // A year of nights holds tens of thousands of groups, most a long tail of bugs seen a few times, each row
            // a few kilobytes with its explanation. Listing them (`casefile groups`, the digest's top groups) walks an
            // index in the listing's order (`groupOrder`) and reads the rows it lists, instead of every group and a
            // sort; the digest finds the groups a run found by `first_run_id`. Without them the digest read every
            // group twice at the end of every run: 50,000 groups made a night of 200 inputs 0.3 s longer.
            // The order spelled out, not `groupOrder`: a migration stays as released.
            try db.execute(sql: "CREATE INDEX groups_by_order ON groups (occurrences DESC, first_run_id, fingerprint)")
            try db.create(index: "groups_on_first_run_id", on: "groups", columns: ["first_run_id"])
        }
        migrator.registerMigration("v20-event-details") { db in
            // Each event's whole JSON was a column of its row: 77 MB of an index of 170 MB for 24 long recordings
            // (86 MB of files), read only to show a report. It is one compressed blob per report now
            // (`EventDetailCodec`); the rows keep the fields that are queried. Rows written before move into blobs.
            try db.create(table: "event_details") { t in
                t.primaryKey("report_id", .text).references("reports", onDelete: .cascade)
                t.column("version", .integer).notNull()
                t.column("detail", .blob).notNull()
            }
            try moveEventDetails(db)
            try db.execute(sql: "ALTER TABLE timeline_events DROP COLUMN detail_json")
        }
        migrator.registerMigration("v21-row-ids-without-autoincrement") { db in
            // A run inserts tens of rows per report into these tables (19,439 frame rows, 7,063 image rows and 3,828
            // event rows over the benchmark's 1,000 inputs). With AUTOINCREMENT each insert also read and rewrote the
            // table's row of `sqlite_sequence`: 3.1 % of a run's instructions besides SHA-256. Nothing refers to these
            // rows' ids, so a deleted last row's id may be given again; the ids of the rows already stored are kept.
            // An index of those 1,000 inputs is rebuilt in 0.18 s.
            for table in ["timeline_events", "report_warnings", "crash_images", "crash_threads", "crash_frames"] {
                try rebuildWithoutAutoincrement(table, db)
            }
        }
        return migrator
    }

    /// Makes `table` again without `AUTOINCREMENT` on its `id`, with the same columns, rows (ids included) and indexes,
    /// as SQLite's documentation says to change a table's definition: a new table, the rows copied, the old one
    /// dropped, the new one renamed and the indexes made again (a unique key's index comes with the table). Nothing
    /// else may refer to the table (a foreign key, a trigger or a view), and the migrator runs this with foreign keys
    /// off.
    private static func rebuildWithoutAutoincrement(_ table: String, _ db: Database) throws {
        let name = table.quotedDatabaseIdentifier
        let rebuilt = "\(table)_rebuilt".quotedDatabaseIdentifier
        let prefix = "CREATE TABLE \(name) ("
        guard
            let definition = try String.fetchOne(
                db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [table]),
            definition.hasPrefix(prefix), definition.contains(#""id" INTEGER PRIMARY KEY AUTOINCREMENT"#)
        else {
            throw DatabaseError(message: "\(table) is not the table migration v21 expects")
        }
        let indexes = try String.fetchAll(
            db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL",
            arguments: [table])
        let columns = definition.dropFirst(prefix.count).replacingOccurrences(
            of: #""id" INTEGER PRIMARY KEY AUTOINCREMENT"#, with: #""id" INTEGER PRIMARY KEY"#)
        if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(name))") == true {
            try db.execute(sql: "CREATE TABLE \(rebuilt) (\(columns)")
            try db.execute(sql: "INSERT INTO \(rebuilt) SELECT * FROM \(name)")
            try db.execute(sql: "DROP TABLE \(name)")
            try db.execute(sql: "ALTER TABLE \(rebuilt) RENAME TO \(name)")
        } else {
            // A new index (or one without such rows): nothing to copy. Renaming makes SQLite read the whole schema
            // again: 42 million instructions for the five tables of a new index, what three inputs take in all.
            try db.execute(sql: "DROP TABLE \(name)")
            try db.execute(sql: "\(prefix)\(columns)")
        }
        // Dropping the table took its row of `sqlite_sequence` with it; the new one has none.
        for index in indexes { try db.execute(sql: index) }
    }

    /// Gathers each report's `timeline_events.detail_json`, in order, into its blob of `event_details` (migration
    /// `v20-event-details`). The texts move as they are: rows written before Casefile 0.9 hold an older form, which
    /// is read back as no event, as it was from the column.
    private static func moveEventDetails(_ db: Database) throws {
        let rows = try Row.fetchCursor(
            db, sql: "SELECT report_id, detail_json FROM timeline_events ORDER BY report_id, seq")
        var report: String?
        var text: [UInt8] = []
        func store() throws {
            guard let report else { return }
            try db.execute(
                sql: "INSERT INTO event_details (report_id, version, detail) VALUES (?, 1, ?)",
                arguments: [report, Data(try BlobCompression.compress(text))])
            text.removeAll(keepingCapacity: true)
        }
        while let row = try rows.next() {
            let id: String = row[0]
            if id != report {
                try store()
                report = id
            }
            // A line each, as `EventDetailCodec` writes them; a text JSON wrote holds no line break of its own.
            text += (row[1] as String? ?? "").utf8
            text.append(UInt8(ascii: "\n"))
        }
        try store()
    }
}
