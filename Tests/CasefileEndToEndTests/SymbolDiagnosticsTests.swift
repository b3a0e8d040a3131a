import Foundation
import Testing

/// `symbolicate` and `triage` name the images whose frames stay unnamed, and say in one line that the system
/// libraries without a debug file keep the report's own symbols.
@Suite struct SymbolDiagnosticsTests {
    let symbols = Casefile.repository.appendingPathComponent("SampleReports/Symbols").path

    @Test func aTypicalReportWithItsAppsDebugFilePrintsOneLine() throws {
        // The app image's dSYM is in the samples; UIKitCore, dyld and libsystem_kernel have none, but the report
        // names their frames.
        let crash = Casefile.sample("Crashes/cart-total-iphone14-ios16.ips")
        let result = try Casefile.run(["symbolicate", crash, "--symbols", symbols])
        #expect(result.status == 0)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("note: 3 images without a debug file keep the report's own symbols") == true)
        let triage = try Casefile.run(["triage", crash, "--symbols", symbols])
        #expect(triage.stderr.split(separator: "\n").count == 1)
        let verbose = try Casefile.run(["symbolicate", "--verbose", crash, "--symbols", symbols])
        #expect(verbose.stderr.components(separatedBy: "not symbolicated: no debug file for UUID").count - 1 == 3)
        #expect(verbose.stderr.contains("(UIKitCore)"))
    }

    @Test func namesTheAppImageWhoseFramesStayUnnamed() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent(
            "casefile-nosyms-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        // The app's frames in this report are bare addresses: without its dSYM they stay unnamed.
        let result = try Casefile.run([
            "symbolicate", Casefile.sample("Crashes/cart-total-iphone11-ios15.crash"), "--symbols", empty.path,
        ])
        let lines = result.stderr.split(separator: "\n")
        #expect(
            lines.contains { $0.hasPrefix("not symbolicated: no debug file for UUID") && $0.hasSuffix("(ShopApp)") })
        #expect(lines.contains { $0.hasPrefix("note: 3 images without a debug file") })
        #expect(lines.count == 2)
    }
}

/// A real `.ips` symbolicated against its dSYM (`Scripts/make-crashdemo-symbols.sh`: functions with the mangled names
/// of an optimized Swift build) reads as Xcode shows it; the JSON keeps the full names.
@Suite struct XcodeNamesInSummariesTests {
    let folder = Casefile.repository.appendingPathComponent("Tests/Fixtures/Symbols/CrashDemo")

    @Test func theHeadlineAndFrameTableUseXcodesNames() throws {
        let crash = folder.appendingPathComponent("iOSCrashingTest.ips").path
        let result = try Casefile.run(["triage", crash, "--symbols", folder.path])
        #expect(result.status == 0)
        // Xcode and MacSymbolicator print these for the mangled names in src/crashdemo.c.
        #expect(
            result.stdout.contains("in `specialized static CrashClass.pleaseCrash() + 4 (crashdemo.c:8)` on thread 0"))
        #expect(result.stdout.contains("`closure #1 in ViewController.viewDidLoad() + 8 (crashdemo.c:14)`"))
        #expect(result.stdout.contains("`@objc ViewController.viewDidLoad() + 12 (crashdemo.c:22)`"))
        #expect(!result.stdout.contains("function signature specialization"))
        let json = try Casefile.run(["triage", "--format", "json", crash, "--symbols", folder.path])
        #expect(
            json.stdout.contains(
                "function signature specialization <Arg[0] = Dead> of static iOSCrashingTest.CrashClass.pleaseCrash()"))
    }
}
