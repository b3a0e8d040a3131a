import CasefileCore
import CasefileStore
import Foundation
import GRDB
import Testing

/// The values of the rows the index writer binds itself, read back with SQL as a script would: NULL stays NULL, an
/// empty string stays an empty string, text keeps every byte, addresses keep their bit pattern.
@Suite final class StoredValuesTests {
    private let temporary: TemporaryFolder
    var folder: URL { temporary.url }

    init() throws {
        temporary = try TemporaryFolder("casefile-values")
    }

    /// A crash whose values are each an edge: an empty thread name, no queue, a non-ASCII image name, an address
    /// with the top bit set, an empty symbol, a negative line.
    private func report() -> Report {
        var crash = Crash(format: .ips)
        crash.crashedThread = 0
        crash.exception.type = "EXC_BAD_ACCESS"
        crash.exception.codes = [0x1, 0xdead]
        crash.images = [
            BinaryImage(name: "Café\u{212A}", path: "/App/Café\u{212A}", arch: "arm64", loadAddress: 0x1_0000_0000),
            BinaryImage(
                name: "libsystem_c.dylib", uuid: "0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9", loadAddress: 0x1_8000_0000,
                endAddress: 0x1_8001_0000),
        ]
        crash.images[0].isApp = true
        let top = Frame(
            image: "Café\u{212A}", address: 0x8000_0000_0000_1234, imageLoadAddress: 0x1_0000_0000,
            imageOffset: 0x7FFF_FFFF_0000_1234, symbol: "", symbolOffset: 0, file: nil, line: -3)
        let system = Frame(
            image: "libsystem_c.dylib", address: 0x1_8000_0010, imageLoadAddress: 0x1_8000_0000, imageOffset: 0x10,
            symbol: "abort", symbolOffset: 8, inlined: true)
        crash.threads = [CrashThread(index: 0, name: "", queue: nil, crashed: true, frames: [top, system])]
        let failure = NetworkExchange(url: "https://api.example/v1/pay", statusCode: 503)
        let touch = TouchEvent(phase: .ended, rawPhase: "ended", touches: [])
        return Report(
            id: String(repeating: "ab", count: 32), format: .ips,
            source: ReportSource(input: "/inbox/a.ips", root: ""), crashes: [crash],
            timeline: Timeline([
                TimelineEvent(timestamp: 1.5, file: "module_touches.json", line: 4, kind: .touch(touch)),
                TimelineEvent(timestamp: 2.25, file: "module_network.json", line: nil, kind: .network(failure)),
            ]),
            warnings: [Diagnostic(file: "a.ips", message: "")])
    }

    private func stored(_ report: Report? = nil) async throws -> DatabaseQueue {
        let path = folder.appendingPathComponent("index.sqlite").path
        let store = try IndexStore(path: path)
        let run = try await store.beginRun(pipeline: "test.toml", inbox: "/inbox", startedAt: Date())
        let input = IndexedInput(
            record: InputRecord(path: "/inbox/a.ips", sha256: String(repeating: "c", count: 64), kind: "file"),
            reports: [report ?? self.report()], notes: [], summaryPaths: [:])
        _ = try await store.record(input, run: run)
        try await store.finishRun(run, summary: RunSummary(runID: run), finishedAt: Date())
        return try DatabaseQueue(path: path)
    }

