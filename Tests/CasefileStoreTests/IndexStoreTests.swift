import CasefileCore
import CasefileStore
import Foundation
import GRDB
import Logging
import Testing

@Suite final class IndexStoreTests {
    private let temporary: TemporaryFolder
    var output: URL { temporary.url }
    let definition: PipelineDefinition

    let repository = Samples.repository

    init() throws {
        temporary = try TemporaryFolder("casefile-store")
        definition = PipelineDefinition(
            inbox: repository.appendingPathComponent("SampleReports"), output: temporary.url,
            database: temporary.url.appendingPathComponent("index.sqlite"), ignore: ["*.md", "Symbols", "Hostile"])
    }

    func run(_ store: IndexStore) async throws -> RunSummary {
        let runner = PipelineRunner(definition: definition, logger: CapturedLog().logger)
        return try await runner.run(index: store, pipelineName: "test.toml")
    }

    /// The sample symbols.
    var symbols: URL { repository.appendingPathComponent("SampleReports/Symbols") }

    /// A runner over an inbox of its own (`output/inbox`, empty) that symbolicates with the sample symbols.
    func symbolicatingRunner(_ log: CapturedLog = CapturedLog()) throws -> (runner: PipelineRunner, inbox: URL) {
        let inbox = output.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        var symbolicated = definition
        symbolicated.inbox = inbox
        symbolicated.symbolFolders = [symbols]
        return (PipelineRunner(definition: symbolicated, logger: log.logger), inbox)
    }

    /// Copies a sample report into `inbox` as `name`.
    func deliver(_ sample: String, to inbox: URL, as name: String) throws {
        try FileManager.default.copyItem(
            at: repository.appendingPathComponent("SampleReports/\(sample)"), to: inbox.appendingPathComponent(name))
    }

