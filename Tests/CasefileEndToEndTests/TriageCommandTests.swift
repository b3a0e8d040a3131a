import Foundation
import Testing

@Suite struct TriageCommandTests {
    @Test func printsTheCheckoutSummary() throws {
        let result = try Casefile.run(["triage", Casefile.sample("checkout-500.clue.zip")])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.hasPrefix("# Bug report 1bd8b1d4ec00\n"))
        #expect(
            result.stdout.contains(
                "- **Tap \"Pay now\" → /v1/orders → 500 → ShopApp.PaymentErrorView \"Payment failed\"** — confidence"))
    }

    @Test func printsTheParsedModelAsJSON() throws {
        let result = try Casefile.run(["triage", "--format", "json", Casefile.sample("offline-1009.clue.zip")])
        #expect(result.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let reports = try #require(document["reports"] as? [[String: Any]])
        let device = try #require(reports.first?["device"] as? [String: Any])
        #expect(device["systemVersion"] as? String == "10.3.1")
        #expect(device["batteryState"] as? String == "unplugged")
    }

    @Test func givesEveryCrashAndFailureItsFingerprintsInJSON() throws {
        let crashResult = try Casefile.run([
            "triage", "--format", "json", Casefile.sample("Crashes/cart-total-iphone14-ios16.ips"),
        ])
        let crashDocument = try #require(
            try JSONSerialization.jsonObject(with: Data(crashResult.stdout.utf8)) as? [String: Any])
        let crash = try #require(
            ((crashDocument["reports"] as? [[String: Any]])?.first?["crashes"] as? [[String: Any]])?.first)
        let primary = try #require(crash["fingerprint"] as? String)
        let all = try #require(crash["fingerprints"] as? [String: String])
        #expect(Set(all.keys) == ["top1", "top3", "topN", "exception"])
        #expect(all["top3"] == primary)
        let grouping = try #require(crash["grouping"] as? [String: Any])
        #expect(grouping["resolution"] as? String == "top3")

        let failureResult = try Casefile.run(["triage", "--format", "json", Casefile.sample("checkout-500.clue.zip")])
        let failureDocument = try #require(
            try JSONSerialization.jsonObject(with: Data(failureResult.stdout.utf8)) as? [String: Any])
        let failure = try #require(
            ((failureDocument["reports"] as? [[String: Any]])?.first?["failures"] as? [[String: Any]])?.first)
        #expect((failure["fingerprint"] as? String)?.count == 16)
        #expect(Set((failure["fingerprints"] as? [String: String] ?? [:]).keys) == ["screen", "endpoint"])
        #expect(failure["endpoint"] as? String == "/v1/orders")
        #expect(failure["outcome"] as? String == "5xx")
        let markdown = try Casefile.run(["triage", Casefile.sample("checkout-500.clue.zip")]).stdout
        #expect(
            markdown.contains(
                "- Failure at 13.150 s: group `\(failure["fingerprint"] as? String ?? "")` — UIView · /v1/orders · 5xx")
        )
    }

    @Test func printsEveryReportOfAnArchive() throws {
        let result = try Casefile.run(["triage", Casefile.sample("two-reports.zip")])
        #expect(result.status == 0)
        #expect(result.stdout.components(separatedBy: "# Bug report ").count == 3)
        #expect(result.stdout.contains("\n---\n"))
    }

    @Test func refusesABadInputWithOneLineAndExitCode1() throws {
        let path = Casefile.sample("Malformed/path-traversal.zip")
        let result = try Casefile.run(["triage", path])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == "casefile: \(path): entry '../../../tmp/casefile-escaped.txt': path escapes the archive (absolute or '..'); the whole input is refused\n"
        )
    }

    @Test func mapsUsageErrorsToExitCode2() throws {
        let result = try Casefile.run(["triage", "--format", "yaml", Casefile.sample("checkout-500.clue.zip")])
        #expect(result.status == 2)
        #expect(result.stderr.contains("The value 'yaml' is invalid for '--format <format>'"))
        #expect(try Casefile.run(["frobnicate"]).status == 2)
    }
}

