import CasefileCore
import Foundation
import Testing

/// A whole in-house bug report (`SampleReports/checkout-bugreport.zip`, written by `Scripts/make-chain-fixtures.py`,
/// section 7): the checkout recording that started at 13:02:00.000+01:00 (12:02:00Z), an app log, a debug menu's
/// dump and a data-snapshot folder. Every expected value below is read from the files of that archive.
@Suite struct DebugMenuTests {
    private func report() throws -> Report {
        let output = try Triage().reports(at: Samples.sample("checkout-bugreport.zip"))
        #expect(output.notes.isEmpty)
        return try #require(output.reports.count == 1 ? output.reports.first : nil)
    }

    private func exchanges(_ report: Report) -> [(event: TimelineEvent, exchange: NetworkExchange)] {
        report.timeline.events.compactMap { event in
            if case .network(let exchange) = event.kind { (event, exchange) } else { nil }
        }
    }

    @Test func networkLogRequestsMergeIntoTheRecordedExchanges() throws {
        let exchanges = exchanges(try report())
        // Two exchanges recorded by Clue, and the log's third request, which the recording does not have.
        try #require(exchanges.count == 3)
        let shipping = exchanges[0].exchange
        #expect(shipping.method == "GET")
        #expect(shipping.requestSource == "DebugMenu/network-log.json:2")
        let pay = exchanges[1]
        #expect(pay.event.file == "Modules/module_network.json")
        #expect(pay.exchange.method == "POST")
        #expect(pay.exchange.statusCode == 500)
        #expect(pay.exchange.requestSource == "DebugMenu/network-log.json:22")
        // Sent at 12:02:12.530Z: 12.53 s into the recording; the recording has the response at 13.150 s.
        #expect(abs((pay.exchange.requestAt ?? 0) - 12.53) < 1e-6)
        #expect(abs((pay.exchange.latency ?? 0) - 0.62) < 1e-3)
        #expect(
            pay.exchange.requestHeaders.map(\.name) == ["Content-Type", "Authorization", "Cookie", "X-FEATURE-NAME"])
        // "Bearer eyJhbGciOiJIUzI1NiJ9.c2VjcmV0" keeps its scheme; the cookie "sid=s3cr3t-session" has none.
        #expect(pay.exchange.requestHeaders[1].value == "Bearer …[redacted]")
        #expect(pay.exchange.requestHeaders[2].value == "[redacted]")
        #expect(
            pay.exchange.requestBody
                == #"{"cart":"8812","payment":{"cardNumber":"[redacted]","cvv":"[redacted]"},"coupon":"SPRING"}"#)
        // Epoch milliseconds 1795176135000 are 15.0 s into the recording.
        let recommendations = exchanges[2]
        #expect(recommendations.event.file == "DebugMenu/network-log.json")
        #expect(recommendations.event.line == 56)
        #expect(abs(recommendations.event.timestamp - 15.0) < 1e-6)
        #expect(recommendations.exchange.statusCode == 404)
    }

    @Test func aLoggedRequestWithNoTapBeforeItsSendTimeIsBackgroundTraffic() throws {
        let chains = try report().correlation.chains
        try #require(chains.count == 2)
        #expect(chains[0].trigger?.label == "Pay now")
        #expect(chains[0].exchange.method == "POST")
        #expect(chains[0].exchange.feature == "Checkout")
        #expect(chains[0].evidence.contains("the request was sent 0.05 s after the tap (recorded send time)"))
        // Sent at 14.8 s; the last tap ("Pay now") ended at 12.483 s, over a second before.
        #expect(chains[1].trigger == nil)
        #expect(chains[1].exchange.template == "/v1/recommendations?user")
        #expect(chains[1].exchange.feature == "Recommendations")
        #expect(chains[1].evidence.first?.hasPrefix("no tap in the 1 s before the request was sent at 14.8 s") == true)
    }

    @Test func theCurlLineCarriesNoCredential() throws {
        let text = ReportSummary().render(try report())
        let replay = try #require(text.split(separator: "\n").first { $0.contains("replay: `curl -X POST") })
        #expect(replay.contains("-H 'X-FEATURE-NAME: Checkout'"))
        #expect(replay.contains("'https://api.shop.example/v1/orders'"))
        #expect(replay.contains("(left out: Authorization, Cookie)"))
        for secret in ["Authorization:", "Cookie:", "eyJhbGci", "s3cr3t-session", "4111111111111111", "\"123\""] {
            #expect(!replay.contains(secret), "\(secret) in \(replay)")
        }
        for secret in ["eyJhbGci", "s3cr3t-session", "4111111111111111", "tok-991"] {
            #expect(!text.contains(secret), "\(secret) in the summary")
        }
    }

    @Test func analyticsAndPushNotificationsLandOnTheRecordingClock() throws {
        let events = try report().timeline.events
        let analytics: [(Double, AnalyticsEvent)] = events.compactMap { event in
            if case .analytics(let analytics) = event.kind { (event.timestamp, analytics) } else { nil }
        }
        try #require(analytics.count == 3)
        #expect(analytics.map(\.1.name) == ["checkout_viewed", "pay_tapped", "payment_failed"])
        #expect(analytics.map(\.1.destination) == ["Firebase", "Amplitude", "Firebase"])
        // Epoch seconds START + 1.0 and + 12.5; epoch milliseconds (START + 13.2) × 1000.
        #expect(zip(analytics.map(\.0), [1.0, 12.5, 13.2]).allSatisfy { abs($0 - $1) < 1e-3 })
        // "tok-991" keeps its kind prefix.
        #expect(analytics[2].1.parameters?["session_token"]?.string == "tok-…[redacted]")
        #expect(analytics[2].1.parameters?["code"]?.int == 500)
        let pushes: [(Double, PushNotification)] = events.compactMap { event in
            if case .push(let push) = event.kind { (event.timestamp, push) } else { nil }
        }
        try #require(pushes.count == 1)
        #expect(abs(pushes[0].0 - 5.0) < 1e-6)
        #expect(pushes[0].1.title == "Your cart is waiting")
        #expect(pushes[0].1.body == "Complete your order for 10% off")
        #expect(pushes[0].1.category == "CART_REMINDER")
    }

    @Test func versionTogglesAndLibrariesComeFromTheDump() throws {
        let report = try report()
        #expect(report.app?.version == "2.3.1")
        #expect(report.app?.build == "412")
        #expect(report.app?.bundleID == "com.example.shop")
        let attachments = report.attachments
        #expect(attachments.featureNames == ["Checkout", "Recommendations"])
        #expect(
            attachments.toggles == [
                .init(name: "newCheckoutFlow", value: .bool(true)), .init(name: "applePay", value: .bool(false)),
                .init(name: "paymentRetryCount", value: .int(2)),
            ])
        // The PODS section only: DEPENDENCIES' "Alamofire (~> 5.8)" is a requirement, not a version.
        #expect(
            attachments.libraries.map { "\($0.name) \($0.version)" } == [
                "Alamofire 5.8.1", "Firebase/Analytics 10.18.0", "GoogleUtilities/Environment 7.12.0",
                "SDWebImage 5.18.5",
            ])
    }

    @Test func snapshotsAreCheckedAgainstTheRegistry() throws {
        let report = try report()
        let snapshots = try #require(report.attachments.snapshots)
        #expect(snapshots.folder == "Snapshots")
        #expect(
            snapshots.modules == [
                .init(name: "Checkout", recorded: ["GetCart", "CreateOrder"], missing: ["PayOrder"]),
                .init(name: "Catalog", recorded: ["GetProducts"], missing: []),
            ])
        #expect(snapshots.unregistered == ["Telemetry"])
        let cart = try #require(snapshots.payloads.first { $0.operation == "GetCart" })
        #expect(cart.identifier == "8812")
        #expect(cart.size == #"{"id": "8812", "items": [{"sku": "A-1", "qty": 2}], "total": 54.9}"#.utf8.count)
        #expect(cart.shape == "{id: string, items: [{sku: string, qty: number}], total: number}")
        #expect(snapshots.payloads.first { $0.operation == "Telemetry" }?.shape == "not JSON")
        // Each payload sits on the timeline at its file's modification time (the zip's UTC timestamps).
        let times: [String: Double] = Dictionary(
            uniqueKeysWithValues: report.timeline.events.compactMap { event in
                if case .snapshot(let payload) = event.kind { (payload.operation, event.timestamp) } else { nil }
            })
        #expect(times == ["GetProducts": 1, "GetCart": 2, "CreateOrder": 13, "Telemetry": 20])
    }

    @Test func theSummaryShowsTheAttachments() throws {
        let text = ReportSummary().render(try report())
        #expect(text.contains("| App | com.example.shop 2.3.1 (412) |"))
        #expect(
            text.contains(
                "- Feature toggles: `newCheckoutFlow` = `true`, `applePay` = `false`, `paymentRetryCount` = `2`"))
        #expect(text.contains("| Checkout | `PayOrder` | **missing** |"))
        #expect(text.contains("Recorded but registered by no module: `Telemetry`"))
        #expect(text.contains("| 5.000 s | Push | \"Your cart is waiting\" — \"Complete your order for 10% off\""))
        #expect(text.contains("| 12.500 s | Analytics | `pay_tapped` to Amplitude"))
        #expect(text.contains("  - feature: `Checkout` (`X-FEATURE-NAME`)"))
    }
}
