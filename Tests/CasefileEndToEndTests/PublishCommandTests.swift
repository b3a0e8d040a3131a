import Foundation
import Testing

/// `casefile publish` against a real HTTP server on loopback (``FakeTracker``).
@Suite final class PublishCommandTests {
    let work: URL
    let tracker: FakeTracker

    init() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-publish-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: work.appendingPathComponent("inbox"), withIntermediateDirectories: true)
        tracker = try FakeTracker()
    }

    deinit {
        tracker.stop()
        try? FileManager.default.removeItem(at: work)
    }

    private func pipeline(output: String = "out", reportsURL: String? = nil) throws -> String {
        let path = work.appendingPathComponent("pipeline-\(output).toml")
        try """
        version = 1
        [inbox]
        path = "inbox"
        [output]
        path = "\(output)"
        frames = false
        [tracker]
        url = "http://127.0.0.1:\(tracker.port)"
        repository = "shop/ios"
        token_env = "CASEFILE_TEST_TRACKER_TOKEN"
        labels = ["triage"]
        \(reportsURL.map { "reports_url = \"\($0)\"" } ?? "")
        """.write(to: path, atomically: true, encoding: .utf8)
        return path.path
    }

    private func add(_ sample: String) throws {
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: Casefile.sample("Crashes/\(sample)")),
            to: work.appendingPathComponent("inbox/\(sample)"))
    }

    private func publish(_ pipeline: String, dryRun: Bool = false) throws -> Casefile.Result {
        setenv("CASEFILE_TEST_TRACKER_TOKEN", "test-token-1", 1)
        return try Casefile.run(["publish"] + (dryRun ? ["--dry-run"] : []) + [pipeline], in: work)
    }

    @Test func opensOneIssuePerGroupThenUpdatesItInsteadOfOpeningAnother() throws {
        let pipeline = try pipeline(reportsURL: "https://casefile.example/out/reports")
        // Two crashes of two different bugs: the cart total's breakpoint and the image cache's.
        try add("cart-total-iphone14-ios16.ips")
        try add("image-cache-iphone15-ios17.ips")
        #expect(try Casefile.run(["run", pipeline], in: work).status == 0)

        let dry = try publish(pipeline, dryRun: true)
        #expect(dry.status == 0)
        #expect(dry.stdout.components(separatedBy: "would open:").count - 1 == 2)
        #expect(tracker.requests.isEmpty)

        let first = try publish(pipeline)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("2 opened, 0 updated"))
        #expect(tracker.issues.count == 2)
        #expect(tracker.requests.allSatisfy { $0.authorization == "Bearer test-token-1" })
        let cart = try #require(tracker.issues.first { $0.title.contains("CartViewModel") })
        #expect(cart.labels.contains("casefile") && cart.labels.contains("crash") && cart.labels.contains("new"))
        #expect(cart.labels.contains("triage"))
        #expect(cart.body.contains("<!-- casefile-fingerprint: "))
        // Report links point where the output is served, not at a relative path the tracker cannot follow.
        #expect(!cart.body.contains("](../reports/"))
        #expect(cart.body.contains("](https://casefile.example/out/reports/"))

        // The same bug again from another device (KSCrash): one more occurrence of the cart group.
        try add("cart-total-iphone12-ios15-kscrash.json")
        #expect(try Casefile.run(["run", pipeline], in: work).status == 0)
        // The tracker fails once: the payload stays and goes out with the next publish.
        tracker.fail(next: 1)
        let failed = try publish(pipeline)
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("HTTP 500"))
        let second = try publish(pipeline)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("0 opened, 1 updated"))
        #expect(tracker.issues.count == 2)
        let updated = try #require(tracker.issues.first { $0.number == cart.number })
        #expect(updated.comments.count == 1)
        #expect(updated.comments[0].contains("1 more occurrence, 2 in all"))

        // Nothing is sent twice.
        let before = tracker.requests.filter { $0.method != "GET" }.count
        let third = try publish(pipeline)
        #expect(third.stdout.contains("0 opened, 0 updated"))
        #expect(tracker.requests.filter { $0.method != "GET" }.count == before)
    }

    @Test func findsTheIssueByItsMarkerWhenTheIndexDoesNotKnowIt() throws {
        try add("cart-total-iphone14-ios16.ips")
        let first = try pipeline(output: "first")
        #expect(try Casefile.run(["run", first], in: work).status == 0)
        #expect(try publish(first).status == 0)
        #expect(tracker.issues.count == 1)
        // A second index (a lost database, another machine) over the same inbox.
        let second = try pipeline(output: "second")
        #expect(try Casefile.run(["run", second], in: work).status == 0)
        let result = try publish(second)
        #expect(result.stdout.contains("0 opened, 1 updated"), "\(result.stdout)")
        #expect(tracker.issues.count == 1)
    }

    @Test func everyPayloadValidatesAgainstTheOutboxSchema() throws {
        let validator = try JSONSchemaValidator.schema("outbox-v1.schema.json")
        try add("cart-total-iphone14-ios16.ips")
        try add("watchdog-8badf00d-ipad-ios11.crash")
        #expect(try Casefile.run(["run", try pipeline()], in: work).status == 0)
        let outbox = work.appendingPathComponent("out/outbox")
        let names = try FileManager.default.contentsOfDirectory(atPath: outbox.path).filter { $0.hasSuffix(".json") }
        #expect(names.count == 2)
        for name in names {
            let text = try String(contentsOf: outbox.appendingPathComponent(name), encoding: .utf8)
            let errors = validator.errors(of: try JSON.parse(text))
            #expect(errors.isEmpty, "\(name): \(errors.prefix(3))")
            // Run 1, then the fingerprint the marker carries.
            let fingerprint = String(name.dropFirst("00000001-".count).dropLast(".json".count))
            #expect(name.hasPrefix("00000001-"))
            #expect(text.contains("<!-- casefile-fingerprint: \(fingerprint) -->"))
            // No reports_url: the report IDs stay, as text.
            #expect(!text.contains("../reports/"))
        }
        #expect(!validator.errors(of: try JSON.parse(#"{"schema": "casefile-outbox/1"}"#)).isEmpty)
    }

    @Test func refusesToPublishWithoutARepository() throws {
        let path = work.appendingPathComponent("bare.toml")
        try "version = 1\n[inbox]\npath = \"inbox\"\n".write(to: path, atomically: true, encoding: .utf8)
        let result = try Casefile.run(["publish", path.path], in: work)
        #expect(result.status == 2)
        #expect(result.stderr.contains("[tracker] repository is not set"))
    }
}
