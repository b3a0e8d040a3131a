import CasefileCore
import GRDB

/// The triggers that keep `occurrence_counts` equal to counting `occurrences` by group and dimension as occurrences
/// are moved to another group or deleted; the index writer counts the occurrences it inserts (`OccurrenceTally`).
///
/// Migration `v13-occurrence-counts` created them from this text (and `v14-occurrence-counts-by-input` dropped the
/// insert trigger): a change to it is a new migration, never an edit that only new indexes would get.
enum OccurrenceCounts {
    /// The columns of `occurrences` counted, each a `dimension` of `occurrence_counts`.
    static let dimensions = ["app_version", "os_version", "device_model"]

    /// One count up for each non-null dimension of the row `row` (`NEW`).
    private static func add(_ row: String) -> String {
        let values = dimensions.map {
            "SELECT \(row).group_id AS group_id, '\($0)' AS dimension, \(row).\($0) AS value WHERE \(row).\($0) IS NOT NULL"
        }
        // Selected from a subquery with a WHERE of its own: SQLite would read `ON CONFLICT` after a FROM as a join.
        return """
            INSERT INTO occurrence_counts (group_id, dimension, value, n)
            SELECT group_id, dimension, value, 1 FROM (\(values.joined(separator: " UNION ALL "))) WHERE 1
            ON CONFLICT (group_id, dimension, value) DO UPDATE SET n = n + 1;
            """
    }

    /// One count down for each non-null dimension of the row `row` (`OLD`), and counts of zero removed.
    private static func remove(_ row: String) -> String {
        dimensions.map {
            """
            UPDATE occurrence_counts SET n = n - 1
            WHERE group_id = \(row).group_id AND dimension = '\($0)' AND value = \(row).\($0);
            """
        }.joined(separator: "\n")
            + "\nDELETE FROM occurrence_counts WHERE group_id = \(row).group_id AND n <= 0;"
    }

    /// The insert, delete and update triggers.
    static var triggers: String {
        """
        CREATE TRIGGER occurrence_counts_after_insert AFTER INSERT ON occurrences BEGIN
        \(add("NEW"))
        END;
        CREATE TRIGGER occurrence_counts_after_delete AFTER DELETE ON occurrences BEGIN
        \(remove("OLD"))
        END;
        CREATE TRIGGER occurrence_counts_after_update
        AFTER UPDATE OF group_id, \(dimensions.joined(separator: ", ")) ON occurrences BEGIN
        \(remove("OLD"))
        \(add("NEW"))
        END;
        """
    }
}

/// An input's occurrences counted by group, dimension and value, written to `occurrence_counts` by upserts of up to 16
/// counts each (``MultiRowInsert``) when the input's reports are all assigned.
///
/// Not a trigger on `occurrences`: a statement that fires one keeps a statement journal, and SQLite truncates an
/// in-memory journal by walking it from its start, so an input of many reports (each in the input's savepoint) cost
/// more per occurrence the more it held (assigning 100,000 reports in inputs of 1,000: 4.4 s without counts, 12.6 s
/// with the trigger).
struct OccurrenceTally {
    private struct Key: Hashable {
        var group: Int64
        var dimension: String
        var value: String
    }

    private var counts: [Key: Int] = [:]

    /// Counts `occurrence`, assigned to `group`, in each dimension it has a value for.
    mutating func add(_ occurrence: GroupWriter.Occurrence, group: Int64) {
        let values = [occurrence.appVersion?.description, occurrence.osVersion, occurrence.device]
        for (dimension, value) in zip(OccurrenceCounts.dimensions, values) {
            guard let value else { continue }
            counts[Key(group: group, dimension: dimension, value: value), default: 0] += 1
        }
    }

    /// Adds the counts to `occurrence_counts`.
    func write(_ db: Database) throws {
        guard !counts.isEmpty else { return }
        // Each key once: no two rows of one statement meet the same conflict.
        let entries = Array(counts)
        try Self.upsert.run(count: entries.count, in: db) { position, row in
            let (key, count) = entries[position]
            row.bind(key.group)
            row.bind(key.dimension)
            row.bind(key.value)
            row.bind(count)
        }
    }

    private static let upsert = MultiRowInsert(
        "INSERT INTO occurrence_counts (group_id, dimension, value, n) VALUES", row: "(?, ?, ?, ?)",
        tail: "ON CONFLICT (group_id, dimension, value) DO UPDATE SET n = n + excluded.n")
}
