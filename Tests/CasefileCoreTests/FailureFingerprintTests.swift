import CasefileCore
import Foundation
import Testing

/// Copies of the checkout recording (`SampleReports/5B0F1C2E-….clue`), where "Pay now" gets HTTP 500 from
/// `/v1/orders` on the checkout screen, with the failing URL and status edited.
@Suite struct FailureFingerprintTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-failures-\(UUID().uuidString)")

    /// The checkout recording with `/v1/orders` replaced by `path` and status 500 by `status`.
    func recording(_ name: String, path: String, status: Int = 500) throws -> Report {
        let copy = folder.appendingPathComponent("\(name).clue")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Samples.checkoutFolder), to: copy)
        let network = copy.appendingPathComponent("Modules/module_network.json")
        let text = try String(contentsOf: network, encoding: .utf8)
            .replacingOccurrences(
                of: #"https:\/\/api.shop.example\/v1\/orders""#, with: "https://api.shop.example\(path)\""
            )
            .replacingOccurrences(of: #""statusCode":500"#, with: "\"statusCode\":\(status)")
        try text.write(to: network, atomically: true, encoding: .utf8)
        return try #require(try Triage().reports(at: copy.path).reports.first)
    }

    @Test func groupsTheSameFailingRequestAcrossRecordings() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try recording("a", path: "/v1/orders/8812/pay")
        let second = try recording("b", path: "/v1/orders/9917/pay?attempt=2")
        let notFound = try recording("c", path: "/v1/orders/9917/pay", status: 404)
        let other = try recording("d", path: "/v1/coupons/77")
        let failure = try #require(first.failures.first)
        #expect(first.failures.count == 1)
        #expect(failure.endpoint == "/v1/orders/{id}/pay")
        #expect(failure.outcome == "5xx")
        // The checkout screen's root view is a plain UIView in this recording (module_view.json).
        #expect(failure.screen == "UIView")
        #expect(failure.grouping.title == "UIView · /v1/orders/{id}/pay · 5xx")
        #expect(second.failures.first?.fingerprints["endpoint"] != failure.fingerprints["endpoint"])  // ?attempt
        #expect(notFound.failures.first?.outcome == "4xx")
        #expect(notFound.failures.first?.fingerprint != failure.fingerprint)
        #expect(other.failures.first?.fingerprint != failure.fingerprint)
        let again = try recording("e", path: "/v1/orders/10404/pay")
        #expect(again.failures.first?.fingerprint == failure.fingerprint)
    }

    @Test func keysATransportErrorByDomainAndCode() throws {
        let report = try #require(try Triage().reports(at: Samples.sample("offline-1009.clue.zip")).reports.first)
        #expect(report.failures.first?.outcome == "NSURLErrorDomain -1009")
    }

    @Test func leavesRecordingsWithACrashToTheCrashKey() throws {
        let report = try #require(
            try Triage().reports(at: Samples.sample("checkout-exception.clue.zip")).reports.first)
        #expect(!report.crashes.isEmpty)
        #expect(report.failures.isEmpty)
        #expect(report.crashes.first?.fingerprint != nil)
    }
}