@Suite struct SymbolicateCommandTests {
    @Test func printsAKSCrashReportInAppleLayout() throws {
        let result = try Casefile.run([
            "symbolicate", Casefile.sample("Crashes/cart-total-iphone12-ios15-kscrash.json"),
        ])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.contains("Incident Identifier: A4B7C2D9-5E1F-4A3B-8C6D-9E0F1A2B3C4D"))
        #expect(lines.contains("Exception Type:      EXC_BREAKPOINT (SIGTRAP)"))
        #expect(lines.contains("Thread 0 Crashed:"))
        #expect(
            lines.contains(
                "0   ShopApp                       \t0x0000000102f0402c $s7ShopApp13CartViewModelC5totalSdyF + 44"))
        #expect(
            lines.contains(
                "0x102f00000 - 0x102f1ffff +ShopApp arm64  <4c4c442a55553144a1c2ffa5de205d9d> /private/var/containers/Bundle/Application/9F8E7D6C-5B4A-4392-8170-6F5E4D3C2B1A/ShopApp.app/ShopApp"
            ))
    }

    @Test func refusesAFileWithoutACrash() throws {
        let path = Casefile.sample("checkout-500.clue.zip")
        let result = try Casefile.run(["symbolicate", path])
        #expect(result.status == 1)
        #expect(result.stderr == "casefile: \(path): holds no crash\n")
    }
}

@Suite struct PartialInputTests {
    @Test func printsTheGoodReportAndQuarantinesTheBadEntry() throws {
        let path = Casefile.sample("Malformed/mixed-good-and-bad.zip")
        let result = try Casefile.run(["triage", path])
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("# Crash report "))
        #expect(result.stdout.contains("SIGSEGV"))
        #expect(
            result.stderr.hasPrefix(
                "quarantined: \(path): entry 'broken-kscrash.json': crash report JSON is invalid beyond repair"))
    }
}

@Suite struct SymbolsOptionTests {
    let crashFile = Casefile.repository.appendingPathComponent(
        "SampleReports/Symbols/Crashes/checkout-total-iphone14.crash"
    ).path
    let symbols = Casefile.repository.appendingPathComponent("SampleReports/Symbols").path

    @Test func triageShowsFunctionsFilesAndLines() throws {
        let result = try Casefile.run(["triage", crashFile, "--symbols", symbols])
        #expect(result.status == 0)
        #expect(
            result.stdout.contains(
                "| 0 | ShopApp ★ | `0x104a2c02c` | `CartViewModel.total() + 44 (checkout.c:17) · inlined apply_discount (checkout.c:5)` |"
            ))
        #expect(
            result.stdout.contains(
                "| 1 | ShopApp ★ | `0x104a2c060` | `CheckoutViewController.viewDidLoad() + 32 (checkout.c:25)` |"
            )
        )
        #expect(
            result.stdout.contains(
                "- not symbolicated: no debug file for UUID 5b4c3d2e-1f0a-39b8-c7d6-e5f4a3b2c1d0 (libdyld.dylib)"))
    }

    @Test func symbolicatePrintsInlinedFramesAsAppleDoes() throws {
        let result = try Casefile.run(["symbolicate", crashFile, "--symbols", symbols])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("0   ShopApp                       \t0x0000000104a2c02c apply_discount (checkout.c:5)"))
        #expect(
            lines.contains(
                "0   ShopApp                       \t0x0000000104a2c02c ShopApp.CartViewModel.total() -> Swift.Int + 44 (checkout.c:17)"
            ))
        #expect(lines.contains("2   ShopApp                       \t0x0000000104a2c080 main + 16 (checkout.c:30)"))
        #expect(
            result.stderr
                == "note: 1 image without a debug file keeps the report's own symbols (libdyld.dylib); --verbose lists them\n"
        )
    }
}
