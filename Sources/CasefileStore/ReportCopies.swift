import CasefileCore
import GRDB

/// Which copy of a report the index keeps when several inputs of a run hold it.
///
/// A run's parallel tasks hand inputs to the index in the order they finish, so the first copy stored is not the first
/// by path, and two copies can differ: a truncated `.crash` and the complete `.ips` of one incident, keyed into
/// different groups. Until the run that stored a copy is done (that run, or the run that finishes a killed one's
/// work), a copy from another input replaces it when it is more complete (``CasefileCore/Report/completeness``), or as
/// complete and from an input whose path sorts first. The same inbox then keeps the same copies, in the same groups,
/// whatever order its inputs were indexed in. After that run a copy stays, as a group's title does.
enum ReportCopies {
    /// The copy of a report the index holds.
    struct Stored {
        /// Its ``CasefileCore/Report/completeness``; `nil` for a report stored before `v17`.
        var completeness: Int?
        /// The path of the input it was stored from.
        var input: String
        /// The run that stored it.
        var run: Int64
        /// Whether that run is still open.
        var runOpen: Bool

        /// Whether a copy of `completeness` from `input` replaces this one.
        func givesWay(toCompleteness other: Int, from otherInput: String) -> Bool {
            guard runOpen, let completeness else { return false }
            if other != completeness { return other > completeness }
            return otherInput < input
        }
    }

    /// The copy of report `id` the index holds, or `nil` when it holds none.
    static func stored(_ id: String, run: Int64, _ db: Database) throws -> Stored? {
        // Asked for every report the writer stores: read without GRDB's rows (``RowReader``).
        try db.cachedStatement(
            sql: """
                SELECT r.completeness, i.path, r.run_id,
                r.run_id = ?2 OR (SELECT \(Schema.killedRun) FROM runs WHERE runs.id = r.run_id) AS run_open
                FROM reports r JOIN inputs i ON i.id = r.input_id WHERE r.id = ?1
                """
        ).firstRow { row in
            row.bind(id)
            row.bind(run)
        } _: { row in
            // `inputs.path` and `reports.run_id` are NOT NULL; the completeness of a copy stored before v17 is NULL,
            // and so is `run_open` when its run is not found.
            Stored(
                completeness: row.int(0), input: row.text(1) ?? "", run: row.int64(2) ?? 0,
                runOpen: (row.int64(3) ?? 0) != 0)
        }
    }

    /// Deletes report `id` and every row of it, and takes its occurrences off their groups' counts; a group left
    /// without occurrences (one only this copy was in) is deleted. Returns the report's links to its inputs
    /// (`report_inputs`), which the caller writes again with the new copy, and the symbol coverage it was stored with.
    static func remove(
        _ id: String, _ db: Database
    ) throws -> (links: [(input: Int64, root: String)], coverage: SymbolCoverage?) {
        let coverage = try String.fetchOne(
            db.cachedStatement(sql: "SELECT symbol_coverage FROM reports WHERE id = ?"), arguments: [id]
        ).flatMap(SymbolCoverage.init(indexJSON:))
        let links = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT input_id, root FROM report_inputs WHERE report_id = ?"), arguments: [id]
        ).map { (input: $0[0] as Int64, root: $0[1] as String) }
        let groups = try Int64.fetchAll(
            db.cachedStatement(sql: "SELECT group_id FROM occurrences WHERE report_id = ?"), arguments: [id])
        for group in groups {
            try db.cachedStatement(sql: "UPDATE groups SET occurrences = occurrences - 1 WHERE id = ?")
                .execute(arguments: [group])
        }
        // The report's crashes, frames, images, events, warnings, chains, occurrences and links go with it; the
        // occurrences' counts by version and device follow through their trigger.
        try db.cachedStatement(sql: "DELETE FROM reports WHERE id = ?").execute(arguments: [id])
        for group in Set(groups) {
            try db.cachedStatement(
                sql: """
                    DELETE FROM groups WHERE id = ?1 AND occurrences = 0
                    AND NOT EXISTS (SELECT 1 FROM group_aliases WHERE group_id = ?1)
                    AND NOT EXISTS (SELECT 1 FROM groups WHERE merged_into = ?1)
                    """
            ).execute(arguments: [group])
        }
        return (links, coverage)
    }
}
