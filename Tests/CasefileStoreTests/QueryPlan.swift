import GRDB

@testable import CasefileStore

/// SQLite's plan for a query of the index, one step a line (the `detail` column of `EXPLAIN QUERY PLAN`).
enum QueryPlan {
    /// The plan of `sql` run with `arguments` on the index at `path`, which is created when missing.
    static func of(_ sql: String, _ arguments: StatementArguments, index path: String) async throws -> String {
        _ = try IndexStore(path: path)
        return try await DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN \(sql)", arguments: arguments)
                .map { $0["detail"] as String }.joined(separator: "\n")
        }
    }
}
