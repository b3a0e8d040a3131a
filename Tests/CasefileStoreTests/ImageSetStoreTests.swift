import CasefileCore
import CasefileStore
import Foundation
import GRDB
import Testing

/// The index stores a set of system images once for every crash that lists it, and reads each crash back whole through
/// its sets.
@Suite final class ImageSetStoreTests {
    private let temporary: TemporaryFolder
    var database: URL { temporary.url.appendingPathComponent("index.sqlite") }

    init() throws {
        temporary = try TemporaryFolder("casefile-image-sets")
    }

    /// The sample `sample`, read as a run reads it, its crash listing the app and 20 system images (instead of the
    /// samples' three or four, which differ from sample to sample): UUIDs of OS build `build`, loaded one after
    /// another from `base`. The UUIDs of images 7 and 15 end in `c0`, a multiple of 32, and end a set; no other does.
    static func input(_ sample: URL, at path: String, base: UInt64, build: Int) throws -> IndexedInput {
        var input = try ReportCopiesTests.input(sample, at: path)
        input.reports[0].crashes[0].images.removeAll { !$0.isApp }
        #expect(input.reports[0].crashes[0].images.count == 1)
        for index in 0..<20 {
            let load = base + UInt64(index) * 0x20_0000
            input.reports[0].crashes[0].images.append(
                BinaryImage(
                    name: "lib\(index).dylib", path: "/usr/lib/system/lib\(index).dylib", arch: "arm64e",
                    uuid: "\(build)0000000-0000-0000-00\(index / 10)\(index % 10)-0000000000"
                        + (index % 8 == 7 ? "c0" : "1\(index % 8)"), loadAddress: load,
                    endAddress: load + 0x1f_ffff))
        }
        return input
    }

    static func sample(_ name: String) -> URL {
        Samples.folder.appendingPathComponent("Crashes/\(name)")
    }

    /// Indexes `inputs` in one run.
    func index(_ inputs: [IndexedInput], _ store: IndexStore) async throws {
        let run = try await store.beginRun(pipeline: "test", inbox: "inbox", startedAt: Date())
        for input in inputs { _ = try await store.record(input, run: run) }
        try await store.finishRun(run, summary: RunSummary(runID: run), finishedAt: Date())
    }

