import CasefileCore
import CasefileStore
import Foundation
import Testing

/// A run's parallel tasks hand inputs to the index in the order they finish, so group and occurrence ids follow no
/// order a reader can rely on. What the index lists — groups, the digest's new and top groups, a group page's latest
/// occurrences — must be the same for the same inputs in any order.
@Suite final class GroupOrderTests {
    private let temporary: TemporaryFolder
    var output: URL { temporary.url }

    init() throws {
        temporary = try TemporaryFolder("casefile-group-order")
    }

    /// Every sample input read as a run reads it, by path.
    static func sampleInputs() throws -> [IndexedInput] {
        let samples = Samples.folder
        let triage = Triage()
        return try InboxScanner(ignore: ["*.md", "Symbols", "Hostile", "Malformed"]).scan(samples).map {
            url in
            let output = try triage.reports(at: url.path)
            return IndexedInput(
                record: InputRecord(path: url.path, sha256: try ContentHash.of(url), kind: "sample"),
                reports: output.reports, notes: output.notes,
                summaryPaths: Dictionary(uniqueKeysWithValues: output.reports.map { ($0.id, "reports/\($0.id).md") }))
        }
    }

    /// What the index lists after one run over `inputs`, in the order given, each group named by its fingerprint.
    struct Listing: Equatable {
        var groups: [String] = []
        var newGroups: [String] = []
        var top: [String] = []
        /// Each group's latest occurrences, by report id.
        var occurrences: [String: [String]] = [:]
        /// Each group's title.
        var titles: [String: String] = [:]
    }

    func listing(indexing inputs: [IndexedInput], into name: String) async throws -> Listing {
        let store = try IndexStore(path: output.appendingPathComponent(name).path)
        let run = try await store.beginRun(pipeline: "test", inbox: "inbox", startedAt: Date())
        for input in inputs {
            _ = try await store.record(input, run: run)
        }
        let digest = try await store.groupDigest(run: run, top: 1_000)
        try await store.finishRun(run, summary: RunSummary(runID: run), finishedAt: Date())
        let groups = try store.groups()
        let fingerprints = Dictionary(uniqueKeysWithValues: groups.map { ($0.id, $0.fingerprint) })
        var listing = Listing(
            groups: groups.map(\.fingerprint), newGroups: digest.newGroups.compactMap { fingerprints[$0] },
            top: digest.top.compactMap { fingerprints[$0] })
        for group in groups {
            listing.occurrences[group.fingerprint] = try store.groupDetail(id: group.id)?.reports.map(\.reportID)
            listing.titles[group.fingerprint] = group.title
        }
        return listing
    }

    @Test func listsGroupsAndOccurrencesAlikeWhateverOrderTheInputsAreIndexedIn() async throws {
        let inputs = try Self.sampleInputs()
        let forward = try await listing(indexing: inputs, into: "forward.sqlite")
        let backward = try await listing(indexing: inputs.reversed(), into: "backward.sqlite")

        // The samples hold what the orders could differ on: groups tied on their count, and groups of several reports.
        let groups = try IndexStore(path: output.appendingPathComponent("forward.sqlite").path).groups()
        #expect(groups.count > 20)
        #expect(zip(groups, groups.dropFirst()).contains { $0.occurrences == $1.occurrences })
        #expect(forward.occurrences.values.contains { Set($0).count > 1 })
        #expect(forward.newGroups.count == groups.count)

        #expect(forward.groups == backward.groups)
        #expect(forward.newGroups == backward.newGroups)
        #expect(forward.top == backward.top)
        #expect(forward.occurrences == backward.occurrences)
        #expect(forward.titles == backward.titles)
        // Most occurrences first.
        #expect(groups.map(\.occurrences) == groups.map(\.occurrences).sorted(by: >))
    }
}
