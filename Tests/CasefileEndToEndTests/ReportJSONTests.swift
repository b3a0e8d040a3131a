import Foundation
import GRDB
import Testing

/// `casefile show REPORT --format json` through the built binary: what the index holds of a report, following
/// `Schemas/report-v1.schema.json` and saying what the input says.
@Suite final class ReportJSONTests {
    let work: URL
    let inbox: URL
    let pipeline: String
    let symbols = Casefile.repository.appendingPathComponent("SampleReports/Symbols").path

    init() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent(
            "casefile-report-json-\(UUID().uuidString)")
        inbox = work.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        pipeline = try Casefile.writePipeline(in: work, symbols: symbols)
        for sample in [
            "Crashes/cart-total-iphone14-ios16.ips", "checkout-500.clue.zip",
            "E2A7C3D4-1B2F-4A5E-9C8D-7F6E5D4C3B2A.clue",
        ] {
            let source = URL(fileURLWithPath: Casefile.sample(sample))
            try FileManager.default.copyItem(at: source, to: inbox.appendingPathComponent(source.lastPathComponent))
        }
        #expect(try Casefile.run(["run", pipeline], in: work).status == 0)
    }

    deinit {
        try? FileManager.default.removeItem(at: work)
    }

    /// The report of one inbox file as `casefile triage --format json` reads it.
    func triage(_ name: String) throws -> JSON {
        try Casefile.triagedReport(inbox.appendingPathComponent(name).path, symbols: symbols)
    }

    /// `show REPORT --format json`, checked against the schema.
    func show(_ report: String) throws -> JSON {
        let result = try Casefile.run(
            ["show", String(report.prefix(10)), "--format", "json", "--pipeline", pipeline], in: work)
        #expect(result.status == 0, "\(result.stderr)")
        let document = try JSON.parse(result.stdout)
        let schema = try JSONSchemaValidator.schema("report-v1.schema.json")
        #expect(schema.errors(of: document).isEmpty, "\(schema.errors(of: document).prefix(3))")
        return document
    }

    @Test func aCrashWithEveryThreadAndImage() throws {
        let triaged = try triage("cart-total-iphone14-ios16.ips")
        let id = try #require(triaged["id"]?.string)
        let document = try show(id)
        #expect(document["report"]?["id"]?.string == id)
        #expect(document["report"]?["format"]?.string == "ips")
        #expect(document["report"]?["inputPath"]?.string?.hasSuffix("/inbox/cart-total-iphone14-ios16.ips") == true)
        // The header line says ShopApp 2.3.1 (412), com.example.shopapp, iPhone OS 16.5; the body an iPhone14,2.
        let report = try #require(document["report"])
        #expect(report["appName"]?.string == "ShopApp" && report["appBundleID"]?.string == "com.example.shopapp")
        #expect(report["appVersion"]?.string == "2.3.1" && report["appBuild"]?.string == "412")
        #expect(report["systemName"]?.string == "iPhone OS" && report["systemVersion"]?.string == "16.5")
        #expect(report["deviceModel"]?.string == "iPhone14,2")
        // Read off the report: incident 3C1F0A52-…, EXC_BREAKPOINT (SIGTRAP) on thread 0 of two threads of six and one
        // frames; five used images, the last an empty placeholder (source "A", base 0, a null UUID) that names none.
        let crash = try #require(document["crashes"]?.array?.first)
        #expect(crash["incidentID"]?.string == "3C1F0A52-6B7E-4D2A-9E51-7A0B2C4D6E81")
        #expect(crash["exceptionType"]?.string == "EXC_BREAKPOINT")
        #expect(crash["signal"]?.string == "SIGTRAP")
        #expect(crash["crashedThread"] == .number(0))
        #expect(crash["threads"]?.array?.map { $0["frames"]?.array?.count } == [6, 1])
        #expect(crash["threads"]?.array?.first?["crashed"] == .bool(true))
        #expect(crash["images"]?.array?.count == 4)
        // Its group is the one triage keys it by.
        let fingerprint = triaged["crashes"]?.array?.first?["fingerprint"]?.string
        #expect(document["groups"]?.array?.map { $0["fingerprint"]?.string } == [fingerprint])
        #expect(document["chains"] == .array([]) && document["events"] == .array([]))
    }

    @Test func aRecordingWithItsTimelineAndChain() throws {
        let triaged = try triage("checkout-500.clue.zip")
        let id = try #require(triaged["id"]?.string)
        let result = try Casefile.run(
            ["show", String(id.prefix(10)), "--format", "json", "--pipeline", pipeline], in: work)
        let document = try show(id)
        // The POST to /v1/orders answered 500 at 13.15 s, after the tap on "Pay now".
        let chain = try #require(document["chains"]?.array?.first)
        #expect(document["chains"]?.array?.count == 1)
        #expect(chain["failure"]?.string == "HTTP 500")
        #expect(chain["endpoint"]?.string == "/v1/orders")
        #expect(chain["trigger"]?.string == "Tap \"Pay now\"")
        #expect(abs((chain["failureAt"]?.number ?? 0) - 13.15) < 0.001)
        let events = try #require(document["events"]?.array)
        #expect(events.count == triaged["events"]?.array?.count)
        #expect(document["report"]?["eventCount"] == .number(Double(events.count)))
        // The chain points into the timeline: its failed request is the 500.
        let exchange = try #require(chain["exchangeSeq"]?.number).rounded()
        #expect(events[Int(exchange)]["network"]?["statusCode"] == .number(500))
        #expect(events[Int(exchange)]["network"]?["url"]?.string?.hasSuffix("/v1/orders") == true)
        // The session cookie the server set was masked before it was indexed.
        #expect(!result.stdout.contains("REDACT-ME"))
        #expect(document["crashes"] == .array([]))
        #expect(document["groups"]?.array?.first?["kind"]?.string == "failure")
    }

    @Test func whatCouldNotBeReadIsListed() throws {
        let id = try #require(try triage("E2A7C3D4-1B2F-4A5E-9C8D-7F6E5D4C3B2A.clue")["id"]?.string)
        let document = try show(id)
        // Line 2 of the view log is cut off inside a string; line 1 of the interaction log has no timestamp.
        let warnings = document["warnings"]?.array ?? []
        #expect(document["report"]?["warningCount"] == .number(Double(warnings.count)))
        #expect(
            warnings.contains {
                $0["file"]?.string == "Modules/module_view.json" && $0["line"] == .number(2)
                    && $0["message"]?.string?.contains("invalid JSON") == true
            })
        #expect(
            warnings.contains {
                $0["file"]?.string == "Modules/module_interaction.json" && $0["line"] == .number(1)
                    && $0["message"]?.string?.contains("timestamp") == true
            })
        #expect(
            try show(try #require(try triage("cart-total-iphone14-ios16.ips")["id"]?.string))["warnings"] == .array([]))
    }

    @Test func anUnknownReferenceIsAUsageError() throws {
        let result = try Casefile.run(["show", "ffffffffff", "--format", "json", "--pipeline", pipeline], in: work)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("no single group or report matches 'ffffffffff'"))
    }

    @Test func aDamagedCrashBlobIsAnUnreadableIndexNotAUsageError() throws {
        let id = try #require(try triage("cart-total-iphone14-ios16.ips")["id"]?.string)
        let database = try DatabaseQueue(path: work.appendingPathComponent("out/casefile.sqlite").path)
        // A zstd frame header and nothing after it.
        try database.write { db in try db.execute(sql: "UPDATE crashes SET detail = x'28b52ffd0000'") }
        for options in [["--format", "json"], ["--threads"]] {
            let result = try Casefile.run(
                ["show", String(id.prefix(10))] + options + ["--pipeline", pipeline], in: work)
            #expect(result.status == 3, "\(options)")
            #expect(result.stderr.hasPrefix("casefile: "), "\(options): \(result.stderr)")
            #expect(result.stderr.contains("crash 1: cannot decompress"), "\(options): \(result.stderr)")
        }
    }
}
