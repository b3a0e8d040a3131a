import CasefileCore
import CasefileStore
import Foundation
import Synchronization
import Testing

/// A run walks its inbox one input at a time and asks the index for the signatures recorded for a few hundred paths at
/// a time, instead of holding every path and signature of the inbox for the whole run.
@Suite final class InboxSignatureTests {
    private let temporary: TemporaryFolder
    var output: URL { temporary.url }

    init() throws {
        temporary = try TemporaryFolder("casefile-signatures")
    }

    @Test func asksForTheSignaturesOfEveryInputOnceInChunks() async throws {
        let inbox = output.appendingPathComponent("inbox")
        // 1,001 inputs in eleven folders: two chunks of 500 paths, then one of a single path. Each is a log line of
        // its own, so each is a new input.
        for number in 0..<1_001 {
            let folder = inbox.appendingPathComponent(String(format: "night-%02d", number / 100))
            if number % 100 == 0 {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            try Data("2026-12-03 04:00:00.000 checkout started \(number)\n".utf8).write(
                to: folder.appendingPathComponent(String(format: "app-%04d.log", number)))
        }
        let database = output.appendingPathComponent("index.sqlite")
        let definition = PipelineDefinition(inbox: inbox, output: output, database: database)
        let first = SignatureWatchingIndex(store: try IndexStore(path: database.path))
        let summary = try await PipelineRunner(definition: definition, logger: CapturedLog().logger)
            .run(index: first, pipelineName: "test.toml")
        #expect(summary.inputs == 1_001)
        #expect(summary.processed + summary.skipped + summary.quarantined.count == 1_001)
        let asked = first.asked.withLock { $0 }
        #expect(asked.map(\.count) == [500, 500, 1])
        // Every input's path once, in the order of the walk: night-00/app-0000.log first.
        let expected = try InboxScanner().paths(in: inbox)
        #expect(asked.flatMap { $0 } == expected)
        #expect(expected.first == inbox.path + "/night-00/app-0000.log")

        // Over the unchanged inbox, each input is passed over by its own path's signature: none is hashed and asked
        // about by its content.
        let second = SignatureWatchingIndex(store: try IndexStore(path: database.path))
        let again = try await PipelineRunner(definition: definition, logger: CapturedLog().logger)
            .run(index: second, pipelineName: "test.toml")
        #expect(again.inputs == 1_001)
        #expect(again.skipped == 1_001)
        #expect(second.contentQuestions.withLock { $0 } == 0)
        #expect(second.asked.withLock { $0.map(\.count) } == [500, 500, 1])
    }

    /// An output folder inside the inbox is not read as inputs: not by the next run, and not by the run writing it,
    /// whose walk reaches the folder after the summaries of the inputs before it are written.
    @Test func doesNotReadItsOwnOutputInItsInbox() async throws {
        let inbox = output.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        let sample = try String(
            contentsOf: Samples.repository.appendingPathComponent("SampleReports/Crashes/inapp-signal-sigsegv.txt"),
            encoding: .utf8)
        try sample.write(to: inbox.appendingPathComponent("a.txt"), atomically: true, encoding: .utf8)
        try sample.replacingOccurrences(of: "Device: iPhone12,8", with: "Device: iPhone14,2").write(
            to: inbox.appendingPathComponent("b.txt"), atomically: true, encoding: .utf8)
        // The output sorts between the two inputs (`a.txt`, `a.zz-out/`, `b.txt`), and the index lies in it.
        let own = inbox.appendingPathComponent("a.zz-out")
        try FileManager.default.createDirectory(at: own, withIntermediateDirectories: true)
        let definition = PipelineDefinition(
            inbox: inbox, output: own, database: own.appendingPathComponent("index.sqlite"))
        for night in 1...2 {
            let summary = try await PipelineRunner(definition: definition, logger: CapturedLog().logger)
                .run(index: try IndexStore(path: definition.database.path), pipelineName: "test.toml")
            #expect(summary.inputs == 2, "night \(night)")
            #expect(summary.quarantined.isEmpty, "night \(night)")
            #expect(summary.processed == (night == 1 ? 2 : 0), "night \(night)")
        }
        #expect(FileManager.default.fileExists(atPath: own.appendingPathComponent("digest.md").path))
    }
}

/// An index that notes the paths of each question about recorded signatures, and counts the questions about contents.
final class SignatureWatchingIndex: ForwardingIndex, @unchecked Sendable {
    let asked = Mutex<[[String]]>([])
    let contentQuestions = Mutex(0)

    override func inputSignatures(paths: [String]) async throws -> [String: String] {
        asked.withLock { $0.append(paths) }
        return try await super.inputSignatures(paths: paths)
    }

    override func isKnown(inputSHA256: String) async throws -> Bool {
        contentQuestions.withLock { $0 += 1 }
        return try await super.isKnown(inputSHA256: inputSHA256)
    }
}