    /// Each set's id, in order, and the sets each report's crash names.
    func sets() async throws -> (sets: [String], crashes: [String: [String]]) {
        try await DatabaseQueue(path: database.path).read { db in
            (
                try String.fetchAll(db, sql: "SELECT id FROM image_sets ORDER BY id"),
                Dictionary(
                    uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT report_id, detail FROM crashes").map {
                        ($0[0] as String, try CrashDetailCodec.imageSetIDs(in: [UInt8]($0[1] as Data)))
                    })
            )
        }
    }

    @Test func storesASetOnceAndReadsEachCrashBackThroughIt() async throws {
        // Two crashes of OS build 1, slid differently (two boots); the first prepared as a run prepares it, the second
        // encoded by the writer. Then, in a second run, a crash of build 2.
        var cart = try Self.input(
            Self.sample("cart-total-iphone11-ios15.crash"), at: "inbox/cart.crash", base: 0x1_8000_0000, build: 1)
        cart.encodeCrashDetails()
        let cache = try Self.input(
            Self.sample("image-cache-iphonexr-ios14-plcrashreporter.crash"), at: "inbox/cache.crash",
            base: 0x1_8123_4000, build: 1)
        let bag = try Self.input(
            Self.sample("add-to-bag-iphone8-ios12-kscrash-applefmt.crash"), at: "inbox/bag.crash",
            base: 0x1_9000_0000, build: 2)
        let store = try IndexStore(path: database.path)
        try await index([cart, cache], store)
        let first = try await sets()
        #expect(first.sets.count == 2)
        #expect(first.crashes[cart.reports[0].id].map(Set.init) == Set(first.sets))
        #expect(first.crashes[cache.reports[0].id] == first.crashes[cart.reports[0].id])

        try await index([bag], try IndexStore(path: database.path))
        let second = try await sets()
        #expect(second.sets.count == 4)
        let bagSets = try #require(second.crashes[bag.reports[0].id])
        #expect(bagSets.count == 2)
        #expect(Set(bagSets).isDisjoint(with: first.sets))
        #expect(Set(bagSets).isSubset(of: second.sets))

        // Each crash comes back with every image at its own load address, and every thread.
        for input in [cart, cache, bag] {
            let crash = try #require(try store.crashes(reportID: input.reports[0].id).first)
            let detail = try store.crashDetail(crashID: crash.id)
            let parsed = input.reports[0].crashes[0]
            #expect(detail.images == parsed.images)
            #expect(detail.images.count == 21)
            #expect(detail.threads.map(\.frames.count) == parsed.threads.map(\.frames.count))
        }
    }

    /// A crash whose set is missing from the index is reported as that crash's error, not read without its images.
    @Test func aMissingSetIsTheCrashsError() async throws {
        let cart = try Self.input(
            Self.sample("cart-total-iphone11-ios15.crash"), at: "inbox/cart.crash", base: 0x1_8000_0000, build: 1)
        let store = try IndexStore(path: database.path)
        try await index([cart], store)
        let crash = try #require(try store.crashes(reportID: cart.reports[0].id).first)
        #expect(try store.crashDetail(crashID: crash.id).images.count == 21)
        try await DatabaseQueue(path: database.path).write { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: "DELETE FROM image_sets WHERE rowid = (SELECT MIN(rowid) FROM image_sets)")
        }
        let error = #expect(throws: StoreError.self) { try store.crashDetail(crashID: crash.id) }
        #expect(error?.reason.hasPrefix("crash \(crash.id): ") == true)
        #expect(error?.reason.contains("image set") == true)
    }

    /// The rows floor offers each crash's sets before its row, read from the blob the crash row holds: the copy holds
    /// the same sets, and each crash's blob decodes through them with every image.
    @Test func theRowsFloorCopiesTheSetsACrashNames() async throws {
        let cart = try Self.input(
            Self.sample("cart-total-iphone11-ios15.crash"), at: "inbox/cart.crash", base: 0x1_8000_0000, build: 1)
        let bag = try Self.input(
            Self.sample("add-to-bag-iphone8-ios12-kscrash-applefmt.crash"), at: "inbox/bag.crash",
            base: 0x1_9000_0000, build: 2)
        try await index([cart, bag], try IndexStore(path: database.path))
        let copy = temporary.url.appendingPathComponent("copy.sqlite").path

        _ = try RowsFloor.measure(source: database.path, destination: copy)

        let sql = "SELECT id, detail FROM image_sets ORDER BY id"
        let original = try DatabaseQueue(path: database.path).read { try Row.fetchAll($0, sql: sql) }
        let copied = try DatabaseQueue(path: copy).read { try Row.fetchAll($0, sql: sql) }
        // Two builds, each cut into two sets by the UUIDs ending in c0.
        #expect(original.count == 4)
        #expect(copied == original)
        // The copy has no migrations table to open it as an index by: its blobs are decoded with its own sets.
        let sets = Dictionary(
            uniqueKeysWithValues: copied.map {
                ($0[0] as String, CrashImageSet(id: $0[0], blob: [UInt8]($0[1] as Data)))
            })
        for input in [cart, bag] {
            let blob = try await DatabaseQueue(path: copy).read {
                try #require(
                    try Data.fetchOne(
                        $0, sql: "SELECT detail FROM crashes WHERE report_id = ?", arguments: [input.reports[0].id]))
            }
            #expect(
                try CrashDetailCodec.decode([UInt8](blob), imageSets: sets).images == input.reports[0].crashes[0].images
            )
        }
    }
}
