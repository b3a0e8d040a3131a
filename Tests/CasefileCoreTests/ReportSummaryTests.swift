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
                "- **Tap \"Pay now\" → /v1/orders → 500 → ShopApp.PaymentErrorView \"Payment failed\"** — confidence high"
            ))
        #expect(text.contains("  - at: tap 12.483 s · failure 13.150 s · error-screen 13.167 s"))
        #expect(text.contains("  - method and latency: not recorded"))
        #expect(text.contains("## Repro steps\n\n1. Open UIView \"Order total\" (0.000 s)\n"))
        #expect(text.contains("4. Tap \"Pay now\" (12.483 s)\n5. /v1/orders fails: HTTP 500 (13.150 s)\n"))
        #expect(text.contains("```mermaid\nsequenceDiagram\n"))
        #expect(text.contains("    User->>App: 12.483 s tap #34;Pay now#34;\n    App->>Server: 13.150 s /v1/orders\n"))
        #expect(text.contains("<details><summary>All 12 events</summary>"))
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
                "- **Tap \"Refresh\" → /v1/orders?status → transport error NSURLErrorDomain -1009 → UILabel"
                    + " \"You're offline. Check your connection.\" added**"))
        #expect(text.contains("  - at: tap 2.050 s · failure 2.250 s · error-message 2.267 s"))
        #expect(text.contains("  - URL: `https://api.shop.example/v1/orders?status=open`"))
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
