import CasefileCore
import Foundation
import Testing

@Suite struct CrashSummaryTests {
    func markdown(_ file: String) throws -> String {
        let reports = try Triage().reports(at: Samples.sample("Crashes/\(file)")).reports
        return reports.map(ReportSummary().render).joined()
    }

    @Test func showsTheExceptionTheCrashedThreadAndTheAppImage() throws {
        let text = try markdown("image-cache-iphone15-ios17.ips")
        #expect(text.hasPrefix("# Crash report "))
        #expect(text.contains(#"- **EXC\_BAD\_ACCESS (SIGSEGV)** in `ImageCache.store(_:for:) + 0` on thread 3"#))
        #expect(text.contains("### Crashed thread 3 — queue com.example.shopapp.imagecache"))
        #expect(text.contains("| 0 | ShopApp ★ | `0x100d4c0ac` | `ImageCache.store(_:for:) + 0` |"))
        #expect(text.contains("| Exception subtype | `KERN_INVALID_ADDRESS at 0x0000000000000010` |"))
        #expect(text.contains("| App image | ShopApp `4c4c442a-5555-3144-a1c2-ffa5de205d9d` at `0x100d48000` |"))
        #expect(!text.contains("## Timeline"))
    }

    @Test func namesTheWatchdogAndTheExceptionBacktrace() throws {
        let watchdog = try markdown("watchdog-8badf00d-ipad-ios11.crash")
        #expect(
            watchdog.contains(#"**EXC\_CRASH (SIGKILL) · SPRINGBOARD 0x8badf00d** — watchdog timeout (ate bad food)"#))
        let exception = try markdown("legacy-nsexception-ipad-ios9.crash")
        #expect(exception.contains("— `NSInvalidArgumentException`: `-[__NSCFNumber length]: unrecognized selector"))
        #expect(exception.contains("### Exception backtrace"))
        #expect(exception.contains("| 3 | Shop App Widget ★ | `0x100034a10` | `Shop App Widget + 35344` |"))
    }

    @Test func foldsFramesBeyondTheFirstTwentyIntoDetails() {
        var crash = Crash(format: .appleText)
        crash.exception.type = "EXC_BAD_ACCESS"
        crash.crashedThread = 0
        let frames = (0..<25).map { Frame(image: "ShopApp", address: 0x1_0000_0000 + UInt64($0) * 4, symbol: "f\($0)") }
        crash.threads = [CrashThread(index: 0, crashed: true, frames: frames)]
        let report = Report(id: "x", format: .appleCrash, source: ReportSource(input: "x", root: ""), crashes: [crash])
        let text = ReportSummary().render(report)
        let visible = text.components(separatedBy: "<details>")[0]
        #expect(visible.contains("| 19 | ShopApp | `0x10000004c` | `f19` |"))
        #expect(!visible.contains("| 20 | ShopApp |"))
        #expect(text.contains("<details><summary>All 25 frames</summary>"))
        #expect(text.contains("| 24 | ShopApp | `0x100000060` | `f24` |"))
    }

    /// Swift names the module of an app called `Shop App` `Shop_App`; its frames' names lose that module on display,
    /// as `ShopApp`'s lose `ShopApp`. Another module's name stays. (The app's image is starred.)
    @Test func dropsTheModuleOfAnAppWhoseNameHasSpaces() {
        var crash = Crash(format: .appleText)
        crash.exception.type = "EXC_BAD_ACCESS"
        crash.crashedThread = 0
        crash.app.name = "Shop App"
        crash.threads = [
            CrashThread(
                index: 0, crashed: true,
                frames: [
                    Frame(image: "Shop App", address: 0x1_0000_0000, symbol: "Shop_App.CartView.checkout()"),
                    Frame(image: "Shop App", address: 0x1_0000_0004, symbol: "ShopKit.Cart.total()"),
                ])
        ]
        let report = Report(id: "x", format: .appleCrash, source: ReportSource(input: "x", root: ""), crashes: [crash])
        let text = ReportSummary().render(report)
        #expect(text.contains("| 0 | Shop App ★ | `0x100000000` | `CartView.checkout()` |"))
        #expect(text.contains("| 1 | Shop App ★ | `0x100000004` | `ShopKit.Cart.total()` |"))
    }

    @Test func listsWhatAJetsamEventKilled() throws {
        let text = try markdown("jetsam-iphone11-ios16.ips")
        #expect(text.contains("- **Jetsam event (killed for memory)**"))
        #expect(text.contains("Killed: `ShopApp` (per-process-limit)"))
    }
}
