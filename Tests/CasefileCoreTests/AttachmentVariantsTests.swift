import CasefileCore
import Foundation
import Testing

/// The variations of the in-house attachment shapes SampleReports/README.md accepts, each beside a copy of the
/// checkout recording (a 200 from `/v1/shipping-options` at 0.850 s, a 500 from `/v1/orders` at 13.150 s) in a
/// folder, read through ``Triage``.
@Suite struct AttachmentVariantsTests {
    /// A folder holding the checkout recording, its `recordingStart` (unless `nil`) and `files`.
    private func report(
        start: String? = "2026-11-20T13:02:00.000+01:00", files: [String: String],
        saved encoding: SavedEncoding = .utf8
    ) throws -> (Report, [String]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-variants-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let recording = folder.appendingPathComponent("checkout.clue")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Samples.checkoutFolder), to: recording)
        if let start {
            try Data(#"{"recordingStart": "\#(start)"}"#.utf8)
                .write(to: recording.appendingPathComponent("Info/info_session.json"))
        }
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(encoding.bytes(text)).write(to: url)
        }
        let output = try Triage().reports(at: folder.path)
        let report = try #require(output.reports.count == 1 ? output.reports.first : nil)
        return (report, output.notes)
    }

    /// How an attachment's text is saved: as UTF-8, or as a Windows editor or shell saves it, with a byte order mark.
    enum SavedEncoding: CaseIterable, Sendable {
        case utf8, utf8WithMark, utf16LittleEndian, utf16BigEndian

        func bytes(_ text: String) -> [UInt8] {
            switch self {
            case .utf8: return Array(text.utf8)
            case .utf8WithMark: return [0xEF, 0xBB, 0xBF] + Array(text.utf8)
            case .utf16LittleEndian: return SavedText.utf16(text, littleEndian: true)
            case .utf16BigEndian: return SavedText.utf16(text, littleEndian: false)
            }
        }
    }

    private func times(_ report: Report, _ kind: String) -> [Double] {
        report.timeline.events.filter { $0.kindName == kind }.map(\.timestamp)
    }

    @Test func aNetworkLogInJSONLinesWithEpochSecondsAndATransportError() throws {
        // 1795176120 is 12:02:00Z, the recording's start.
        let (report, notes) = try report(files: [
            "debug/requests.jsonl": """
            {"request": {"method": "post", "url": "https://api.shop.example/v1/orders", "startedAt": 1795176132.9}, "response": {"status": 500, "endedAt": 1795176133.15}}
            {"method": "GET", "url": "https://api.shop.example/v1/banners", "timestamp": 1795176140, "duration": 0.5, "error": {"domain": "NSURLErrorDomain", "code": -1009, "description": "offline"}}
            not json at all
            """
        ])
        #expect(notes.isEmpty)
        let exchanges: [(Double, NetworkExchange)] = report.timeline.events.compactMap { event in
            if case .network(let exchange) = event.kind { (event.timestamp, exchange) } else { nil }
        }
        try #require(exchanges.count == 3)
        #expect(exchanges[1].1.method == "POST")
        #expect(abs((exchanges[1].1.requestAt ?? 0) - 12.9) < 1e-3)
        // Sent at 20 s, answered 0.5 s later with an error: placed at 20.5 s.
        #expect(abs(exchanges[2].0 - 20.5) < 1e-3)
        #expect(exchanges[2].1.error?.code == -1009)
        #expect(report.correlation.chains.map(\.exchange.failure).last == "transport error NSURLErrorDomain -1009")
        #expect(
            report.warnings.contains {
                $0.file == "debug/requests.jsonl" && $0.line == 3 && $0.message.contains("invalid JSON")
            })
    }

    @Test func wrappedRecordsWithLocalTimesAndPlainToggles() throws {
        let (report, _) = try report(files: [
            "dump/analytics.json": #"""
            {"events": [{"eventName": "opened", "date": "2026-11-20 13:02:03.250"},
             {"eventName": "synced", "date": "2026-11-20T07:02:07.5-0500"}]}
            """#,
            "dump/push.json": #"[{"title": "Sale", "body": "Today only", "timestamp": "13:02:04"}]"#,
            "dump/featureToggles.json": #"{"darkMode": true, "checkoutVariant": "B"}"#,
        ])
        // A local date-time without a zone against the local start; 07:02:07.5 at −05:00 is 12:02:07.5Z, 7.5 s after
        // the start's instant; a bare time of day against its time of day.
        #expect(times(report, "analytics") == [3.25, 7.5])
        #expect(times(report, "push") == [4.0])
        #expect(
            report.attachments.toggles == [
                .init(name: "darkMode", value: .bool(true)), .init(name: "checkoutVariant", value: .string("B")),
            ])
    }

    @Test func oneDebugMenuFileWithSections() throws {
        let (report, _) = try report(files: [
            "debug-menu.json": """
            {"app": {"version": "2.4.0", "build": 420},
             "featureFlags": [{"key": "newCheckoutFlow", "isEnabled": false}],
             "analytics": [{"name": "cart_viewed", "timestamp": "2026-11-20T12:02:01Z"}],
             "pushNotifications": [{"aps": {"alert": "Back in stock"}, "receivedAt": 1795176126000}]}
            """
        ])
        #expect(report.attachments.appVersion == "2.4.0")
        #expect(report.attachments.appBuild == "420")
        #expect(report.attachments.toggles == [.init(name: "newCheckoutFlow", value: .bool(false))])
        #expect(times(report, "analytics") == [1.0])
        #expect(times(report, "push") == [6.0])
        let push = report.timeline.events.compactMap { event in
            if case .push(let push) = event.kind { push } else { nil }
        }
        #expect(push.first?.body == "Back in stock")
    }

    @Test func aResponseTheAppLoggedAsAnErrorIsAFailure() throws {
        let (report, _) = try report(files: [
            "app.log": """
            13:02:00.900 ERROR [Network] ShippingService.load():12 - decoding /v1/shipping-options failed: keyNotFound(price)
            """
        ])
        let chains = report.correlation.chains
        try #require(chains.count == 2)
        #expect(chains[0].exchange.template == "/v1/shipping-options?cart")
        #expect(chains[0].exchange.status == 200)
        #expect(chains[0].exchange.failure == "app logged an error")
        #expect(chains[0].exchange.description == "/v1/shipping-options?cart → 200, app logged an error")
        #expect(
            chains[0].evidence.first
                == "the app logged an error 0.05 s after the response: decoding /v1/shipping-options failed: keyNotFound(price)"
        )
        // The log line made the failure; it is not also its follow-up.
        #expect(chains[0].followUps.allSatisfy { $0.kind != .errorLog })
        #expect(chains[1].exchange.failure == "HTTP 500")
    }

    /// An app log, a debug-menu dump and a `Podfile.lock` saved on Windows (Notepad's "Unicode" or "UTF-8 with BOM",
    /// PowerShell's `>`; lines ending in CRLF) are read as the same files saved as UTF-8 with LF: the log's error line
    /// (whose context holds an emoji, two UTF-16 units) makes the 200 from `/v1/shipping-options` at 0.850 s a
    /// failure, the dump gives its toggles, and the lock file its two top-level pods (the dependency indented under
    /// Firebase/Analytics is a requirement, not an installed pod).
    @Test(arguments: SavedEncoding.allCases, ["\n", "\r\n"])
    func attachmentsSavedOnWindows(_ encoding: SavedEncoding, lineEnd: String) throws {
        let files = [
            "app.log": """
            13:02:00.100 INFO [Cart-🛒] CartViewModel.load():40 - cart loaded
            13:02:00.900 ERROR [Network] ShippingService.load():12 - decoding /v1/shipping-options failed
            """,
            "dump/featureToggles.json": #"{"darkMode": true}"#,
            "dump/Podfile.lock": """
            PODS:
              - Alamofire (5.8.1)
              - Firebase/Analytics (10.18.0):
                - FirebaseCore (= 10.18.0)

            DEPENDENCIES:
              - Alamofire

            """,
        ]
        let (report, notes) = try report(
            files: files.mapValues { $0.replacingOccurrences(of: "\n", with: lineEnd) }, saved: encoding)
        #expect(notes.isEmpty)
        let logged = report.timeline.events.compactMap { event in
            if case .log(let line) = event.kind { line } else { nil }
        }
        #expect(logged.map(\.message) == ["cart loaded", "decoding /v1/shipping-options failed"])
        #expect(logged.first?.context == "Cart-🛒")
        #expect(report.correlation.chains.first?.exchange.template == "/v1/shipping-options?cart")
        #expect(report.correlation.chains.first?.exchange.failure == "app logged an error")
        #expect(report.attachments.toggles == [.init(name: "darkMode", value: .bool(true))])
        #expect(
            report.attachments.libraries == [
                .init(name: "Alamofire", version: "5.8.1"), .init(name: "Firebase/Analytics", version: "10.18.0"),
            ])
    }

    @Test func withoutARecordingStartRecordsAreKeptAtTheEndWithAWarning() throws {
        let (report, _) = try report(
            start: nil,
            files: [
                "debug/analytics.json": #"[{"name": "a", "timestamp": 1795176121}, {"name": "b"}]"#
            ])
        let events = report.timeline.events.filter { $0.kindName == "analytics" }
        #expect(events.count == 2)
        #expect(events.allSatisfy { !$0.timeIsRecorded })
        #expect(
            report.warnings.contains {
                $0.file == "debug/analytics.json"
                    && $0.message
                        == "2 records not aligned: the report has no Info/info_session.json \"recordingStart\"; placed at the end"
            })
    }

    @Test func attachmentsAloneAreQuarantinedWithTheirReason() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-variants-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"[{"method": "GET", "url": "https://api.shop.example/v1/cart", "statusCode": 200}]"#.utf8)
            .write(to: folder.appendingPathComponent("network-log.json"))
        #expect {
            try Triage().reports(at: folder.path)
        } throws: { error in
            (error as? InputError)?.reason
                == "only attachments (app log, debug-menu dump, data snapshots) and no report to attach them to: 'network-log.json'"
        }
    }
}
