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

/// A debug file whose fat header puts its slice past the end of the file (a damaged download, or a hostile file)
/// killed the process when the symbol folder was scanned: `triage` and the nightly `run` name it and symbolicate with
/// the others.
@Suite final class OutOfRangeDebugFileCommandTests {
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-badsym-\(UUID().uuidString)")
    let symbols: URL
    let broken: URL

    init() throws {
        symbols = work.appendingPathComponent("symbols")
        broken = symbols.appendingPathComponent("Broken")
        try FileManager.default.createDirectory(at: symbols, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Casefile.repository.appendingPathComponent("SampleReports/Symbols/ShopApp.dSYM"),
            to: symbols.appendingPathComponent("ShopApp.dSYM"))
        // A fat header of one 64-bit entry: arm64, offset 0xFFFFFFFFFFFFFF00, size 4096, alignment 2^14.
        var header: [UInt8] = [0xCA, 0xFE, 0xBA, 0xBF, 0, 0, 0, 1, 0x01, 0, 0, 0x0C, 0, 0, 0, 0]
        header += [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0, 0, 14, 0, 0, 0, 0]
        try Data(header + [UInt8](repeating: 0, count: 4096 - header.count)).write(to: broken)
    }

    deinit {
        try? FileManager.default.removeItem(at: work)
    }

    @Test func triageNamesTheFileAndSymbolicatesWithTheOthers() throws {
        let crash = Casefile.sample("Crashes/cart-total-iphone14-ios16.ips")
        let result = try Casefile.run(["triage", crash, "--symbols", symbols.path])
        #expect(result.status == 0)
        #expect(
            result.stderr.contains(
                "warning: \(broken.path): slice 0 of the fat header starts past the end of the file"))
        // checkout.c: cart_total's line 17 calls apply_discount, inlined, at line 5.
        #expect(result.stdout.contains("(checkout.c:17) · inlined apply_discount (checkout.c:5)"))
    }

    @Test func theNightlyRunNamesTheFileAndIndexesTheReport() throws {
        let inbox = work.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: Casefile.sample("Crashes/cart-total-iphone14-ios16.ips")),
            to: inbox.appendingPathComponent("cart.ips"))
        let pipeline = try Casefile.writePipeline(in: work, symbols: symbols.path)
        let result = try Casefile.run(["run", pipeline], in: work)
        #expect(result.status == 0)
        #expect(result.stderr.contains("\(broken.path): slice 0 of the fat header starts past the end of the file"))
        let digest = try String(contentsOf: work.appendingPathComponent("out/digest.md"), encoding: .utf8)
        #expect(digest.contains("in `CartViewModel.total() + 44 (checkout.c:17)"))
    }
}
