import CasefileCore
import CasefileStore
import Foundation
import Testing

/// A group's last run is the latest run that counted an occurrence in it, however its occurrences arrive in that run:
/// the writer sets the column with the group's first occurrence of a run and leaves it alone for the rest.
@Suite final class GroupLastRunTests {
    private let temporary: TemporaryFolder

    init() throws {
        temporary = try TemporaryFolder("casefile-group-last-run")
    }

    /// The sample crash `name`, read as a run reads it, as a report with the id `id`: copies of one sample are
    /// distinct reports of one bug.
    private static func crash(_ name: String, id: String) throws -> Report {
        let path = Samples.folder.appendingPathComponent("Crashes").appendingPathComponent(name).path
        var report = try #require(try Triage().reports(at: path).reports.first)
        report.id = id
        return report
    }

    /// An input at `path` holding `reports`.
    private static func input(_ path: String, _ reports: [Report]) -> IndexedInput {
        IndexedInput(
            record: InputRecord(path: path, sha256: String(repeating: String(path.suffix(1)), count: 64), kind: "file"),
            reports: reports, notes: [], summaryPaths: [:])
    }

    @Test func aGroupSeenAgainMovesToTheLatestRunAndCountsEveryOccurrence() async throws {
        let store = try IndexStore(path: temporary.url.appendingPathComponent("index.sqlite").path)
        let cartTotal = "cart-total-iphone14-ios16.ips"
        let imageCache = "image-cache-iphone15-ios17.ips"

        // Run 1: one occurrence of each bug.
        let first = try await store.beginRun(pipeline: "test", inbox: "inbox", startedAt: Date())
        _ = try await store.record(Self.input("/inbox/1", [try Self.crash(cartTotal, id: "r1")]), run: first)
        _ = try await store.record(Self.input("/inbox/2", [try Self.crash(imageCache, id: "r2")]), run: first)
        try await store.finishRun(first, summary: RunSummary(runID: first), finishedAt: Date())

        // Run 2: the cart-total bug again, twice in one input, then once more in a second input, whose occurrence is
        // the run's second for the group.
        let second = try await store.beginRun(pipeline: "test", inbox: "inbox", startedAt: Date())
        let twice = [try Self.crash(cartTotal, id: "r3"), try Self.crash(cartTotal, id: "r4")]
        _ = try await store.record(Self.input("/inbox/3", twice), run: second)
        _ = try await store.record(Self.input("/inbox/4", [try Self.crash(cartTotal, id: "r5")]), run: second)
        try await store.finishRun(second, summary: RunSummary(runID: second), finishedAt: Date())

        let groups = try store.groups()
        #expect(groups.count == 2)
        let cart = try #require(groups.first { $0.occurrences == 4 })
        let image = try #require(groups.first { $0.occurrences == 1 })
        #expect(cart.firstRun == first)
        #expect(cart.lastRun == second)
        #expect(image.firstRun == first)
        #expect(image.lastRun == first)
        // Listing what a run saw reads the last run.
        #expect(try store.groups(sinceRun: second).map(\.id) == [cart.id])
        #expect(try store.groupCount(sinceRun: second) == 1)
        #expect(try store.groupCount(sinceRun: first) == 2)
        // Seen in a later run than the one that found it: no longer new.
        #expect(cart.status == .ongoing)
    }
}
