import CasefileCore
import Testing

@Suite struct ReportSummaryTests {
    func markdown(_ name: String) throws -> String {
        let reports = try Triage().reports(at: Samples.sample(name)).reports
        return reports.map(ReportSummary().render).joined()
    }

    @Test func namesTheFailedPaymentItsTriggerAndTheErrorScreen() throws {
        let text = try markdown("checkout-500.clue.zip")
        #expect(
            text.contains(
                "- **HTTP 500 internal server error** — `https://api.shop.example/v1/orders` at 13.150 s (method not recorded)"
            ))
        #expect(text.contains("  - after: Finger up on `UIButton \"Pay now\"` at (187.5, 566) at 12.483 s"))
        #expect(text.contains("  - then: screen changed to `ShopApp.PaymentErrorView` — \"Payment failed\""))
        #expect(text.contains(#"  - response body: `{"error":"payment_gateway_unavailable","request_id":"r-7f3a9c"}`"#))
        #expect(text.contains("| 13.167 s | Screen | `ShopApp.PaymentErrorView`"))
        #expect(text.contains("| 12.500 s | View |"))
        #expect(text.contains("| Device | iPhone · iOS 10.3.1 |"))
        #expect(text.contains("| Recording | 16.500 s · 6 view snapshots · video 16.500 s, 208 B |"))
    }

    @Test func neverClaimsWhatClueDidNotRecordOrShowsWhatIsPrivate() throws {
        let text = try markdown("checkout-500.clue.zip")
        for forbidden in ["POST", "QA iPhone 7", "REDACT-ME", "4111", "A053F005"] {
            #expect(!text.contains(forbidden), "summary shows \(forbidden)")
        }
    }

    @Test func saysWhenNothingFailed() throws {
        let text = try markdown("clean-session.zip")
        #expect(text.contains("Nothing failed: no recorded request returned HTTP ≥ 400 or failed in transport."))
        #expect(text.contains("GET `https://api.shop.example/v1/products?page=1` → 200 no error"))
    }

    @Test func describesATransportError() throws {
        let text = try markdown("offline-1009.clue.zip")
        #expect(
            text.contains(
                "- **transport error NSURLErrorDomain -1009** — `https://api.shop.example/v1/orders?status=open` at 2.250 s"
            ))
        #expect(text.contains("  - then: view changed: \"You're offline. Check your connection.\" appeared at 2.267 s"))
    }

    @Test func listsWarningsWithFileAndLine() throws {
        let text = try markdown("E2A7C3D4-1B2F-4A5E-9C8D-7F6E5D4C3B2A.clue")
        #expect(text.contains("## Warnings"))
        #expect(
            text.contains(
                "- `Modules/module_view.json:2: invalid JSON (unterminated string at column 91); line skipped`"))
    }

    @Test func keepsTableCellsOnOneLine() throws {
        let text = try markdown("checkout-500.clue.zip")
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| ") && $0.contains(" s | ") }
        #expect(rows.count == 12)
        #expect(rows.allSatisfy { $0.hasSuffix(" |") })
    }
}