    @Test func framesKeepEmptyTextNullsAndAddressBits() async throws {
        let rows = try await stored().read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT image, typeof(symbol) AS symbol_type, symbol, typeof(file) AS file_type, line, address,
                    image_offset, in_app, inlined, exception_backtrace FROM crash_frames ORDER BY seq
                    """)
        }
        try #require(rows.count == 2)
        #expect(rows[0]["image"] as String? == "Café\u{212A}")
        #expect(rows[0]["symbol_type"] as String? == "text")
        #expect(rows[0]["symbol"] as String? == "")
        #expect(rows[0]["file_type"] as String? == "null")
        #expect(rows[0]["line"] as Int? == -3)
        #expect((rows[0]["address"] as Int64?).map { UInt64(bitPattern: $0) } == 0x8000_0000_0000_1234)
        #expect((rows[0]["image_offset"] as Int64?).map { UInt64(bitPattern: $0) } == 0x7FFF_FFFF_0000_1234)
        #expect(rows[0]["in_app"] as Int? == 1)
        #expect(rows[0]["inlined"] as Int? == 0)
        #expect(rows[0]["exception_backtrace"] as Int? == 0)
        #expect(rows[1]["symbol"] as String? == "abort")
        #expect(rows[1]["in_app"] as Int? == 0)
        #expect(rows[1]["inlined"] as Int? == 1)
    }

    /// Texts of every length keep every byte: a frame row whose texts together pass the writer's 1 KB of scratch
    /// memory (the symbol fills most of it, the file does not fit beside it), a text longer than the scratch alone, and
    /// short texts after a long one. The writer copies a row's texts into that memory until it is full, then lets
    /// SQLite copy the rest.
    @Test func textsLongerThanTheWritersScratchKeepEveryByte() async throws {
        let symbol = "-[CartViewController " + String(repeating: "é", count: 480) + ":]"
        let file = "/Users/dev/Shop/" + String(repeating: "Ünterordner/", count: 60) + "Cart.swift"
        let reason = String(repeating: "an order total of NaN reached the server; ", count: 60)
        var crash = Crash(format: .ips)
        crash.crashedThread = 0
        crash.exception.reason = reason
        crash.images = [BinaryImage(name: "Shop", path: "/App/Shop", arch: "arm64", loadAddress: 0x1_0000_0000)]
        crash.images[0].isApp = true
        let long = Frame(
            image: "Shop", address: 0x1_0000_1000, imageLoadAddress: 0x1_0000_0000, imageOffset: 0x1000,
            symbol: symbol, symbolOffset: 4, file: file, line: 12)
        let short = Frame(
            image: "Shop", address: 0x1_0000_2000, imageLoadAddress: 0x1_0000_0000, imageOffset: 0x2000,
            symbol: "main", symbolOffset: 8, file: "main.swift", line: 3)
        crash.threads = [CrashThread(index: 0, name: "main", crashed: true, frames: [long, short])]
        let report = Report(
            id: String(repeating: "ef", count: 32), format: .ips, source: ReportSource(input: "/inbox/a.ips", root: ""),
            crashes: [crash])
        let database = try await stored(report)
        let (frames, storedReason) = try database.read { db in
            (
                try Row.fetchAll(db, sql: "SELECT image, symbol, file FROM crash_frames ORDER BY seq"),
                try String.fetchOne(db, sql: "SELECT exception_reason FROM crashes")
            )
        }
        // The symbol is 983 bytes of UTF-8 and the file 806: together past 1,024.
        #expect(symbol.utf8.count + file.utf8.count > 1024 && symbol.utf8.count < 1024)
        #expect(reason.utf8.count > 1024)
        try #require(frames.count == 2)
        #expect(frames[0]["image"] as String? == "Shop")
        #expect(frames[0]["symbol"] as String? == symbol)
        #expect(frames[0]["file"] as String? == file)
        #expect(frames[1]["symbol"] as String? == "main")
        #expect(frames[1]["file"] as String? == "main.swift")
        #expect(storedReason == reason)
    }

    /// Each frame row says why its frame was not symbolicated, however the statuses of neighbouring frames follow one
    /// another: the same as the row before, another, none, and back.
    @Test func framesKeepTheirOwnSymbolicationReason() async throws {
        let uikit = "11111111-2222-3333-4444-555555555555"
        let objc = "66666666-7777-8888-9999-000000000000"
        func frame(_ status: FrameSymbolication.Status?) -> Frame {
            var frame = Frame(image: "UIKitCore", address: 0x10_0010)
            frame.symbolication = status.map { FrameSymbolication(status: $0) }
            return frame
        }
        var crash = Crash(format: .ips)
        crash.crashedThread = 0
        let statuses: [FrameSymbolication.Status?] = [
            .noDebugFile(image: "UIKitCore", uuid: uikit), .noDebugFile(image: "UIKitCore", uuid: uikit), .outsideImage,
            nil, .noDebugFile(image: "libobjc.A.dylib", uuid: objc), .noDebugFile(image: "UIKitCore", uuid: uikit),
            .symbolicated(backend: "dwarf"), .notFound,
            .uuidMismatch(image: "UIKitCore", uuid: uikit, found: ["aaaaaaaa-0000-0000-0000-000000000000"]),
        ]
        crash.threads = [CrashThread(index: 0, crashed: true, frames: statuses.map(frame))]
        crash.exceptionBacktrace = [frame(.noDebugFile(image: "UIKitCore", uuid: uikit))]
        let report = Report(
            id: String(repeating: "cd", count: 32), format: .ips, source: ReportSource(input: "/inbox/a.ips", root: ""),
            crashes: [crash])
        let rows = try await stored(report).read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT symbolication_status, symbolication_reason FROM crash_frames
                    ORDER BY exception_backtrace, seq
                    """)
        }
        let noUIKit = "no debug file for UUID \(uikit) (UIKitCore)"
        #expect(
            rows.map { $0["symbolication_reason"] as String? } == [
                noUIKit, noUIKit, "address outside every image of the report", nil,
                "no debug file for UUID \(objc) (libobjc.A.dylib)", noUIKit, nil,
                "the debug file has no symbol at this address",
                "UUID mismatch: UIKitCore is \(uikit), the debug files found are aaaaaaaa-0000-0000-0000-000000000000",
                noUIKit,
            ])
        #expect(
            rows.map { $0["symbolication_status"] as String? } == [
                "no-debug-file", "no-debug-file", "outside-image", nil, "no-debug-file", "no-debug-file",
                "symbolicated:dwarf", "not-found", "uuid-mismatch", "no-debug-file",
            ])
    }

    @Test func threadsImagesAndTheCrashRowKeepTheirValues() async throws {
        let database = try await stored()
        let thread = try #require(
            try database.read { db in
                try Row.fetchOne(
                    db,
                    sql:
                        "SELECT typeof(name) AS name_type, name, typeof(queue) AS queue_type, crashed FROM crash_threads"
                )
            })
        #expect(thread["name_type"] as String? == "text")
        #expect(thread["name"] as String? == "")
        #expect(thread["queue_type"] as String? == "null")
        #expect(thread["crashed"] as Int? == 1)
        let images = try database.read { db in
            try Row.fetchAll(
                db, sql: "SELECT name, uuid, load_address, typeof(end_address) AS end_type, is_app FROM crash_images")
        }
        // The app image, and the system image one of the rows' frames lies in.
        #expect(images.map { $0["name"] as String? } == ["Café\u{212A}", "libsystem_c.dylib"])
        #expect(images[0]["end_type"] as String? == "null")
        #expect(images[0]["is_app"] as Int? == 1)
        #expect(images[1]["uuid"] as String? == "0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9")
        #expect(images[1]["load_address"] as Int64? == 0x1_8000_0000)
        let crash = try #require(
            try database.read { db in
                try Row.fetchOne(
                    db,
                    sql: """
                        SELECT exception_type, exception_codes, typeof(signal) AS signal_type, crashed_thread,
                        typeof(detail) AS detail_type FROM crashes
                        """)
            })
        #expect(crash["exception_type"] as String? == "EXC_BAD_ACCESS")
        #expect(crash["exception_codes"] as String? == "0x1, 0xdead")
        #expect(crash["signal_type"] as String? == "null")
        #expect(crash["crashed_thread"] as Int? == 0)
        #expect(crash["detail_type"] as String? == "blob")
    }

    /// Rows are written for the crashed thread's frames and the app's frames of the other threads, and image rows
    /// for the app and the images those frames lie in — not for a name of the same length (`ShopApq`, `libC.dylib`).
    @Test func imageRowsAreTheAppsAndThoseOfTheFrameRows() async throws {
        var crash = Crash(format: .ips)
        crash.crashedThread = 0
        crash.images = [
            BinaryImage(name: "ShopApp", path: "/App/ShopApp", loadAddress: 0x1_0000_0000, isApp: true),
            BinaryImage(name: "libA.dylib", loadAddress: 0x1_8000_0000),
            BinaryImage(name: "libB.dylib", loadAddress: 0x1_8100_0000),
            BinaryImage(name: "libC.dylib", loadAddress: 0x1_8200_0000),
            BinaryImage(name: "ShopApq", loadAddress: 0x1_8300_0000),
        ]
        func frame(_ image: String, _ address: UInt64) -> Frame { Frame(image: image, address: address) }
        crash.threads = [
            CrashThread(
                index: 0, crashed: true, frames: [frame("libB.dylib", 0x1_8100_0010), frame("ShopApp", 0x1_0000_0020)]),
            CrashThread(
                index: 1,
                frames: [
                    frame("libC.dylib", 0x1_8200_0030), frame("ShopApp", 0x1_0000_0040),
                    frame("ShopApq", 0x1_8300_0050),
                ]
            ),
            CrashThread(index: 2, frames: [frame("libA.dylib", 0x1_8000_0060)]),
        ]
        var report = report()
        report.crashes = [crash]
        let database = try await stored(report)
        let (images, threads, frames) = try await database.read { db in
            (
                try String.fetchAll(db, sql: "SELECT name FROM crash_images ORDER BY id"),
                try Int.fetchAll(db, sql: "SELECT thread_index FROM crash_threads ORDER BY id"),
                try String.fetchAll(
                    db,
                    sql:
                        "SELECT thread_index || ' ' || seq || ' ' || image || ' ' || in_app FROM crash_frames ORDER BY id"
                )
            )
        }
        #expect(images == ["ShopApp", "libB.dylib"])
        #expect(threads == [0, 1])
        #expect(frames == ["0 0 libB.dylib 0", "0 1 ShopApp 1", "1 1 ShopApp 1"])
    }

    @Test func eventsKeepTheirNetworkColumnsAndWarningsTheirText() async throws {
        let database = try await stored()
        let events = try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT kind, timestamp, source_line, typeof(method) AS method_type, status, failed, start_ts,
                    typeof(end_ts) AS end_type, received_bytes, typeof(received_bytes) AS received_type
                    FROM timeline_events ORDER BY seq
                    """)
        }
        try #require(events.count == 2)
        #expect(events[0]["kind"] as String? == "touch")
        #expect(events[0]["source_line"] as Int? == 4)
        #expect(events[0]["failed"] as Int? == 0)
        #expect(events[0]["received_type"] as String? == "null")
        #expect(events[1]["kind"] as String? == "network")
        #expect(events[1]["timestamp"] as Double? == 2.25)
        #expect(events[1]["method_type"] as String? == "null")
        #expect(events[1]["status"] as Int? == 503)
        #expect(events[1]["failed"] as Int? == 1)
        // No response time recorded: the exchange starts at the event.
        #expect(events[1]["start_ts"] as Double? == 2.25)
        #expect(events[1]["end_type"] as String? == "null")
        #expect(events[1]["received_bytes"] as Int? == 0)
        let warning = try #require(
            try database.read { db in
                try Row.fetchOne(
                    db,
                    sql:
                        "SELECT typeof(message) AS message_type, message, typeof(line) AS line_type FROM report_warnings"
                )
            })
        #expect(warning["message_type"] as String? == "text")
        #expect(warning["message"] as String? == "")
        #expect(warning["line_type"] as String? == "null")
    }
}
