import CasefileCore
import Foundation
import GRDB
import Testing

@testable import CasefileStore

/// What a triager and every run look up is found through the index's indexes, not by reading every report or group:
/// a year of nightly runs holds millions of reports and tens of thousands of groups.
///
/// `casefile show`, `resolve` and `merge-groups` name a report or a group by the first hex digits of its id or
/// fingerprint; `casefile groups` and every run's digest list the top groups and the groups a run found.
@Suite final class IndexLookupTests {
    private let temporary: TemporaryFolder
    var database: URL { temporary.url.appendingPathComponent("index.sqlite") }

    init() throws {
        temporary = try TemporaryFolder("casefile-lookups")
    }

    /// Report ids on either side of the bounds of their prefixes' ranges: the digit after `9` is `a`, and nothing
    /// comes between `…cf` and `…d0`.
    static let ids = [
        "a1b2c39" + String(repeating: "0", count: 57),
        "a1b2c3a" + String(repeating: "0", count: 57),
        "a1b2cf" + String(repeating: "1", count: 58),
        "a1b2d0" + String(repeating: "2", count: 58),
    ]

    /// An index holding one input with a report of each id in ``ids``.
    func indexWithReports() async throws -> IndexStore {
        let reports = Self.ids.map {
            Report(id: $0, format: .inAppException, source: ReportSource(input: "inbox/reports.zip", root: $0))
        }
        return try await index(
            IndexedInput(
                record: InputRecord(
                    path: "inbox/reports.zip", sha256: String(repeating: "e", count: 64), kind: "archive"),
                reports: reports, notes: [], summaryPaths: [:]))
    }

    /// A new index holding `input`, from one run.
    func index(_ input: IndexedInput) async throws -> IndexStore {
        let store = try IndexStore(path: database.path)
        let run = try await store.beginRun(pipeline: "test", inbox: "inbox", startedAt: Date())
        _ = try await store.record(input, run: run)
        try await store.finishRun(run, summary: RunSummary(runID: run), finishedAt: Date())
        return store
    }

    @Test func aPrefixFindsTheOneReportItStarts() async throws {
        let store = try await indexWithReports()
        #expect(try store.report(named: "a1b2c39")?.id == Self.ids[0])
        #expect(try store.report(named: "a1b2c3a")?.id == Self.ids[1])
        #expect(try store.report(named: "a1b2cf")?.id == Self.ids[2])
        #expect(try store.report(named: "a1b2d0")?.id == Self.ids[3])
        #expect(try store.report(named: Self.ids[1])?.id == Self.ids[1])
        // Ids are lowercase; a reference is read in either case.
        #expect(try store.report(named: "A1B2C3A")?.id == Self.ids[1])
    }

    @Test func anAmbiguousShortOrNonHexReferenceFindsNoReport() async throws {
        let store = try await indexWithReports()
        // Both a1b2c39… and a1b2c3a… start with it.
        #expect(try store.report(named: "a1b2c3") == nil)
        #expect(try store.report(named: "a1b2c") == nil)
        #expect(try store.report(named: "a1b2c4") == nil)
        // Not wildcards: as a LIKE pattern each would have matched a1b2c39… alone.
        #expect(try store.report(named: "a1b2c_9") == nil)
        #expect(try store.report(named: "a1b2c%9") == nil)
        #expect(try store.report(named: "a1b2cg") == nil)
    }

    @Test func aGroupIsFoundByAPrefixOfItsFingerprintOnly() async throws {
        // `cart-total-iphone11-ios15.crash`: one crash, so one group.
        let store = try await index(ReportCopiesTests.input(ReportCopiesTests.complete, at: "inbox/cart.crash"))
        let groups = try store.groups()
        #expect(groups.count == 1)
        let fingerprint = try #require(groups.first).fingerprint
        #expect(try store.group(named: String(fingerprint.prefix(6)))?.fingerprint == fingerprint)
        #expect(try store.group(named: fingerprint.uppercased())?.fingerprint == fingerprint)
        // LIKE's wildcards: for one character in place of the sixth digit, and for any text after the fifth. As
        // patterns, both matched the group.
        #expect(try store.group(named: fingerprint.prefix(5) + "_" + fingerprint.dropFirst(6).prefix(2)) == nil)
        #expect(try store.group(named: "\(fingerprint.prefix(5))%") == nil)
    }

    @Test func lookupsByPrefixSearchTheIndexesInsteadOfScanningTheTables() async throws {
        _ = try await indexWithReports()
        var plans: [String] = []
        for sql in [IndexStore.reportsSQL(where: IndexStore.reportPrefixCondition), IndexStore.groupPrefixSQL] {
            plans.append(try await QueryPlan.of(sql, ["a1b2c3", "a1b2c4"], index: database.path))
        }
        // Each table the query reads is searched, none scanned (`SCAN reports`, `SCAN groups`).
        for plan in plans { #expect(!plan.contains("SCAN"), "\(plan)") }
        #expect(plans[0].contains("SEARCH r USING INDEX"))
        #expect(plans[1].contains("SEARCH groups USING INDEX"))
        #expect(plans[1].contains("SEARCH group_aliases USING INDEX"))
    }

    @Test func theTopGroupsAreReadInTheOrderOfAnIndexWithoutASort() async throws {
        for sql in [IndexStore.topGroupsSQL, IndexStore.groupListSQL(where: "status != 'merged'") + " LIMIT ?"] {
            let plan = try await QueryPlan.of(sql, [50], index: database.path)
            #expect(plan.contains("USING INDEX groups_by_order"), "\(plan)")
            #expect(!plan.contains("TEMP B-TREE"), "\(plan)")
        }
    }

    @Test func aRunsNewGroupsAreFoundByTheRunThatFoundThem() async throws {
        let plan = try await QueryPlan.of(IndexStore.newGroupsSQL, [7, 7], index: database.path)
        #expect(plan.contains("SEARCH groups USING INDEX groups_on_first_run_id"), "\(plan)")
        #expect(!plan.contains("SCAN groups"), "\(plan)")
    }
}
