import CasefileCore
import CasefileStore
import Foundation

/// An index that hands every call to a real one, for tests that look at what the runner asks and when: a subclass
/// overrides the calls it watches and calls `super`.
class ForwardingIndex: ReportIndex, @unchecked Sendable {
    let store: IndexStore

    init(store: IndexStore) {
        self.store = store
    }

    func record(_ input: IndexedInput, run: Int64) async throws -> IndexOutcome {
        try await store.record(input, run: run)
    }
    func record(
        inParts input: InputInParts, run: Int64, next: @escaping @Sendable () throws -> IndexedInput?,
        written: @escaping @Sendable (IndexedInput, IndexOutcome) throws -> Void
    ) async throws -> IndexOutcome {
        try await store.record(inParts: input, run: run, next: next, written: written)
    }
    func isKnown(inputSHA256: String) async throws -> Bool { try await store.isKnown(inputSHA256: inputSHA256) }
    func inputSignatures(paths: [String]) async throws -> [String: String] {
        try await store.inputSignatures(paths: paths)
    }
    func knownReports(_ ids: [String]) async throws -> Set<String> { try await store.knownReports(ids) }
    func settledReports(_ ids: [String]) async throws -> Set<String> { try await store.settledReports(ids) }
    func beginRun(pipeline: String, inbox: String, startedAt: Date) async throws -> Int64 {
        try await store.beginRun(pipeline: pipeline, inbox: inbox, startedAt: startedAt)
    }
    func runsKilled(before run: Int64) async throws -> Int { try await store.runsKilled(before: run) }
    func quarantine(_ input: InputRecord, error: InputError, run: Int64) async throws {
        try await store.quarantine(input, error: error, run: run)
    }
    func finishRun(_ run: Int64, summary: RunSummary, finishedAt: Date) async throws {
        try await store.finishRun(run, summary: summary, finishedAt: finishedAt)
    }
    func loadSymbolCache() async throws -> SymbolCache { try await store.loadSymbolCache() }
    func saveSymbolCache(_ cache: SymbolCache) async throws { try await store.saveSymbolCache(cache) }
    func loadDebugFiles() async throws -> [String: DebugFileIndex.KnownFile] { try await store.loadDebugFiles() }
    func saveDebugFiles(
        _ files: [String: DebugFileIndex.KnownFile], replacing known: [String: DebugFileIndex.KnownFile]
    ) async throws {
        try await store.saveDebugFiles(files, replacing: known)
    }
    func groupDigest(run: Int64, top: Int) async throws -> GroupDigest {
        try await store.groupDigest(run: run, top: top)
    }
    func groupDetail(id: Int64) async throws -> BugGroupDetail? { try store.groupDetail(id: id) }
}
