public import CasefileCore
public import Foundation
import GRDB

extension IndexStore {
    private static let decoder = JSONDecoder()

    static func group(_ row: Row) -> BugGroup {
        var group = BugGroup(
            id: row["id"], fingerprint: row["fingerprint"],
            kind: Fingerprint.Kind(rawValue: row["kind"]) ?? .crash, title: row["title"],
            status: BugGroup.Status(rawValue: row["status"]) ?? .ongoing, occurrences: row["occurrences"],
            firstSeen: row["first_seen"], lastSeen: row["last_seen"], firstRun: row["first_run_id"],
            lastRun: row["last_run_id"])
        group.resolvedInVersion = row["resolved_in_version"]
        group.regressedInVersion = row["regressed_in_version"]
        group.mergedInto = row["merged_into"]
        if let json: String = row["explanation_json"] {
            group.explanation =
                Fingerprint.fromIndexJSON(json) ?? (try? decoder.decode(Fingerprint.self, from: Data(json.utf8)))
        }
        return group
    }

    /// Groups, most occurrences first, then by the run that found them and their fingerprint (the Schema article says
    /// why not by id); `status`, `sinceRun` and `seenSince` narrow the list, and `limit` keeps the first that many.
    /// Merged groups are left out unless `status` asks for them.
    public func groups(
        status: BugGroup.Status? = nil, sinceRun: Int64? = nil, seenSince: Date? = nil, limit: Int? = nil
    ) throws -> [BugGroup] {
        try queue.read { db in
            var (sql, arguments) = Self.groupFilter(status: status, sinceRun: sinceRun, seenSince: seenSince)
            sql = Self.groupListSQL(where: sql)
            if let limit {
                sql += " LIMIT ?"
                arguments += [max(limit, 0)]
            }
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map(Self.group)
        }
    }

    /// The groups that meet `condition`, in the listing's order (``Schema/groupOrder``, which the index
    /// `groups_by_order` holds).
    static func groupListSQL(where condition: String) -> String {
        "SELECT * FROM groups WHERE \(condition) ORDER BY \(Schema.groupOrder)"
    }

    /// How many groups ``groups(status:sinceRun:seenSince:limit:)`` lists without a limit.
    public func groupCount(status: BugGroup.Status? = nil, sinceRun: Int64? = nil, seenSince: Date? = nil) throws
        -> Int
    {
        try queue.read { db in
            let (sql, arguments) = Self.groupFilter(status: status, sinceRun: sinceRun, seenSince: seenSince)
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM groups WHERE " + sql, arguments: arguments) ?? 0
        }
    }

    /// The `WHERE` condition of a group listing, and its arguments.
    private static func groupFilter(status: BugGroup.Status?, sinceRun: Int64?, seenSince: Date?) -> (
        String, StatementArguments
    ) {
        var sql = "status != 'merged'"
        var arguments: StatementArguments = []
        if let status {
            sql = "status = ?"
            arguments = [status.rawValue]
        }
        if let sinceRun {
            sql += " AND last_run_id >= ?"
            arguments += [sinceRun]
        }
        if let seenSince {
            sql += " AND last_seen >= ?"
            arguments += [seenSince]
        }
        return (sql, arguments)
    }

    /// The ids of the groups whose fingerprint, or a fingerprint merged into them, lies in a ``HexPrefix``'s range
    /// (its two bounds): a merged group's fingerprint names the group it was merged into.
    static let groupPrefixSQL = """
        SELECT COALESCE(merged_into, id) FROM groups WHERE fingerprint >= ?1 AND fingerprint < ?2
        UNION SELECT group_id FROM group_aliases WHERE fingerprint >= ?1 AND fingerprint < ?2
        """