    @Test func walksTheSymbolFoldersOnlyForAnInputWithACrash() async throws {
        let (runner, inbox) = try symbolicatingRunner()
        // A recording without a crash: its run needs no debug file, and leaves the symbol folders unread.
        try deliver("5B0F1C2E-9D4A-4C61-8E07-3A1F6B2C9D10.clue", to: inbox, as: "session.clue")
        let store = try IndexStore(path: definition.database.path)
        let first = try await runner.run(index: store, pipelineName: "test.toml")
        #expect(first.newReports == 1)
        #expect(try store.crashes().isEmpty)
        #expect(try await store.loadDebugFiles().isEmpty)
        // A crash report the next night: its run walks the folders, keeps what it learned, and symbolicates.
        try deliver("Crashes/image-cache-iphone15-ios17.ips", to: inbox, as: "crash.ips")
        _ = try await runner.run(index: store, pipelineName: "test.toml")
        #expect(try await store.loadDebugFiles() == DebugFileIndex(scanning: [symbols]).files)
        let crash = try #require(try store.crashes().first)
        // image-cache-iphone15-ios17.ips: thread 3 crashed in ShopApp, whose dSYM is in SampleReports/Symbols.
        let top = try #require(
            try store.crashDetail(crashID: crash.id).threads.first { $0.index == 3 }?.frames.first?.symbolication?
                .locations.first)
        #expect(top.simpleName == "ShopApp.ImageCache.store()")
    }

    @Test func readsTheSymbolFoldersAgainWhenWhatTheIndexKeptOfThemCannotBeRead() async throws {
        let log = CapturedLog()
        let (runner, inbox) = try symbolicatingRunner(log)
        try deliver("Crashes/image-cache-iphone15-ios17.ips", to: inbox, as: "crash.ips")
        let store = try IndexStore(path: definition.database.path)
        _ = try await runner.run(index: store, pipelineName: "test.toml")
        // What the index kept of the folders is a cache: one row broken, the next run reads them all again.
        try await DatabaseQueue(path: definition.database.path).write { db in
            try db.execute(sql: "UPDATE debug_files SET entries_json = 'not JSON' WHERE entries_json != '[]'")
        }
        try deliver("Crashes/cart-total-iphone14-ios16.ips", to: inbox, as: "second.ips")
        let second = try await runner.run(index: store, pipelineName: "test.toml")
        #expect(second.newReports == 1)
        #expect(
            log.logged.contains {
                $0.hasPrefix("warning symbols: cannot read what earlier runs learned of the symbol folders")
            })
        #expect(try await store.loadDebugFiles() == DebugFileIndex(scanning: [symbols]).files)
    }

    @Test func keepsTheCrashedThreadAsRowsAndEveryThreadInTheBlob() async throws {
        let store = try IndexStore(path: definition.database.path)
        var symbolicated = definition
        symbolicated.symbolFolders = [repository.appendingPathComponent("SampleReports/Symbols")]
        _ = try await PipelineRunner(definition: symbolicated, logger: CapturedLog().logger)
            .run(index: store, pipelineName: "test.toml")
        let crash = try #require(try store.crashes().first { $0.incidentID == "D2E4F6A8-0B1C-4D3E-9F5A-7B8C9D0E1F23" })
        // image-cache-iphone15-ios17.ips: thread 3 crashed; thread 0 is the main thread, in UIKit and the run loop.
        let parsed = try #require(
            try Triage().reports(
                at: repository.appendingPathComponent("SampleReports/Crashes/image-cache-iphone15-ios17.ips").path
            )
            .reports.first?.crashes.first)
        #expect(try store.frames(crashID: crash.id, thread: 3).count == parsed.threads[3].frames.count)
        let main = try store.frames(crashID: crash.id, thread: 0)
        #expect(main.allSatisfy { $0.inApp })
        #expect(main.count == parsed.threads[0].frames.filter { $0.image == "ShopApp" }.count)
        // Thread rows: 3 (crashed) and 0 (a ShopApp frame), not 1 and 2 (libsystem only); all four are in the blob.
        #expect(try store.threadRows(crashID: crash.id) == [0, 3])
        let detail = try store.crashDetail(crashID: crash.id)
        func plain(_ threads: [CrashThread]) -> [CrashThread] {
            threads.map { thread in
                var thread = thread
                for index in thread.frames.indices { thread.frames[index].symbolication = nil }
                return thread
            }
        }
        #expect(plain(detail.threads) == parsed.threads)
        #expect(detail.images == parsed.images)
        // The symbolicated app frames keep their function in the blob.
        let top = try #require(detail.threads.first { $0.index == 3 }?.frames.first?.symbolication?.locations.first)
        #expect(top.simpleName == "ShopApp.ImageCache.store()")
    }

    @Test func appliesTheNamedMigrations() throws {
        #expect(
            try IndexStore.inMemory().appliedMigrations() == [
                "v1-foundation", "v2-crashes", "v3-symbolication", "v4-symbol-cache", "v5-debug-files",
                "v6-groups", "v7-compact-crashes", "v8-input-signatures", "v9-chains", "v10-tracker",
                "v11-run-recovery", "v12-no-duplicate-indexes", "v13-occurrence-counts",
                "v14-occurrence-counts-by-input", "v15-group-title-input", "v16-occurrences-by-run",
                "v17-report-completeness", "v18-image-sets", "v19-group-order", "v20-event-details",
                "v21-row-ids-without-autoincrement",
            ])
    }

    @Test func indexesGoodReportsAndQuarantinesBadInputsInOneRun() async throws {
        let store = try IndexStore(path: definition.database.path)
        let summary = try await run(store)
        // 37 inputs: 8 report inputs at the top (9 reports: the checkout folder and its zip being one, and
        // checkout-bugreport.zip the same recording with an Info/info_session.json more, so a report of its own), 21 in
        // Crashes/ (20 crash files, and a zip holding two of them again), 8 in Malformed/ (5 refused, a
        // truncated .ips and KSCrash file that are read in part, and a zip of one good report — a copy of
        // Crashes/inapp-signal-sigsegv.txt — and one hopeless JSON entry, quarantined on its own).
        // Reports are keyed by incident: truncated-header-only.crash, Malformed/truncated-body.ips and
        // Malformed/truncated-kscrash.json carry the incident identifiers of cart-total-iphone11-ios15.crash,
        // image-cache-iphone15-ios17.ips and cart-total-iphone12-ios15-kscrash.json: three more duplicates.
        #expect(summary.inputs == 37)
        #expect(summary.processed == 32)
        #expect(summary.newReports == 8 + 20 + 2 - 3)
        #expect(summary.duplicateReports == 1 + 2 + 1 + 3)
        #expect(summary.quarantined.count == 5 + 1)
        #expect(summary.exitCode == 1)
        #expect(try store.count(.reports) == 27)
        #expect(try store.count(.reportInputs) == 34)
        let quarantined = try store.quarantined()
        let traversal = try #require(quarantined.first { $0.path.hasSuffix("path-traversal.zip") })
        #expect(traversal.entry == "../../../tmp/casefile-escaped.txt")
        #expect(traversal.reason == "path escapes the archive (absolute or '..'); the whole input is refused")
        let bomb = try #require(quarantined.first { $0.path.hasSuffix("archive-bomb.zip") })
        #expect(bomb.reason.hasPrefix("compression ratio over 200:1"))
        let entry = try #require(quarantined.first { $0.path.hasSuffix("mixed-good-and-bad.zip") })
        #expect(entry.entry == "broken-kscrash.json")
        #expect(entry.reason.hasPrefix("crash report JSON is invalid beyond repair (unexpected character '}'"))
    }

    @Test func storesNetworkExchangesInTypedColumns() async throws {
        let store = try IndexStore(path: definition.database.path)
        _ = try await run(store)
        let checkout = try #require(
            try store.reports().first { $0.summaryPath != nil && $0.failureCount == 1 && $0.eventCount == 12 })
        let events = try store.events(reportID: checkout.id)
        let payment = try #require(events.first { $0.failed })
        #expect(payment.kind == "network")
        #expect(payment.url == "https://api.shop.example/v1/orders")
        #expect(payment.status == 500)
        #expect(payment.method == nil)
        #expect(payment.timestamp == 13.150000333000002)
        // The report's event blob, encoded by the parallel stages, holds the whole event: the same exchange as the typed
        // columns.
        guard case .network(let exchange) = payment.detail?.kind else {
            Issue.record("the failed event's detail is not a network exchange")
            return
        }
        #expect(exchange.url == "https://api.shop.example/v1/orders")
        #expect(exchange.statusCode == 500)
        #expect(payment.detail?.timestamp == 13.150000333000002)
        #expect(events.map(\.seq) == Array(0..<events.count))
        // The summaries, made by the parallel stages too, are each at its own event: the 500 and the tap before it.
        #expect(payment.summary.contains("/v1/orders") && payment.summary.contains("500"))
        #expect(events[8].summary.contains("Pay now"))
        let summary = try String(
            contentsOf: output.appendingPathComponent(try #require(checkout.summaryPath)), encoding: .utf8)
        #expect(summary.contains("→ /v1/orders → 500 →"))
        // The chain: the "Pay now" tap (seq 8, finger up at 12.483 s), the 500 (seq 10), the error screen (seq 11).
        let chains = try store.chains(reportID: checkout.id)
        try #require(chains.count == 1)
        #expect(chains[0].trigger == "Tap \"Pay now\"")
        #expect(chains[0].triggerSeq == 8)
        #expect(events[8].kind == "touch")
        #expect(chains[0].exchangeSeq == payment.seq)
        #expect(chains[0].endpoint == "/v1/orders")
        #expect(chains[0].status == 500)
        #expect(chains[0].outcomeKind == "error-screen")
        #expect(chains[0].outcome == "ShopApp.PaymentErrorView \"Payment failed\"")
    }

    @Test func aSecondRunIndexesNothing() async throws {
        let store = try IndexStore(path: definition.database.path)
        _ = try await run(store)
        let before = try IndexTable.allCases.map { try store.count($0) }
        let again = try await run(store)
        #expect(again.processed == 0)
        #expect(again.skipped == 37)
        #expect(again.quarantined.isEmpty)
        #expect(again.exitCode == 0)
        let after = try IndexTable.allCases.map { try store.count($0) }
        // Only the runs table grows.
        #expect(before[0] + 1 == after[0])
        #expect(Array(before.dropFirst()) == Array(after.dropFirst()))
    }

    @Test func readsTheSignaturesOfTheListedPathsOnly() async throws {
        let store = try IndexStore(path: definition.database.path)
        _ = try await run(store)
        let first = repository.appendingPathComponent("SampleReports/Crashes/cart-total-iphone14-ios16.ips").path
        let last = repository.appendingPathComponent("SampleReports/Crashes/image-cache-iphone15-ios17.ips").path
        // 1,200 paths the index never saw between two it indexed: the second lies in the third query of 500.
        let unseen = (0..<1_200).map { "/nowhere/input-\($0).ips" }
        let signatures = try await store.inputSignatures(paths: [first] + unseen + [last])
        #expect(signatures.keys.sorted() == [first, last].sorted())
        // What an unchanged file is recognized by: its kind, size and modification time.
        for path in [first, last] {
            let signature = try #require(InputSignature.of(URL(fileURLWithPath: path)))
            #expect(signatures[path] == signature)
        }
        #expect(try await store.inputSignatures(paths: []).isEmpty)
    }

    @Test func storesCrashesThreadsFramesAndImages() async throws {
        let store = try IndexStore(path: definition.database.path)
        _ = try await run(store)
        // Crashes/ holds 20 crash files: 19 with one crash each and a MetricKit payload with one diagnostic, one of
        // them (truncated-header-only.crash) another copy of an incident; Malformed/'s 2 are copies too, and
        // checkout-exception.clue.zip's exception is one more.
        #expect(try store.count(.crashes) == 20 - 1 + 1)
        let crash = try #require(try store.crashes().first { $0.incidentID == "D2E4F6A8-0B1C-4D3E-9F5A-7B8C9D0E1F23" })
        #expect(crash.exceptionType == "EXC_BAD_ACCESS")
        #expect(crash.signal == "SIGSEGV")
        #expect(crash.crashedThread == 3)
        #expect(crash.appUUID == "4c4c442a-5555-3144-a1c2-ffa5de205d9d")
        let frames = try store.frames(crashID: crash.id, thread: 3)
        #expect(frames.map(\.address) == [0x1_00d4_c0ac, 0x1_00d4_c0d8, 0x1_ab5e_2c8c, 0x1_ab5e_45e8, 0x1_f0b5_14f4])
        #expect(frames.map(\.inApp) == [true, true, false, false, false])
        #expect(frames.first?.symbol == "ImageCache.store(_:for:)")
    }

    @Test func keepsTheSymbolCacheBetweenRuns() async throws {
        let store = try IndexStore(path: definition.database.path)
        let cache = SymbolCache()
        let location = SourceLocation(rawName: "$s7ShopApp13CartViewModelC5totalSiyF", file: "checkout.c", line: 17)
        cache.insert([
            SymbolCache.Entry(
                uuid: "4c4c440a-5555-3144-a121-7090b91a2dbc", address: 0x1_0000_402c,
                result: SymbolCache.Result(backend: "dwarf", locations: [location]))
        ])
        try await store.saveSymbolCache(cache)
        #expect(try store.count(.symbolCache) == 1)
        let loaded = try await store.loadSymbolCache()
        let result = loaded.result(uuid: "4c4c440a-5555-3144-a121-7090b91a2dbc", address: 0x1_0000_402c)
        #expect(result?.locations == [location])
        #expect(result?.backend == "dwarf")
        #expect(loaded.takeNewEntries().isEmpty)  // loaded answers are not written back again
    }

    @Test func readsTheStoredAnswersOfAnImageWhenFirstAskedAndSkipsARowItCannotRead() async throws {
        let store = try IndexStore(path: definition.database.path)
        let shopApp = "4c4c440a-5555-3144-a121-7090b91a2dbc"
        let other = "4c4c44a7-5555-3144-a1e8-3523111396bf"
        let total = SourceLocation(rawName: "$s7ShopApp13CartViewModelC5totalSiyF", file: "checkout.c", line: 17)
        let main = SourceLocation(rawName: "main", file: "checkout.c", line: 30)
        let saved = SymbolCache()
        saved.insert([
            SymbolCache.Entry(
                uuid: shopApp, address: 0x1_0000_402c, result: SymbolCache.Result(backend: "dwarf", locations: [total])),
            SymbolCache.Entry(
                uuid: shopApp, address: 0x1_0000_4080, result: SymbolCache.Result(backend: "dwarf", locations: [main])),
            SymbolCache.Entry(
                uuid: other, address: 0x1_0000_402c, result: SymbolCache.Result(backend: "breakpad", locations: [main])),
        ])
        try await store.saveSymbolCache(saved)
        // A row an older or damaged index could hold: its locations are not JSON.
        let database = try DatabaseQueue(path: definition.database.path)
        try await database.write { db in
            try db.execute(
                sql: "INSERT INTO symbol_cache (uuid, address, backend, locations_json) VALUES (?, ?, 'dwarf', '[{')",
                arguments: [shopApp, Int64(0x1_0000_4060)])
        }
        #expect(try store.count(.symbolCache) == 4)

        let loaded = try await store.loadSymbolCache()
        #expect(loaded.count == 0)  // nothing is read before a crash asks
        let answers = loaded.results(uuid: shopApp, addresses: [0x1_0000_402c, 0x1_0000_4060, 0x1_0000_4080, 0x4000])
        #expect(answers.map { $0?.locations } == [[total], nil, [main], nil])
        #expect(loaded.count == 2)  // the ShopApp image's readable answers, not the other build's
        #expect(loaded.result(uuid: other, address: 0x1_0000_402c)?.backend == "breakpad")
        #expect(loaded.count == 3)
        #expect(loaded.takeNewEntries().isEmpty)
    }

    @Test func refusesADatabaseItCannotOpen() {
        let error = #expect(throws: StoreError.self) { try IndexStore(path: "/nonexistent/dir/index.sqlite") }
        #expect(error?.description.hasPrefix("/nonexistent/dir/index.sqlite: cannot open the index:") == true)
    }
}

