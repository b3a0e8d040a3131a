import CasefileCore
import Foundation
import GRDB
import Testing

@testable import CasefileStore

/// A year of nights leaves tens of thousands of groups, a few kilobytes each. Listing the top groups (`casefile groups`,
/// every run's digest) and finding the groups a run found read the groups they list through an index, not every group.
@Suite final class GroupListingPlanTests {
    private let temporary: TemporaryFolder
    var database: URL { temporary.url.appendingPathComponent("index.sqlite") }

    init() throws {
        temporary = try TemporaryFolder("casefile-group-plans")
    }

    /// SQLite's plan for `sql` run with `arguments`, one step a line, on a new index.
    func plan(_ sql: String, _ arguments: StatementArguments) async throws -> String {
        _ = try IndexStore(path: database.path)
        return try await DatabaseQueue(path: database.path).read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN \(sql)", arguments: arguments)
                .map { $0["detail"] as String }.joined(separator: "\n")
        }
    }

    @Test func theTopGroupsAreReadInTheOrderOfAnIndexWithoutASort() async throws {
        for sql in [IndexStore.topGroupsSQL, IndexStore.groupListSQL(where: "status != 'merged'") + " LIMIT ?"] {
            let plan = try await plan(sql, [50])
            #expect(plan.contains("USING INDEX groups_by_order"), "\(plan)")
            #expect(!plan.contains("TEMP B-TREE"), "\(plan)")
        }
    }

    @Test func aRunsNewGroupsAreFoundByTheRunThatFoundThem() async throws {
        let plan = try await plan(IndexStore.newGroupsSQL, [7, 7])
        #expect(plan.contains("SEARCH groups USING INDEX groups_on_first_run_id"), "\(plan)")
        #expect(!plan.contains("SCAN groups"), "\(plan)")
    }
}
