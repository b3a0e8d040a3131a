import CasefileCore
import Foundation
import Testing

@Suite struct InboxScannerTests {
    @Test func takesPackageFoldersWholeAndSkipsIgnoredNames() throws {
        let inbox = Samples.repository.appendingPathComponent("SampleReports")
        let inputs = try InboxScanner(ignore: ["*.md", "Symbols", "Hostile", "Malformed/truncated*"]).scan(inbox)
        let names = inputs.map { String($0.path.dropFirst(inbox.path.count + 1)) }
        #expect(
            names == [
                "5B0F1C2E-9D4A-4C61-8E07-3A1F6B2C9D10.clue",
                "Crashes/add-to-bag-iphone8-ios12-kscrash-applefmt.crash",
                "Crashes/cart-total-ios14-bugtype109.ips",
                "Crashes/cart-total-ios15-metrickit-payload.json",
                "Crashes/cart-total-iphone11-ios15.crash",
                "Crashes/cart-total-iphone12-ios15-kscrash.json",
                "Crashes/cart-total-iphone14-ios16.ips",
                "Crashes/cart-total-iphone15pro-ios18-xcode16-export.txt",
                "Crashes/coupon-nsexception-iphone13-bugsnag.json",
                "Crashes/fatal-error-iphone13-ios15-sentrycrash.json",
                "Crashes/image-cache-iphone15-ios17.ips",
                "Crashes/image-cache-iphonexr-ios14-plcrashreporter.crash",
                "Crashes/image-cache-metrickit-callstacktree.json",
                "Crashes/inapp-nsexception-coupon.txt",
                "Crashes/inapp-signal-sigsegv.txt",
                "Crashes/jetsam-iphone11-ios16.ips",
                "Crashes/legacy-nsexception-ipad-ios9.crash",
                "Crashes/mailed-crashes.zip",
                "Crashes/recrash-only-kscrash.json",
                "Crashes/truncated-header-only.crash",
                "Crashes/watchdog-8badf00d-ipad-ios11.crash",
                "Crashes/watchdog-ios17-metrickit-diagnostic.json",
                "E2A7C3D4-1B2F-4A5E-9C8D-7F6E5D4C3B2A.clue",
                "Malformed/archive-bomb.zip",
                "Malformed/empty-report.clue.zip",
                "Malformed/mixed-good-and-bad.zip",
                "Malformed/path-traversal.zip",
                "Malformed/placeholders-only.clue.zip",
                "checkout-500.clue.zip",
                "checkout-bugreport.zip",
                "checkout-exception.clue.zip",
                "clean-session.zip",
                "offline-1009.clue.zip",
                "two-reports.zip",
            ])
    }

    @Test func listsPathsUnderTheInboxAsTheRunNamesItsInputs() throws {
        let inbox = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-scan-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: inbox) }
        for file in ["b.crash", "Nested/c d.ips", "Nested/Deeper/e.json", "Package/Info/info.json", "Trip.CLUE/x.txt"] {
            let url = inbox.appendingPathComponent(file)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: url)
        }
        let expected = ["Nested/Deeper/e.json", "Nested/c d.ips", "Package", "Trip.CLUE", "b.crash"].map {
            inbox.path + "/" + $0
        }
        #expect(try InboxScanner().paths(in: inbox) == expected)
        // The inbox named with a trailing slash lists the same paths, not paths with two slashes.
        #expect(try InboxScanner().paths(in: URL(fileURLWithPath: inbox.path + "/")) == expected)
        #expect(try InboxScanner().scan(inbox).map(\.path) == expected)
    }

    /// The walk takes one folder at a time and still gives the paths sorted whole: a folder's inputs come where its
    /// name and a slash sort among its neighbours ('-' and '.' before '/', '0' after it), not where its name alone
    /// would (before `a-b`, `a.x` and `a0`, which begin with `a`).
    @Test func walksFoldersInTheOrderTheirPathsSort() throws {
        let inbox = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-walk-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: inbox) }
        for file in ["a0", "a/c/d", "a.x", "B", "a/b", "a-b", "a/c.zip", ".hidden", "a/.hidden/e"] {
            let url = inbox.appendingPathComponent(file)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: url)
        }
        let expected = ["B", "a-b", "a.x", "a/b", "a/c.zip", "a/c/d", "a0"].map { inbox.path + "/" + $0 }
        #expect(Array(try InboxScanner().walk(in: inbox)) == expected)
        #expect(try InboxScanner().paths(in: inbox) == expected)
        #expect(try InboxScanner().count(in: inbox) == 7)
        // Ignored names and inbox-relative paths are neither walked nor counted.
        let ignoring = InboxScanner(ignore: ["*.zip", "a/c"])
        #expect(Array(try ignoring.walk(in: inbox)) == ["B", "a-b", "a.x", "a/b", "a0"].map { inbox.path + "/" + $0 })
        #expect(try ignoring.count(in: inbox) == 5)
    }

    /// Names outside ASCII sort as strings do, by their Unicode scalars, with a name spelled with a combining accent
    /// (`e` and U+0301, as macOS writes file names) where its precomposed spelling (U+00E9) sorts, not where its first
    /// byte would put it (before `z`).
    @Test func walksNamesOutsideASCIIInTheOrderStringsSort() throws {
        let inbox = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-names-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: inbox) }
        let decomposed = "e\u{301}x.txt"
        #expect(decomposed.utf8.first == UInt8(ascii: "e"))
        for file in ["z.txt", decomposed, "\u{FC}/b.txt", "a.txt", "\u{E9}.txt", "Z.txt", "\u{C9}.txt"] {
            let url = inbox.appendingPathComponent(file)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: url)
        }
        // Z (5A), a (61), z (7A), É (C9), é (E9), é as e and U+0301 (E9, then x after the other's dot), ü (FC).
        let expected = ["Z.txt", "a.txt", "z.txt", "\u{C9}.txt", "\u{E9}.txt", decomposed, "\u{FC}/b.txt"]
        let walked = Array(try InboxScanner().walk(in: inbox)).map { String($0.dropFirst(inbox.path.count + 1)) }
        // Compared byte for byte: `==` on strings would take either spelling of é for the other.
        #expect(walked.map { Array($0.utf8) } == expected.map { Array($0.utf8) })
    }

    @Test func saysWhenTheInboxIsMissing() {
        let error = #expect(throws: InputError.self) {
            try InboxScanner().scan(URL(fileURLWithPath: "/nonexistent/inbox"))
        }
        #expect(error?.description == "/nonexistent/inbox: the inbox folder does not exist")
    }

    @Test func hashesTheSameContentTheSameWay() throws {
        let folder = URL(fileURLWithPath: Samples.checkoutFolder)
        let zip = URL(fileURLWithPath: Samples.sample("checkout-500.clue.zip"))
        #expect(try ContentHash.of(folder) == ContentHash.of(folder))
        #expect(try ContentHash.of(folder) != ContentHash.of(zip))
        #expect(try ContentHash.of(zip).count == 64)
    }
}