@Suite struct DebugFilePersistenceTests {
    @Test func keepsWhatAScanLearnedOfTheSymbolFolders() async throws {
        let symbols = Samples.folder.appendingPathComponent("Symbols")
        let store = try IndexStore.inMemory()
        let scan = DebugFileIndex(scanning: [symbols])
        try await store.saveDebugFiles(scan.files, replacing: [:])
        let known = try await store.loadDebugFiles()
        #expect(known == scan.files)
        #expect(DebugFileIndex(scanning: [symbols], known: known).filesRead == 0)
    }

    @Test func writesWhatChangedInTheSymbolFolders() async throws {
        let temporary = try TemporaryFolder("casefile-syms")
        defer { withExtendedLifetime(temporary) {} }
        let folder = temporary.url.appendingPathComponent("Symbols")
        let symbols = Samples.folder.appendingPathComponent("Symbols")
        try FileManager.default.copyItem(at: symbols, to: folder)
        let store = try IndexStore.inMemory()
        try await store.saveDebugFiles(DebugFileIndex(scanning: [folder]).files, replacing: [:])
        let known = try await store.loadDebugFiles()
        // One file gone, one changed, one new: the index holds exactly what a fresh scan finds.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("Fat/ShopApp"))
        let changed = folder.appendingPathComponent("ShopApp").path
        let later = Date(timeIntervalSinceNow: 60)
        try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: changed)
        try FileManager.default.copyItem(
            at: folder.appendingPathComponent("ShopApp"), to: folder.appendingPathComponent("ShopApp-copy"))
        let rescan = DebugFileIndex(scanning: [folder], known: known)
        #expect(rescan.filesRead == 2)
        try await store.saveDebugFiles(rescan.files, replacing: known)
        let after = try await store.loadDebugFiles()
        #expect(after == DebugFileIndex(scanning: [folder]).files)
        #expect(after[folder.appendingPathComponent("Fat/ShopApp").path] == nil)
        #expect(after.count == known.count)
    }
}
