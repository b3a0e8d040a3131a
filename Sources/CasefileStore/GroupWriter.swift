import CasefileCore
import Foundation
import GRDB

/// Assigns a new report's crashes and failures to groups: finds the group by fingerprint (or by the alias a merge
/// left), creates it when new, counts the occurrence, stores every resolution's key, and moves the status —
/// resolved groups seen again in a newer app version regress.
enum GroupWriter {
    /// One thing to count: a crash or a failed request of a report.
    struct Occurrence {
        var source: String
        var seq: Int
        var fingerprint: Fingerprint
        var appVersion: AppVersion?
        var osVersion: String?
        var device: String?
    }

    /// The occurrences of a report.
    static func occurrences(of report: Report) -> [Occurrence] {
        var result: [Occurrence] = []
        for (seq, crash) in report.crashes.enumerated() {
            guard let grouping = crash.grouping else { continue }
            let version = (crash.app.version ?? report.app?.version).map {
                AppVersion(version: $0, build: crash.app.build ?? report.app?.build)
            }
            result.append(
                Occurrence(
                    source: "crash", seq: seq, fingerprint: grouping, appVersion: version,
                    osVersion: crash.os.version ?? report.device?.systemVersion,
                    device: crash.deviceModel ?? report.device?.model))
        }
        for failure in report.failures {
            let version = report.app?.version.map { AppVersion(version: $0, build: report.app?.build) }
            result.append(
                Occurrence(
                    source: "failure", seq: failure.event, fingerprint: failure.grouping, appVersion: version,
                    osVersion: report.device?.systemVersion, device: report.device?.model))
        }
        return result
    }

    /// Counts every occurrence of `report`, read from `input`, in its group, creating groups as needed, and adds
    /// them to `tally`, which the caller writes once for the whole input; returns the group ids.
    ///
    /// The group row is read and written once for the occurrences of one fingerprint and app version, counting them
    /// all: after the first, each of them found the group as it left it (status, title and alias alike), so it gives
    /// the same row as one write each. A long recording's thousand failures of one endpoint are one update, not a
    /// thousand.
    @discardableResult
    static func assign(
        _ report: Report, input: String, run: Int64, at date: DatabaseValue, tally: inout OccurrenceTally,
        _ db: Database
    ) throws -> [Int64] {
        let occurrences = occurrences(of: report)
        var groups: [CountKey: Int64] = [:]
        var counts: [CountKey: Int] = [:]
        for occurrence in occurrences {
            counts[CountKey(occurrence), default: 0] += 1
        }
        return try occurrences.map { occurrence in
            let key = CountKey(occurrence)
            let group: Int64
            if let known = groups[key] {
                group = known
            } else {
                group = try assign(occurrence, count: counts[key] ?? 1, input: input, run: run, at: date, db)
                groups[key] = group
            }
            try insert(occurrence, group: group, report: report.id, run: run, db)
            tally.add(occurrence, group: group)
            return group
        }
    }

    /// What makes occurrences of a report count in their group's row alike.
    private struct CountKey: Hashable {
        var fingerprint: String
        var appVersion: AppVersion?

        init(_ occurrence: Occurrence) {
            fingerprint = occurrence.fingerprint.key
            appVersion = occurrence.appVersion
        }
    }