    /// The group a reference names: its id, its fingerprint, a fingerprint merged into it, or an unambiguous prefix
    /// of at least 6 hex digits of one; `nil` when none or several match.
    public func group(named reference: String) throws -> BugGroup? {
        try queue.read { db in
            if let id = Int64(reference), reference.count < 6,
                let row = try Row.fetchOne(db, sql: "SELECT * FROM groups WHERE id = ?", arguments: [id])
            {
                return Self.group(row)
            }
            guard let range = HexPrefix(reference) else { return nil }
            let ids = try Int64.fetchAll(db, sql: Self.groupPrefixSQL, arguments: [range.lower, range.upper])
            guard ids.count == 1,
                let row = try Row.fetchOne(db, sql: "SELECT * FROM groups WHERE id = ?", arguments: [ids[0]])
            else { return nil }
            return Self.group(row)
        }
    }

    /// A group with its versions, devices, reports and aliases.
    public func groupDetail(id: Int64) throws -> BugGroupDetail? {
        // Not through `read`: on a database queue that sets and clears `PRAGMA query_only`, which expires every
        // prepared statement, so each of a run's group pages compiled its six statements again. The body only reads.
        try queue.unsafeRead { db in try Self.detail(id: id, db) }
    }

    static func detail(id: Int64, _ db: Database) throws -> BugGroupDetail? {
        // Cached statements: a run's group pages ask this of every group it touched, six statements each.
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM groups WHERE id = ?"), arguments: [id])
        else {
            return nil
        }
        // Kept as occurrences are written, moved and deleted (`OccurrenceCounts.swift`): reading them costs the
        // number of distinct values, not of occurrences.
        func counts(_ dimension: String) throws -> [BugGroupDetail.Count] {
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT value, n FROM occurrence_counts WHERE group_id = ? AND dimension = ? AND n > 0
                        ORDER BY n DESC, value
                        """), arguments: [id, dimension]
            ).map { BugGroupDetail.Count(value: $0["value"], count: $0["n"]) }
        }
        let reports = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT o.report_id, o.app_version, o.os_version, o.device_model, o.run_id, r.summary_path, r.format
                    FROM occurrences o JOIN reports r ON r.id = o.report_id WHERE o.group_id = ?
                    ORDER BY \(Schema.occurrenceOrder) LIMIT 50
                    """), arguments: [id]
        ).map { row in
            BugGroupDetail.Occurrence(
                reportID: row["report_id"], summaryPath: row["summary_path"], appVersion: row["app_version"],
                osVersion: row["os_version"], device: row["device_model"], format: row["format"], run: row["run_id"])
        }
        let aliases = try String.fetchAll(
            db.cachedStatement(sql: "SELECT fingerprint FROM group_aliases WHERE group_id = ? ORDER BY fingerprint"),
            arguments: [id])
        return BugGroupDetail(
            group: group(row), appVersionCounts: try counts("app_version"), osVersions: try counts("os_version"),
            devices: try counts("device_model"), reports: reports, aliases: aliases)
    }

    /// Marks a group resolved; an occurrence in `version` or later (or, without one, in a version newer than any
    /// seen so far) will make it regress.
    public func resolve(groupID: Int64, inVersion version: String?, at date: Date = Date()) throws {
        try writeNow { db in
            let versions = try String.fetchAll(
                db, sql: "SELECT DISTINCT app_version FROM occurrences WHERE group_id = ? AND app_version IS NOT NULL",
                arguments: [groupID])
            let newest = versions.compactMap(AppVersion.init(text:)).max()?.description
            try db.execute(
                sql: """
                    UPDATE groups SET status = 'resolved', resolved_at = ?, resolved_in_version = ?,
                    resolved_max_version = ?, regressed_in_version = NULL, regressed_run_id = NULL WHERE id = ?
                    """, arguments: [date, version, newest, groupID])
        }
    }

    /// Merges group `source` into `target`: its occurrences move, its fingerprints (and those merged into it)
    /// become aliases of `target`, so future reports with them land in `target` too.
    public func merge(_ source: Int64, into target: Int64) throws {
        guard source != target else { return }
        try writeNow { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO group_aliases (fingerprint, group_id)
                    SELECT fingerprint, ? FROM groups WHERE id = ?
                    """, arguments: [target, source])
            try db.execute(
                sql: "UPDATE group_aliases SET group_id = ? WHERE group_id = ?", arguments: [target, source])
            try db.execute(sql: "UPDATE occurrences SET group_id = ? WHERE group_id = ?", arguments: [target, source])
            try db.execute(
                sql: """
                    UPDATE groups SET
                    occurrences = (SELECT COUNT(*) FROM occurrences WHERE group_id = ?1),
                    first_seen = MIN(first_seen, (SELECT first_seen FROM groups WHERE id = ?2)),
                    last_seen = MAX(last_seen, (SELECT last_seen FROM groups WHERE id = ?2)),
                    first_run_id = MIN(first_run_id, (SELECT first_run_id FROM groups WHERE id = ?2)),
                    last_run_id = MAX(last_run_id, (SELECT last_run_id FROM groups WHERE id = ?2))
                    WHERE id = ?1
                    """, arguments: [target, source])
            try db.execute(
                sql: "UPDATE groups SET status = 'merged', merged_into = ?, occurrences = 0 WHERE id = ?",
                arguments: [target, source])
        }
    }

    /// What regrouping every occurrence at another resolution would do: which groups would merge into one key,
    /// and which would split over several.
    public func regroupPreview(_ resolution: Fingerprint.Resolution) throws -> RegroupPreview {
        try queue.read { db in
            let column = "key_\(resolution.rawValue)"
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT \(column) AS key, group_id, COUNT(*) AS n FROM occurrences WHERE \(column) IS NOT NULL
                    GROUP BY \(column), group_id ORDER BY \(column), group_id
                    """)
            var byKey: [String: [(Int64, Int)]] = [:]
            var byGroup: [Int64: [(String, Int)]] = [:]
            for row in rows {
                let key: String = row["key"]
                let group: Int64 = row["group_id"]
                let count: Int = row["n"]
                byKey[key, default: []].append((group, count))
                byGroup[group, default: []].append((key, count))
            }
            let unkeyed =
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM occurrences WHERE \(column) IS NULL") ?? 0
            let titles = Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT id, fingerprint, title FROM groups").map {
                    ($0["id"] as Int64, ($0["fingerprint"] as String, $0["title"] as String))
                })
            func ref(_ id: Int64) -> RegroupPreview.GroupRef {
                RegroupPreview.GroupRef(id: id, fingerprint: titles[id]?.0 ?? "", title: titles[id]?.1 ?? "")
            }
            let merges = byKey.filter { $0.value.count > 1 }.sorted { $0.key < $1.key }.map { key, groups in
                RegroupPreview.Merge(
                    key: key, groups: groups.map { ref($0.0) }, occurrences: groups.map(\.1).reduce(0, +))
            }
            let splits = byGroup.filter { $0.value.count > 1 }.sorted { $0.key < $1.key }.map { group, keys in
                RegroupPreview.Split(
                    group: ref(group), keys: keys.map { RegroupPreview.KeyCount(key: $0.0, count: $0.1) })
            }
            return RegroupPreview(
                resolution: resolution, groupsNow: byGroup.count, groupsAfter: byKey.count, merges: merges,
                splits: splits, unkeyedOccurrences: unkeyed)
        }
    }

    /// A run's digest's runs: the run (the first argument) and the killed runs it finishes the work of (the second,
    /// the same run).
    private static let digestRuns = "(SELECT id FROM runs WHERE id = ? OR (\(Schema.killedRun) AND id < ?))"

    /// The groups a run (its two arguments, as ``digestRuns``) found, in the listing's order: found through the index
    /// `groups_on_first_run_id`, not by reading every group.
    static let newGroupsSQL = """
        SELECT id FROM groups WHERE first_run_id IN \(digestRuns) AND status != 'merged'
        ORDER BY \(Schema.groupOrder)
        """

    /// The first groups of the listing (as many as the argument), read in the order of the index `groups_by_order`.
    static let topGroupsSQL = "SELECT id FROM groups WHERE status != 'merged' ORDER BY \(Schema.groupOrder) LIMIT ?"

    /// The groups a run touched, for the digest and the group pages: new in it, regressed in it, and the top groups.
    public func groupDigest(run: Int64, top: Int = 10) async throws -> GroupDigest {
        try await queue.read { db in
            func details(_ sql: String, _ arguments: StatementArguments) throws -> [BugGroupDetail] {
                try Int64.fetchAll(db, sql: sql, arguments: arguments).compactMap { try Self.detail(id: $0, db) }
            }
            let runs = Self.digestRuns
            let newGroups = try Int64.fetchAll(db, sql: Self.newGroupsSQL, arguments: [run, run])
            let regressed = try Int64.fetchAll(
                db,
                sql: """
                    SELECT id FROM groups WHERE regressed_run_id IN \(runs) AND status = 'regressed'
                    ORDER BY \(Schema.groupOrder)
                    """,
                arguments: [run, run])
            // An occurrence counted through a merged fingerprint carries the group it was merged into, so the
            // groups touched are exactly the groups of this run's occurrences.
            let runCounts = Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(
                    db,
                    sql: "SELECT group_id, COUNT(*) AS n FROM occurrences WHERE run_id IN \(runs) GROUP BY group_id",
                    arguments: [run, run]
                ).map { ($0["group_id"] as Int64, $0["n"] as Int) })
            let touched = runCounts.keys.sorted()
            let top = try details(Self.topGroupsSQL, [top])
            var all: [Int64: BugGroupDetail] = [:]
            for detail in top { all[detail.group.id] = detail }
            // Only what the digest lists: the details of thousands of touched groups would not fit a bounded run.
            for id in newGroups.prefix(GroupDigest.listed) + regressed.prefix(GroupDigest.listed) where all[id] == nil {
                all[id] = try Self.detail(id: id, db)
            }
            return GroupDigest(
                groups: all, newGroups: newGroups, regressed: regressed, top: top.map(\.group.id), touched: touched,
                occurrencesThisRun: runCounts)
        }
    }
}

