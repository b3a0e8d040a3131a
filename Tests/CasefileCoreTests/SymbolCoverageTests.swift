import CasefileCore
import Foundation
import Testing

/// The run digest's symbol coverage, counted per report in the parallel tasks and added up by the digest.
@Suite struct SymbolCoverageTests {
    private static let uikit = "11111111-2222-3333-4444-555555555555"
    private static let objc = "66666666-7777-8888-9999-000000000000"

    /// A crash of the app `ShopApp`: two app frames (one symbolicated), three frames in UIKitCore and one in
    /// libobjc, whose UUIDs no debug file had; an exception backtrace with one more UIKitCore frame.
    private static func report(id: String) -> Report {
        var crash = Crash(format: .appleText)
        crash.images = [
            BinaryImage(
                name: "ShopApp", uuid: "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee", loadAddress: 0x1000, isApp: true),
            BinaryImage(name: "UIKitCore", uuid: uikit, loadAddress: 0x10_0000),
            BinaryImage(name: "libobjc.A.dylib", uuid: objc, loadAddress: 0x20_0000),
        ]
        func missing(_ image: String, _ uuid: String) -> Frame {
            var frame = Frame(image: image, address: 0x10_0010)
            frame.symbolication = FrameSymbolication(status: .noDebugFile(image: image, uuid: uuid))
            return frame
        }
        var named = Frame(image: "ShopApp", address: 0x1010)
        named.symbolication = FrameSymbolication(
            status: .symbolicated(backend: "dwarf"), locations: [SourceLocation(rawName: "CartViewModel.total()")])
        var unnamed = Frame(image: "ShopApp", address: 0x1020)
        unnamed.symbolication = FrameSymbolication(status: .notFound)
        var thread = CrashThread(index: 0, crashed: true)
        thread.frames = [
            missing("UIKitCore", uikit), missing("UIKitCore", uikit), missing("libobjc.A.dylib", objc), named,
            unnamed, missing("UIKitCore", uikit),
        ]
        crash.threads = [thread]
        crash.exceptionBacktrace = [missing("UIKitCore", uikit)]
        return Report(
            id: id, format: .appleCrash, source: ReportSource(input: "\(id).crash", root: ""), crashes: [crash])
    }

    @Test func countsAppFramesAndFramesWithoutDebugFilesInTheOrderMet() {
        let coverage = SymbolCoverage(Self.report(id: "one"))
        #expect(coverage.inAppFrames == 2)
        #expect(coverage.inAppSymbolicated == 1)
        #expect(coverage.missing.map(\.uuid) == [Self.uikit, Self.objc])
        #expect(coverage.missing.map(\.name) == ["UIKitCore", "libobjc.A.dylib"])
        #expect(coverage.missing.map(\.frames) == [4, 1])
    }

    /// A debug file with another UUID counts like none: the image is named as the symbolicator named it, frames of
    /// images met again after others are added to the first count.
    @Test func countsUUIDMismatchesAsMissingImagesByTheirOwnName() {
        var crash = Crash(format: .ips)
        func mismatched(_ image: String, _ uuid: String) -> Frame {
            var frame = Frame(image: image, address: 0x10_0010)
            frame.symbolication = FrameSymbolication(
                status: .uuidMismatch(image: image, uuid: uuid, found: ["ffffffff-0000-0000-0000-000000000000"]))
            return frame
        }
        crash.threads = [
            CrashThread(
                index: 0,
                frames: [
                    mismatched("UIKitCore", Self.uikit), mismatched("libobjc.A.dylib", Self.objc),
                    mismatched("UIKitCore", Self.uikit),
                ])
        ]
        let coverage = SymbolCoverage(
            Report(
                id: "three", format: .appleCrash, source: ReportSource(input: "three.ips", root: ""), crashes: [crash]))
        #expect(coverage.missing.map(\.name) == ["UIKitCore", "libobjc.A.dylib"])
        #expect(coverage.missing.map(\.uuid) == [Self.uikit, Self.objc])
        #expect(coverage.missing.map(\.frames) == [2, 1])
        #expect(coverage.inAppFrames == 0)
    }

    @Test func theDigestAddsUpItsReports() {
        var digest = RunDigest(summary: RunSummary(runID: 1), symbolicationConfigured: true)
        digest.add(Self.report(id: "one"), summaryPath: nil)
        digest.add(Self.report(id: "two"), summaryPath: nil, coverage: SymbolCoverage(Self.report(id: "two")))
        #expect(digest.inAppFrames == 4)
        #expect(digest.inAppSymbolicated == 2)
        #expect(digest.missingImages.map(\.frames) == [8, 2])
        #expect(digest.missingImages.map(\.name) == ["UIKitCore", "libobjc.A.dylib"])
        let markdown = digest.render(startedAt: .now)
        #expect(markdown.contains("App frames symbolicated: 2 of 4 (50 %)."))
        #expect(markdown.contains("| UIKitCore | `\(Self.uikit)` | 8 |"))
    }
}
