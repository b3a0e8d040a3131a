import CasefileCore
import CasefileStore
import Foundation
import GRDB
import Testing

/// The writer inserts a crash's frames, threads and images and a recording's events several rows to a statement, and
/// one a statement past 64 rows or past an input's eighth report. Every row arrives once and in order, whatever the
/// count: one, a whole statement's worth (16), one past it, counts that take several statements of different sizes,
/// counts on either side of 64, and the reports on either side of the eighth.
@Suite final class ManyRowsTests {
    private let temporary: TemporaryFolder
    var folder: URL { temporary.url }

    init() throws {
        temporary = try TemporaryFolder("casefile-many-rows")
    }

    /// A crash whose crashed thread has `crashedFrames` frames in a system image (each a row: it crashed), a second
    /// thread with `appFrames` frames in the app (each a row: the app's), a third thread with none of the app's frames
    /// (no row), an exception backtrace of `backtrace` frames, and `events` timeline events. Every symbol names its
    /// thread and position, and is `symbolLength` bytes long.
    private func report(
        crashedFrames: Int, appFrames: Int, backtrace: Int, events: Int, symbolLength: Int = 12,
        id: String = String(repeating: "cd", count: 32)
    ) -> Report {
        func symbol(_ thread: String, _ position: Int) -> String {
            let name = "\(thread)-\(position)-"
            return name + String(repeating: "x", count: max(0, symbolLength - name.count))
        }
        func frames(_ count: Int, _ image: String, _ thread: String) -> [Frame] {
            (0..<count).map { Frame(image: image, address: 0x1_0000_0000 + UInt64($0) * 4, symbol: symbol(thread, $0)) }
        }
        var crash = Crash(format: .ips)
        crash.crashedThread = 0
        crash.images = [
            BinaryImage(name: "Shop", path: "/App/Shop", arch: "arm64", loadAddress: 0x1_0000_0000, isApp: true),
            BinaryImage(name: "libsystem_c.dylib", arch: "arm64", loadAddress: 0x1_8000_0000),
            BinaryImage(name: "UIKitCore", arch: "arm64", loadAddress: 0x1_9000_0000),
        ]
        crash.threads = [
            CrashThread(index: 0, crashed: true, frames: frames(crashedFrames, "libsystem_c.dylib", "crashed")),
            CrashThread(index: 1, name: "worker", frames: frames(appFrames, "Shop", "app")),
            CrashThread(index: 2, frames: frames(3, "libsystem_c.dylib", "other")),
        ]
        crash.exceptionBacktrace = frames(backtrace, "Shop", "backtrace")
        let timeline = Timeline(
            (0..<events).map { position in
                TimelineEvent(
                    timestamp: Double(position), file: "module_network.json", line: position,
                    kind: .network(NetworkExchange(url: "https://api.example/v1/items/\(position)", statusCode: 200)))
            })
        return Report(
            id: id, format: .ips, source: ReportSource(input: "/inbox/a.ips", root: ""),
            crashes: [crash], timeline: timeline)
    }

    private func stored(_ reports: [Report]) async throws -> DatabaseQueue {
        let path = folder.appendingPathComponent("index-\(UUID().uuidString).sqlite").path
        let store = try IndexStore(path: path)
        let run = try await store.beginRun(pipeline: "test.toml", inbox: "/inbox", startedAt: Date())
        let input = IndexedInput(
            record: InputRecord(path: "/inbox/a.ips", sha256: String(repeating: "e", count: 64), kind: "file"),
            reports: reports, notes: [], summaryPaths: [:])
        _ = try await store.record(input, run: run)
        try await store.finishRun(run, summary: RunSummary(runID: run), finishedAt: Date())
        return try DatabaseQueue(path: path)
    }

    /// The symbols of the frame rows of `thread` (NULL: the exception backtrace), in the order they were inserted.
    private static func symbols(_ db: Database, thread: Int?) throws -> [String] {
        let filter = thread.map { "thread_index = \($0) AND exception_backtrace = 0" } ?? "exception_backtrace = 1"
        return try String.fetchAll(db, sql: "SELECT symbol FROM crash_frames WHERE \(filter) ORDER BY rowid")
    }

    /// What the index holds of the report, read back in the order the rows were inserted.
    private struct Stored {
        var crashed: [String]
        var app: [String]
        var backtrace: [String]
        var other: [String]
        var appSeqs: [Int]
        var threads: [Int]
        var workerName: String?
        var images: [String]
        var eventSeqs: [Int]
        var lastURL: String?