    /// Counts `count` occurrences like `occurrence` in their group, creating it as needed; returns its id. A group's
    /// title (and the record of how it was keyed) is its occurrence's from the input that sorts first by path among
    /// those indexed until the run that found the group is done: the same inbox gives the same titles however the
    /// parallel tasks finish and however often a run is killed. After that run the title stays.
    private static func assign(
        _ occurrence: Occurrence, count: Int, input: String, run: Int64, at date: DatabaseValue, _ db: Database
    ) throws -> Int64 {
        let fingerprint = occurrence.fingerprint
        let groupID: Int64
        if let existing = try ExistingGroup.find(fingerprint.key, db) {
            groupID = existing.id
            let firstRunOpen = existing.firstRun == run || !(existing.firstRunDone ?? true)
            // Only an occurrence of the group's own fingerprint, not one a merge's alias brought in.
            if firstRunOpen, let titleInput = existing.titleInput, input < titleInput,
                existing.fingerprint == fingerprint.key
            {
                let explanation = IndexJSON.text(fingerprint)
                try db.cachedStatement(
                    sql: "UPDATE groups SET title = ?, explanation_json = ?, title_input = ? WHERE id = ?"
                ).insert { row in
                    row.bind(fingerprint.title)
                    row.bind(explanation)
                    row.bind(input)
                    row.bind(groupID)
                }
            }
            var status = existing.status
            var regressedIn: String?
            if status == BugGroup.Status.resolved.rawValue,
                isRegression(
                    occurrence.appVersion, fixedIn: existing.resolvedInVersion,
                    newestWhenResolved: existing.resolvedMaxVersion)
            {
                status = BugGroup.Status.regressed.rawValue
                regressedIn = occurrence.appVersion?.description ?? "an unknown version"
            } else if status == BugGroup.Status.new.rawValue, existing.firstRun != run, existing.firstRunDone ?? true {
                // New until the run that found it is done (a killed run's groups stay new for the run that
                // finishes its work).
                status = BugGroup.Status.ongoing.rawValue
            }
            // The group's first occurrence in this run sets its last run; the run's later ones leave that column
            // alone, so their statement keeps no statement journal (``countingSQL(settingLastRun:)``).
            let settingLastRun = existing.lastRun != run
            try db.cachedStatement(sql: settingLastRun ? countingSettingLastRun : countingOnly).insert { row in
                row.bind(count)
                row.bind(date)
                if settingLastRun { row.bind(run) }
                row.bind(status)
                row.bind(regressedIn)
                row.bind(regressedIn)
                row.bind(run)
                row.bind(groupID)
            }
        } else {
            let explanation = IndexJSON.text(fingerprint)
            try db.cachedStatement(
                sql: """
                    INSERT INTO groups (fingerprint, kind, resolution, title, status, occurrences, first_seen, last_seen,
                    first_run_id, last_run_id, rules_version, explanation_json, title_input)
                    VALUES (?, ?, ?, ?, 'new', ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            ).insert { row in
                row.bind(fingerprint.key)
                row.bind(fingerprint.kind.rawValue)
                row.bind(fingerprint.resolution.rawValue)
                row.bind(fingerprint.title)
                row.bind(count)
                row.bind(date)
                row.bind(date)
                row.bind(run)
                row.bind(run)
                row.bind(fingerprint.rulesVersion)
                row.bind(explanation)
                row.bind(input)
            }
            groupID = db.lastInsertedRowID
        }
        return groupID
    }

    /// Counts occurrences in a group: their number, the last time and run it was seen, its status and regression.
    ///
    /// Setting `last_run_id`, a foreign key, makes SQLite check the key in a way that may fail after the row is
    /// changed, so the statement keeps a statement journal; ending it walks that journal, which grows with each report
    /// of the input (``MultiRowInsert/reportsWithSeveralPerStatement``). Without the column the statement changes one
    /// row by its id and keeps none: it is the statement for a group already seen in the run.
    private static func countingSQL(settingLastRun: Bool) -> String {
        """
        UPDATE groups SET occurrences = occurrences + ?, last_seen = ?,\(settingLastRun ? " last_run_id = ?," : "") \
        status = ?, regressed_in_version = COALESCE(?, regressed_in_version),
        regressed_run_id = CASE WHEN ? IS NULL THEN regressed_run_id ELSE ? END
        WHERE id = ?
        """
    }

    private static let countingSettingLastRun = countingSQL(settingLastRun: true)
    private static let countingOnly = countingSQL(settingLastRun: false)

    /// The row of the group a fingerprint is counted in: its own, or the one a merge left an alias to.
    private struct ExistingGroup {
        var id: Int64
        var fingerprint: String
        var status: String
        var resolvedInVersion: String?
        var resolvedMaxVersion: String?
        var firstRun: Int64
        var lastRun: Int64
        var titleInput: String?
        /// Whether the run that found the group finished (or a later run finished its work); `nil` when that run is
        /// not in the index.
        var firstRunDone: Bool?

        /// The group `fingerprint` is counted in, or `nil` when there is none yet. Asked for every new report's
        /// fingerprints: read without GRDB's rows (``RowReader``).
        static func find(_ fingerprint: String, _ db: Database) throws -> ExistingGroup? {
            try db.cachedStatement(
                sql: """
                    SELECT id, fingerprint, status, resolved_in_version, resolved_max_version, first_run_id, title_input,
                    (SELECT NOT \(Schema.killedRun) FROM runs WHERE runs.id = first_run_id) AS first_run_done,
                    last_run_id FROM groups
                    WHERE id = COALESCE((SELECT group_id FROM group_aliases WHERE fingerprint = ?1),
                                        (SELECT id FROM groups WHERE fingerprint = ?1))
                    """
            ).firstRow {
                $0.bind(fingerprint)
            } _: { row in
                // id, fingerprint, status, first_run_id and last_run_id are NOT NULL.
                ExistingGroup(
                    id: row.int64(0) ?? 0, fingerprint: row.text(1) ?? "", status: row.text(2) ?? "",
                    resolvedInVersion: row.text(3), resolvedMaxVersion: row.text(4), firstRun: row.int64(5) ?? 0,
                    lastRun: row.int64(8) ?? 0, titleInput: row.text(6), firstRunDone: row.int64(7).map { $0 != 0 })
            }
        }
    }

    /// Stores one occurrence's row.
    private static func insert(
        _ occurrence: Occurrence, group: Int64, report: String, run: Int64, _ db: Database
    ) throws {
        let fingerprint = occurrence.fingerprint
        try db.cachedStatement(sql: insertOccurrence).insert { row in
            row.bind(group)
            row.bind(report)
            row.bind(occurrence.source)
            row.bind(occurrence.seq)
            row.bind(run)
            row.bind(fingerprint.key)
            row.bind(fingerprint.rulesVersion)
            row.bind(occurrence.appVersion?.description)
            row.bind(occurrence.osVersion)
            row.bind(occurrence.device)
            for resolution in Fingerprint.Resolution.allCases {
                row.bind(fingerprint.keys[resolution.rawValue])
            }
        }
    }

    private static let insertOccurrence = """
        INSERT INTO occurrences (group_id, report_id, source, seq, run_id, fingerprint, rules_version, app_version,
        os_version, device_model, \(Fingerprint.Resolution.allCases.map { "key_\($0.rawValue)" }.joined(separator: ", ")))
        VALUES (\(Schema.parameters(10 + Fingerprint.Resolution.allCases.count)))
        """

    /// Seen again after being resolved: in the fixed version or later when one was given, else in a version newer
    /// than any seen before the resolve. An occurrence with no version (a recording) counts as a regression.
    static func isRegression(_ version: AppVersion?, fixedIn: String?, newestWhenResolved: String?) -> Bool {
        guard let version else { return true }
        if let fixed = fixedIn.flatMap(AppVersion.init(text:)) {
            return version >= fixed
        }
        guard let newest = newestWhenResolved.flatMap(AppVersion.init(text:)) else { return true }
        return version > newest
    }
}
