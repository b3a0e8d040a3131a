import CasefileCore
import CasefileStore
import Foundation
import Synchronization
import Testing

/// The nightly run holds no more inputs at once than its budget of bytes in flight (`[limits] max_bytes_in_flight`)
/// lets it, however many it keeps in flight for its cores, and still reads every input.
@Suite final class BytesInFlightTests {
    private let temporary: TemporaryFolder
    var work: URL { temporary.url }

    init() throws {
        temporary = try TemporaryFolder("casefile-bytes-in-flight")
    }

    /// Twelve copies of a sample recording, each made distinct by an info file of 20,000 bytes; returns the bytes one
    /// copy holds once read (its files but the video, which is streamed past).
    func writePackages(into inbox: URL) throws -> Int {
        let sample = Samples.folder.appendingPathComponent("5B0F1C2E-9D4A-4C61-8E07-3A1F6B2C9D10.clue")
        var bytes = 0
        for number in 1...12 {
            let copy = inbox.appendingPathComponent("r\(number).clue")
            try FileManager.default.copyItem(at: sample, to: copy)
            let padding = String(repeating: "x", count: 20_000 - 12 - String(number).count)
            try Data(#"{"copy":\#(number),"p":"\#(padding)"}"#.utf8)
                .write(to: copy.appendingPathComponent("Info/info_bench.json"))
            if number == 1 {
                let files = FileManager.default.enumerator(at: copy, includingPropertiesForKeys: [.fileSizeKey])
                while let file = files?.nextObject() as? URL {
                    guard file.pathExtension != "mp4",
                        let size = try file.resourceValues(forKeys: [.fileSizeKey]).fileSize
                    else { continue }
                    bytes += size
                }
            }
        }
        return bytes
    }

    /// Twelve zips of the sample recording, each with an info file of 200,000 spaces of its own (deflated to almost
    /// nothing); returns the bytes one holds once unpacked and the size of the largest on disk.
    func writeZips(into inbox: URL) throws -> (held: Int, largest: Int) {
        let sample = Samples.folder.appendingPathComponent("5B0F1C2E-9D4A-4C61-8E07-3A1F6B2C9D10.clue")
        var files: [(path: String, bytes: [UInt8])] = []
        for part in [
            "Info/info_device.json", "Modules/module_interaction.json", "Modules/module_network.json",
            "Modules/module_view.json",
        ] {
            files.append((part, Array(try Data(contentsOf: sample.appendingPathComponent(part)))))
        }
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        var largest = 0
        for number in 1...12 {
            let info = Array(#"{"copy":\#(number)}"#.utf8) + [UInt8](repeating: 0x20, count: 200_000)
            let zip = inbox.appendingPathComponent("r\(number).clue.zip")
            try ZipWriter.write(files + [("Info/info_bench.json", info)], to: zip)
            largest = max(largest, try Data(contentsOf: zip).count)
        }
        let held = files.reduce(0) { $0 + $1.bytes.count } + 200_000 + #"{"copy":1}"#.utf8.count
        return (held, largest)
    }

    /// Runs over `inbox` with `bytesInFlight`; returns the summary and the most inputs that were at once between
    /// the index's question whether their reports are known (asked once an input is read, parsed and rendered) and
    /// the end of their indexing, which takes `indexing` each, so that inputs pile up unless the budget holds them
    /// back.
    func run(
        _ inbox: URL, bytesInFlight: Int, name: String, concurrency: Int? = nil, indexing: Duration = .milliseconds(30)
    ) async throws -> (RunSummary, Int) {
        let output = work.appendingPathComponent(name)
        var definition = PipelineDefinition(
            inbox: inbox, output: output, database: output.appendingPathComponent("index.sqlite"),
            concurrency: concurrency)
        definition.bytesInFlight = bytesInFlight
        definition.frames = false
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let index = WindowIndex(store: try IndexStore(path: definition.database.path), indexing: indexing)
        let summary = try await PipelineRunner(definition: definition, logger: CapturedLog().logger)
            .run(index: index, pipelineName: "test.toml")
        return (summary, index.most)
    }

    @Test func holdsNoMorePackagesThanTheBudgetHasRoomFor() async throws {
        let inbox = work.appendingPathComponent("inbox")
        let bytes = try writePackages(into: inbox)
        #expect(bytes > 20_000)
        let (summary, most) = try await run(inbox, bytesInFlight: 2 * bytes + bytes / 2, name: "two")
        #expect(most <= 2)
        #expect(summary.processed == 12)
        #expect(summary.newReports == 12)
        #expect(summary.quarantined.isEmpty)
    }

    /// A zip says how much it holds only once unpacked (these hold about eight times their size): zips are admitted
    /// on their size one at a time per core, each unpacked, and so charged what it holds, before the next is admitted.
    @Test func holdsNoMoreZipsThanTheBudgetHasRoomForOnceEachIsUnpacked() async throws {
        let inbox = work.appendingPathComponent("zips")
        let (held, largest) = try writeZips(into: inbox)
        #expect(held > 8 * largest)
        // Two unpacked zips and a third's size fit: a third is admitted, and found to hold more than the room left.
        let (summary, most) = try await run(inbox, bytesInFlight: 2 * held + held / 2, name: "zips-out", concurrency: 1)
        #expect(most <= 3)
        #expect(summary.processed == 12)
        #expect(summary.newReports == 12)
        #expect(summary.quarantined.isEmpty)
    }

    @Test func readsInputsLargerThanTheBudgetOneAtATime() async throws {
        let inbox = work.appendingPathComponent("inbox")
        _ = try writePackages(into: inbox)
        // And archives, admitted on an estimate before they are unpacked: four distinct samples.
        for name in ["checkout-500.clue.zip", "checkout-bugreport.zip", "clean-session.zip", "offline-1009.clue.zip"] {
            try FileManager.default.copyItem(
                at: Samples.folder.appendingPathComponent(name), to: inbox.appendingPathComponent(name))
        }
        let (summary, most) = try await run(inbox, bytesInFlight: 1, name: "one")
        #expect(most == 1)
        #expect(summary.processed == 16)
        #expect(summary.quarantined.isEmpty)
        // The same inbox with the default budget: the run keeps many in flight, and reads the same. Each indexing takes
        // long enough for every input in flight (six per core) to be read meanwhile, however slow the machine.
        let (unbounded, many) = try await run(
            inbox, bytesInFlight: PipelineDefinition.defaultBytesInFlight, name: "all", indexing: .milliseconds(300))
        #expect(many > 2)
        #expect(unbounded.processed == 16)
        #expect(unbounded.newReports == summary.newReports)
    }
}

/// An index that counts the inputs between its question whether their reports are known and the end of their
/// indexing, which it makes take `indexing` longer.
final class WindowIndex: ForwardingIndex, @unchecked Sendable {
    private let window = Mutex((now: 0, most: 0))
    let indexing: Duration

    init(store: IndexStore, indexing: Duration) {
        self.indexing = indexing
        super.init(store: store)
    }

    /// The most inputs that were in the window at once.
    var most: Int { window.withLock { $0.most } }

    override func knownReports(_ ids: [String]) async throws -> Set<String> {
        window.withLock { counts in
            counts.now += 1
            counts.most = max(counts.most, counts.now)
        }
        return try await super.knownReports(ids)
    }

    override func record(_ input: IndexedInput, run: Int64) async throws -> IndexOutcome {
        defer { window.withLock { $0.now -= 1 } }
        try await Task.sleep(for: indexing)
        return try await super.record(input, run: run)
    }
}