/// What `casefile groups --regroup RESOLUTION` shows before a rule change is adopted.
public struct RegroupPreview: Sendable, Hashable, Encodable {
    /// A group named in the preview.
    public struct GroupRef: Sendable, Hashable, Encodable {
        /// The row id.
        public var id: Int64
        /// The group's fingerprint.
        public var fingerprint: String
        /// The group's title.
        public var title: String
    }

    /// A key that several groups would share.
    public struct Merge: Sendable, Hashable, Encodable {
        /// The key at the new resolution.
        public var key: String
        /// The groups that would become one.
        public var groups: [GroupRef]
        /// Their occurrences together.
        public var occurrences: Int
    }

    /// A key and how many occurrences have it.
    public struct KeyCount: Sendable, Hashable, Encodable {
        /// The key.
        public var key: String
        /// The occurrences.
        public var count: Int
    }

    /// A group whose occurrences would spread over several keys.
    public struct Split: Sendable, Hashable, Encodable {
        /// The group.
        public var group: GroupRef
        /// The keys it would split into.
        public var keys: [KeyCount]
    }

    /// The resolution previewed.
    public var resolution: Fingerprint.Resolution
    /// Groups holding occurrences now.
    public var groupsNow: Int
    /// Groups there would be.
    public var groupsAfter: Int
    /// Groups that would merge.
    public var merges: [Merge]
    /// Groups that would split.
    public var splits: [Split]
    /// Occurrences with no key at that resolution (no in-app frame for `top1`): they would keep their group.
    public var unkeyedOccurrences: Int
}
