import Foundation
import GRDB
import Testing

/// `casefile groups --format json`, `--limit`, and `casefile show GROUP --format json`, through the built binary:
/// the documents follow `Schemas/groups-v1.schema.json` and `Schemas/group-v1.schema.json`, and say what the inputs
/// say.
@Suite final class GroupJSONTests {
    let work: URL
    let inbox: URL
    let pipeline: String
    let symbols = Casefile.repository.appendingPathComponent("SampleReports/Symbols").path

    init() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-group-json-\(UUID().uuidString)")
        inbox = work.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        pipeline = try Casefile.writePipeline(in: work, symbols: symbols)
        // The same trap in apply_discount from three devices in three formats (one group), and two other crashes.
        for name in [
            "cart-total-iphone14-ios16.ips", "cart-total-iphone11-ios15.crash",
            "cart-total-iphone12-ios15-kscrash.json",
            "image-cache-iphone15-ios17.ips", "watchdog-8badf00d-ipad-ios11.crash",
        ] {
            try FileManager.default.copyItem(
                at: URL(fileURLWithPath: Casefile.sample("Crashes/\(name)")), to: inbox.appendingPathComponent(name))
        }
        #expect(try Casefile.run(["run", pipeline], in: work).status == 0)
    }

    deinit {
        try? FileManager.default.removeItem(at: work)
    }

    func run(_ arguments: [String]) throws -> Casefile.Result {
        try Casefile.run(arguments + ["--pipeline", pipeline], in: work)
    }

    /// The triage document of one inbox file: its report id and its crash's primary fingerprint.
    func triage(_ name: String) throws -> (id: String, fingerprint: String) {
        let report = try Casefile.triagedReport(inbox.appendingPathComponent(name).path, symbols: symbols)
        let fingerprint = try #require(report["crashes"]?.array?.first?["fingerprint"]?.string)
        return (try #require(report["id"]?.string), fingerprint)
    }

    @Test func listsGroupsAsJSONMostOccurrencesFirst() throws {
        let cart = try triage("cart-total-iphone14-ios16.ips").fingerprint
        let result = try run(["groups", "--format", "json"])
        #expect(result.status == 0)
        let document = try JSON.parse(result.stdout)
        let schema = try JSONSchemaValidator.schema("groups-v1.schema.json")
        #expect(schema.errors(of: document).isEmpty, "\(schema.errors(of: document).prefix(3))")
        #expect(document["total"] == .number(3))
        #expect(document["limit"] == .number(50))
        let groups = try #require(document["groups"]?.array)
        #expect(groups.count == 3)
        // The three cart-total reports are one group, listed first.
        #expect(groups[0]["fingerprint"]?.string == cart)
        #expect(groups[0]["occurrences"] == .number(3))
        #expect(groups[0]["kind"]?.string == "crash")
        #expect(groups[0]["status"]?.string == "new")
        #expect(groups[0]["title"]?.string == "EXC_BREAKPOINT (SIGTRAP) in apply_discount")
        #expect(groups[0]["firstRun"] == .number(1) && groups[0]["lastRun"] == .number(1))
        #expect(groups.dropFirst().allSatisfy { $0["occurrences"] == .number(1) })
        // The watchdog kill is a termination, not a crash.
        #expect(groups.contains { $0["kind"]?.string == "termination" })
        // The schema refuses what the document must not be.
        #expect(!schema.errors(of: try JSON.parse(#"{"schemaVersion": 1, "generator": "casefile"}"#)).isEmpty)
    }

    @Test func aLimitSaysHowManyMoreMatched() throws {
        let limited = try JSON.parse(try run(["groups", "--format", "json", "--limit", "1"]).stdout)
        #expect(limited["groups"]?.array?.count == 1)
        #expect(limited["total"] == .number(3))
        #expect(limited["limit"] == .number(1))
        let all = try JSON.parse(try run(["groups", "--format", "json", "--limit", "0"]).stdout)
        #expect(all["groups"]?.array?.count == 3)
        #expect(all["limit"] == nil)

        let table = try run(["groups", "--limit", "2"]).stdout.split(separator: "\n")
        // The header, two groups, and the line that says the list was cut.
        #expect(table.count == 4)
        #expect(table.last == "… 1 more group (--limit 0 lists all 3)")
        #expect(try run(["groups", "--limit", "3"]).stdout.split(separator: "\n").count == 4)
        #expect(try run(["groups", "--limit", "-2"]).status == 2)
    }

    @Test func mergedGroupsAreListedWhenAskedFor() throws {
        let cart = try triage("cart-total-iphone14-ios16.ips").fingerprint
        let imageCache = try triage("image-cache-iphone15-ios17.ips").fingerprint
        #expect(try run(["merge-groups", cart, imageCache]).status == 0)
        let listed = try JSON.parse(try run(["groups", "--format", "json"]).stdout)
        #expect(listed["total"] == .number(2))
        let merged = try JSON.parse(try run(["groups", "--format", "json", "--status", "merged"]).stdout)
        #expect(merged["groups"]?.array?.map { $0["fingerprint"]?.string } == [imageCache])
        #expect(merged["groups"]?.array?.first?["status"]?.string == "merged")
    }

    @Test func showsAGroupAsJSON() throws {
        let reports = try [
            "cart-total-iphone14-ios16.ips", "cart-total-iphone11-ios15.crash",
            "cart-total-iphone12-ios15-kscrash.json",
        ].map(triage)
        let result = try run(["show", String(reports[0].fingerprint.prefix(8)), "--format", "json"])
        #expect(result.status == 0)
        let document = try JSON.parse(result.stdout)
        let schema = try JSONSchemaValidator.schema("group-v1.schema.json")
        #expect(schema.errors(of: document).isEmpty, "\(schema.errors(of: document).prefix(3))")
        #expect(document["group"]?["fingerprint"]?.string == reports[0].fingerprint)
        #expect(document["group"]?["occurrences"] == .number(3))
        // Read off the three reports: all 2.3.1 (412); iOS 16.5, 15.7 and 15.4; iPhone14,2, iPhone12,1, iPhone13,2.
        #expect(document["appVersions"] == .array([.object(["value": .string("2.3.1 (412)"), "count": .number(3)])]))
        #expect(
            Set(document["osVersions"]?.array?.compactMap { $0["value"]?.string } ?? []) == ["16.5", "15.7", "15.4"])
        #expect(
            Set(document["devices"]?.array?.compactMap { $0["value"]?.string } ?? [])
                == ["iPhone14,2", "iPhone12,1", "iPhone13,2"])
        #expect(document["osVersions"]?.array?.allSatisfy { $0["count"] == .number(1) } == true)
        let listed = document["reports"]?.array ?? []
        #expect(Set(listed.compactMap { $0["id"]?.string }) == Set(reports.map(\.id)))
        #expect(Set(listed.compactMap { $0["format"]?.string }).count == 3)
        #expect(listed.allSatisfy { $0["summaryPath"]?.string?.hasPrefix("reports/") == true })
        // Keyed by the trap's frame and its two in-app callers.
        #expect(document["grouping"]?["frames"]?.array?.first?["function"]?.string == "apply_discount")
        #expect(document["aliases"] == .array([]))
    }

    @Test func theVersionLineNamesTheIndexsLastMigration() throws {
        // The migrations the run applied to its new index, by number (`v14-…` → 14).
        let database = try DatabaseQueue(path: work.appendingPathComponent("out/casefile.sqlite").path)
        let names = try database.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }
        let applied = try #require(names.compactMap { Int($0.dropFirst().prefix { $0 != "-" }) }.max())
        let version = try Casefile.run(["--version"]).stdout
        #expect(version.contains("index migrations v1–v\(applied),"), "\(version)")
        #expect(version.contains("groups JSON schema 1") && version.contains("group JSON schema 1"))
        #expect(version.contains("report JSON schema 1") && version.contains("regroup JSON schema 1"))
    }

    @Test func aDamagedGroupsTableIsAnUnreadableIndex() throws {
        let path = work.appendingPathComponent("out/casefile.sqlite").path
        let (root, pageSize) = try DatabaseQueue(path: path).read { db in
            (
                try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'groups'") ?? 0,
                try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
            )
        }
        // The groups table's first page overwritten: the index opens, and listing its groups fails in SQLite.
        let file = try #require(FileHandle(forWritingAtPath: path))
        try file.seek(toOffset: UInt64((root - 1) * pageSize))
        try file.write(contentsOf: Data(repeating: 7, count: pageSize))
        try file.close()
        for format in ["table", "json"] {
            let result = try run(["groups", "--format", format])
            #expect(result.status == 3, "\(format)")
            #expect(result.stderr.hasPrefix("casefile: the index cannot be read: "), "\(result.stderr)")
            #expect(result.stderr.contains("malformed"), "\(result.stderr)")
        }
    }
}