        init(_ db: Database) throws {
            // Each symbol is its thread and position, padded with x.
            let names = { (symbols: [String]) in symbols.map { String($0.prefix { $0 != "x" }) } }
            crashed = names(try ManyRowsTests.symbols(db, thread: 0))
            app = names(try ManyRowsTests.symbols(db, thread: 1))
            backtrace = names(try ManyRowsTests.symbols(db, thread: nil))
            other = try ManyRowsTests.symbols(db, thread: 2)
            appSeqs = try Int.fetchAll(
                db,
                sql: "SELECT seq FROM crash_frames WHERE thread_index = 1 AND exception_backtrace = 0 ORDER BY rowid")
            threads = try Int.fetchAll(db, sql: "SELECT thread_index FROM crash_threads ORDER BY rowid")
            workerName = try String.fetchOne(db, sql: "SELECT name FROM crash_threads WHERE thread_index = 1")
            images = try String.fetchAll(db, sql: "SELECT name FROM crash_images ORDER BY rowid")
            eventSeqs = try Int.fetchAll(db, sql: "SELECT seq FROM timeline_events ORDER BY rowid")
            lastURL = try String.fetchOne(db, sql: "SELECT url FROM timeline_events ORDER BY seq DESC LIMIT 1")
        }
    }

    @Test(arguments: [1, 2, 15, 16, 17, 31, 32, 34, 47, 64, 65, 100])
    func everyRowArrivesOnceAndInOrder(count: Int) async throws {
        let queue = try await stored([report(crashedFrames: count, appFrames: count, backtrace: count, events: count)])
        let stored = try await queue.read { db in try Stored(db) }
        let expected = { (thread: String) in (0..<count).map { "\(thread)-\($0)-" } }
        #expect(stored.crashed == expected("crashed"))
        #expect(stored.app == expected("app"))
        #expect(stored.backtrace == expected("backtrace"))
        #expect(stored.other.isEmpty)
        // The seq of each row is its position in its thread.
        #expect(stored.appSeqs == Array(0..<count))
        // Threads 0 (crashed) and 1 (the app's frames) are rows; thread 2 is only in the blob.
        #expect(stored.threads == [0, 1])
        #expect(stored.workerName == "worker")
        // The app's image and the one the crashed thread's frames lie in; not UIKitCore, which no frame row names.
        #expect(stored.images == ["Shop", "libsystem_c.dylib"])
        #expect(stored.eventSeqs == Array(0..<count))
        #expect(stored.lastURL == "https://api.example/v1/items/\(count - 1)")
    }

    /// An input of many reports (a tester's zip of crash logs) stores every report's rows once and in order: its first
    /// reports several rows to a statement, the later ones one a statement. Report `n` has `3 + 5n` crashed frames,
    /// `2 + n` app frames, `n` backtrace frames and `3n` events: counts of one statement, of several, and of none.
    @Test func everyReportOfALargeInputKeepsItsRows() async throws {
        let reports = (0..<12).map { number in
            report(
                crashedFrames: 3 + 5 * number, appFrames: 2 + number, backtrace: number, events: 3 * number,
                id: String(format: "%064x", number + 1))
        }
        let queue = try await stored(reports)
        for (number, report) in reports.enumerated() {
            let rows = try await queue.read { db in
                let frames = { (filter: String) in
                    try String.fetchAll(
                        db,
                        sql: """
                            SELECT symbol FROM crash_frames JOIN crashes ON crashes.id = crash_frames.crash_id
                            WHERE crashes.report_id = ? AND \(filter) ORDER BY crash_frames.rowid
                            """, arguments: [report.id]
                    ).map { String($0.prefix { $0 != "x" }) }
                }
                return (
                    crashed: try frames("thread_index = 0 AND exception_backtrace = 0"),
                    app: try frames("thread_index = 1 AND exception_backtrace = 0"),
                    backtrace: try frames("exception_backtrace = 1"),
                    events: try Int.fetchAll(
                        db, sql: "SELECT seq FROM timeline_events WHERE report_id = ? ORDER BY rowid",
                        arguments: [report.id]),
                    images: try String.fetchAll(
                        db,
                        sql: """
                            SELECT name FROM crash_images JOIN crashes ON crashes.id = crash_images.crash_id
                            WHERE crashes.report_id = ? ORDER BY crash_images.rowid
                            """, arguments: [report.id])
                )
            }
            let expected = { (thread: String, count: Int) in (0..<count).map { "\(thread)-\($0)-" } }
            #expect(rows.crashed == expected("crashed", 3 + 5 * number), "report \(number)")
            #expect(rows.app == expected("app", 2 + number), "report \(number)")
            #expect(rows.backtrace == expected("backtrace", number), "report \(number)")
            #expect(rows.events == Array(0..<(3 * number)), "report \(number)")
            #expect(rows.images == ["Shop", "libsystem_c.dylib"], "report \(number)")
        }
    }

    /// Texts longer than the memory set aside for a statement's rows (a kilobyte a row) are stored whole.
    @Test func longTextsAreStoredWhole() async throws {
        let queue = try await stored([
            report(crashedFrames: 20, appFrames: 0, backtrace: 0, events: 0, symbolLength: 3000)
        ])
        let symbols = try await queue.read { db in try Self.symbols(db, thread: 0) }
        #expect(symbols.count == 20)
        for (position, symbol) in symbols.enumerated() {
            #expect(symbol.utf8.count == 3000)
            #expect(symbol.hasPrefix("crashed-\(position)-x"))
            #expect(symbol.hasSuffix("xxx"))
        }
    }
}
