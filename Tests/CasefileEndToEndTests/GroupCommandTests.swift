import Foundation
import GRDB
import Testing

/// Groups across nightly runs, through the built binary: an inbox that grows between runs, `resolve`,
/// `merge-groups`, `groups`, `show` and `--regroup`.
@Suite final class GroupCommandTests {
    let work: URL
    let inbox: URL
    let pipeline: String

    init() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-groups-\(UUID().uuidString)")
        inbox = work.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        pipeline = try Casefile.writePipeline(
            in: work, named: "nightly.toml",
            symbols: Casefile.repository.appendingPathComponent("SampleReports/Symbols").path)
    }

    deinit {
        try? FileManager.default.removeItem(at: work)
    }

    func deliver(_ names: [String]) throws {
        for name in names {
            let source =
                name.hasSuffix(".crash") && !name.hasPrefix("cart-total-iphone") && !name.hasPrefix("image-cache")
                    && !name.hasPrefix("watchdog")
                ? Casefile.repository.appendingPathComponent("Tests/Fixtures/Grouping/\(name)")
                : URL(fileURLWithPath: Casefile.sample("Crashes/\(name)"))
            try FileManager.default.copyItem(at: source, to: inbox.appendingPathComponent(name))
        }
    }

    /// The primary fingerprint `casefile triage` gives a sample: a handle to find its group, not an expectation.
    func fingerprint(_ name: String) throws -> String {
        let symbols = Casefile.repository.appendingPathComponent("SampleReports/Symbols").path
        let report = try Casefile.triagedReport(inbox.appendingPathComponent(name).path, symbols: symbols)
        return try #require(report["crashes"]?.array?.first?["fingerprint"]?.string)
    }

    func run(_ arguments: [String]) throws -> Casefile.Result {
        try Casefile.run(arguments + ["--pipeline", pipeline], in: work)
    }

    func line(of fingerprint: String, in listing: String) -> String? {
        listing.split(separator: "\n").map(String.init).first { $0.contains(fingerprint) }
    }

    @Test func groupsAcrossNightsWithResolveRegressionAndMerges() throws {
        try deliver([
            "cart-total-iphone14-ios16.ips", "cart-total-iphone11-ios15.crash",
            "cart-total-iphone12-ios15-kscrash.json",
            "image-cache-iphone15-ios17.ips", "coupon-closure-1.crash", "coupon-closure-2.crash",
            "cart-total-from-main.crash",
        ])
        let cart = try fingerprint("cart-total-iphone14-ios16.ips")
        let imageCache = try fingerprint("image-cache-iphone15-ios17.ips")
        let closure1 = try fingerprint("coupon-closure-1.crash")
        let closure2 = try fingerprint("coupon-closure-2.crash")
        let fromMain = try fingerprint("cart-total-from-main.crash")
        #expect(Set([cart, imageCache, closure1, closure2, fromMain]).count == 5)

        let first = try Casefile.run(["run", pipeline], in: work)
        #expect(first.status == 0)
        let listing = try run(["groups"])
        #expect(listing.status == 0)
        // Header plus five groups; the three cart-total reports (.ips, .crash, KSCrash) are one, listed first.
        #expect(listing.stdout.split(separator: "\n").count == 6)
        let cartLine = try #require(line(of: cart, in: listing.stdout))
        #expect(listing.stdout.split(separator: "\n")[1] == cartLine[...])
        #expect(cartLine.contains(" crash        new        3      "))
        #expect(cartLine.hasSuffix("EXC_BREAKPOINT (SIGTRAP) in apply_discount"))

        // At top1 the cart-total group and the same trap reached from main() would be one.
        let regroup = try run(["groups", "--regroup", "top1"])
        let merge = try #require(regroup.stdout.split(separator: "\n").first { $0.hasPrefix("would merge") })
        #expect(merge.contains(cart) && merge.contains(fromMain))
        #expect(regroup.stdout.hasPrefix("At resolution top1: 5 groups now, 4 after regrouping."))
        // The same preview for scripts.
        let document = try JSON.parse(try run(["groups", "--regroup", "top1", "--format", "json"]).stdout)
        let schema = try JSONSchemaValidator.schema("regroup-v1.schema.json")
        #expect(schema.errors(of: document).isEmpty, "\(schema.errors(of: document).prefix(3))")
        #expect(document["groupsNow"] == .number(5) && document["groupsAfter"] == .number(4))
        let merges = document["merges"]?.array ?? []
        #expect(merges.count == 1)
        #expect(
            Set(merges.first?["groups"]?.array?.compactMap { $0["fingerprint"]?.string } ?? []) == [cart, fromMain])
        // Three cart-total reports and the one from main().
        #expect(merges.first?["occurrences"] == .number(4))

        let resolved = try run(["resolve", cart, "--in-version", "2.4.0"])
        #expect(resolved.status == 0)
        #expect(resolved.stdout.contains("resolved group") && resolved.stdout.contains(" in 2.4.0: "))
        #expect(try run(["resolve", String(imageCache.prefix(8))]).status == 0)
        let merged = try run(["merge-groups", closure1, closure2])
        #expect(merged.stdout.contains("merged group") && merged.stdout.contains("(\(closure2)) into group"))

        // The next night: the cart bug in build 2.4.0 (420) — the fixed version — regresses it; the image cache bug
        // in the build it was seen in before stays resolved; closure #2 lands in the merged group; the watchdog is new.
        try deliver([
            "cart-total-iphone15pro-ios18-xcode16-export.txt", "image-cache-iphonexr-ios14-plcrashreporter.crash",
            "coupon-closure-2-again.crash", "watchdog-8badf00d-ipad-ios11.crash",
        ])
        let second = try Casefile.run(["run", pipeline], in: work)
        #expect(second.status == 0)
        #expect(second.stdout.contains("4 processed, 7 skipped (already seen)"))
        let after = try run(["groups"]).stdout
        #expect(line(of: cart, in: after)?.contains(" regressed  4      ") == true)
        #expect(line(of: imageCache, in: after)?.contains(" resolved   2      ") == true)
        #expect(line(of: closure1, in: after)?.contains(" ongoing    3      ") == true)
        #expect(line(of: closure2, in: after) == nil)
        #expect(line(of: fromMain, in: after)?.contains(" ongoing    1      ") == true)
        let newOnly = try run(["groups", "--new"]).stdout.split(separator: "\n")
        #expect(newOnly.count == 2)
        #expect(newOnly.last?.contains("termination") == true)
        #expect(newOnly.last?.hasSuffix("SPRINGBOARD 0x8badf00d in ImageLoader.finish()") == true)
        let regressed = try run(["groups", "--status", "regressed"]).stdout.split(separator: "\n")
        #expect(regressed.count == 2 && regressed[1].contains(cart))

        let show = try run(["show", String(cart.prefix(10))])
        #expect(show.status == 0)
        #expect(show.stdout.hasPrefix("# Crash group `\(cart)`"))
        #expect(show.stdout.contains("| Status | **regressed** in 2.4.0 (420) |"))
        #expect(show.stdout.contains("2.3.1 (412) × 3, 2.4.0 (420) × 1"))
        #expect(show.stdout.contains("Keyed by the top 3 in-app frames of the crashed thread 0."))
        #expect(show.stdout.contains("| 0 | `apply_discount` | ShopApp | yes | **yes** |  |"))
        #expect(try run(["show", closure2]).stdout.contains("| Merged in | `\(closure2)` |"))

        // The run's output: the digest leads with groups, every touched group has a page, summaries link them.
        let out = work.appendingPathComponent("out")
        let digest = try String(contentsOf: out.appendingPathComponent("digest.md"), encoding: .utf8)
        let newGroups = try #require(digest.range(of: "## New groups"))
        let newReports = try #require(digest.range(of: "## New reports"))
        #expect(newGroups.lowerBound < newReports.lowerBound)
        #expect(digest.contains("## Regressed\n\n| Group |"))
        #expect(digest.contains("[`\(cart)`](groups/\(cart).md)"))
        let page = out.appendingPathComponent("groups/\(cart).md").path
        #expect(FileManager.default.fileExists(atPath: page))
        let summaries = try FileManager.default.contentsOfDirectory(
            atPath: out.appendingPathComponent("reports").path)
        let linking = try summaries.filter { name in
            try String(contentsOfFile: out.appendingPathComponent("reports/\(name)").path, encoding: .utf8)
                .contains("](../groups/\(cart).md)")
        }
        #expect(linking.count == 4)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("groups/\(closure2).md").path))
        // A report id shows the report's summary, with its group linked.
        let reportFile = try #require(linking.first)
        let report = try run(["show", String(reportFile.prefix(8))])
        #expect(report.status == 0)
        #expect(report.stdout.hasPrefix("# Crash report \(reportFile.prefix(12))"))
        #expect(report.stdout.contains("](../groups/\(cart).md)"))
    }

    /// The summary shows the crashed thread; `show REPORT --threads` prints every thread and image from the index's
    /// crash-detail blob. Expected rows read from the PLCrashReporter report: four threads, thread 1's one frame in
    /// libsystem_pthread at 0x1d5bba9f0 (0x1d5bb9000 + 6640), thread 3 crashed, ShopApp's image with its UUID.
    @Test func showsEveryThreadOfAReportFromTheIndex() throws {
        try deliver(["image-cache-iphonexr-ios14-plcrashreporter.crash"])
        _ = try Casefile.run(["run", pipeline], in: work)
        let summaries = try FileManager.default.contentsOfDirectory(
            atPath: work.appendingPathComponent("out/reports").path)
        let report = String(try #require(summaries.first).prefix(10))
        #expect(summaries.count == 1)
        let summary = try run(["show", report])
        #expect(!summary.stdout.contains("0x1d5bba9f0"))

        let result = try run(["show", report, "--threads"])
        #expect(result.status == 0)
        let page = result.stdout
        #expect(page.hasPrefix("# Every thread of report `\(report)"))
        #expect(page.contains("## Crash: 4 threads, 4 binary images\n"))
        #expect(
            page.contains(
                """
                ### Thread 1

                | # | Image | Address | Location |
                |---:|---|---|---|
                | 0 | libsystem\\_pthread.dylib | `0x1d5bba9f0` | `libsystem_pthread.dylib + 6640` |
                """))
        #expect(page.contains("### Thread 3 (crashed)\n"))
        #expect(page.components(separatedBy: "### Thread ").count == 5)
        #expect(
            page.contains(
                "| ShopApp ★ | `4c4c442a-5555-3144-a1c2-ffa5de205d9d` | `0x100e57000` | `0x100e76fff` | arm64 | "))
        #expect(page.contains("| libsystem\\_pthread.dylib | `a0b9c8d7-e6f5-3e0a-b2c1-d0e9f8a7b6c5` | `0x1d5bb9000` |"))

        let unknown = try run(["show", "ffffffffff", "--threads"])
        #expect(unknown.status == 2)
        #expect(
            unknown.stderr
                == "casefile: no single report matches 'ffffffffff'; --threads needs at least 6 digits of a report id\n"
        )
    }

    /// A report listing hundreds of images keeps its system images in the index's image sets; `show --threads` lists
    /// every image back at its own address. The PLCrashReporter report with 40 system images added after its four,
    /// 0x10000 bytes each from 0x1e0000000: every eighth UUID ends in `c0` and ends a set, so the 43 system images
    /// make five sets and none is left over.
    @Test func showsEveryImageOfAReportWhoseSystemImagesAreInSets() throws {
        let sample = try String(
            contentsOfFile: Casefile.sample("Crashes/image-cache-iphonexr-ios14-plcrashreporter.crash"), encoding: .utf8
        )
        let last = "/usr/lib/system/libsystem_pthread.dylib\n"
        let added = (0..<40).map { index in
            let load = 0x1_e000_0000 + index * 0x10000
            let uuid = "5e7a0000000040008000\(1000 + index)000000" + (index % 8 == 7 ? "c0" : "11")
            return
                "0x\(String(load, radix: 16)) - 0x\(String(load + 0xffff, radix: 16))  libextra\(index).dylib arm64  "
                + "<\(uuid)> /usr/lib/system/libextra\(index).dylib\n"
        }
        let grown = try #require(sample.range(of: last)).upperBound
        try (sample[..<grown] + added.joined() + sample[grown...]).write(
            to: inbox.appendingPathComponent("grown.crash"), atomically: true, encoding: .utf8)
        _ = try Casefile.run(["run", pipeline], in: work)
        let sets = try DatabaseQueue(path: work.appendingPathComponent("out/casefile.sqlite").path).read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM image_sets")
        }
        #expect(sets == 5)

        let summaries = try FileManager.default.contentsOfDirectory(
            atPath: work.appendingPathComponent("out/reports").path)
        let report = String(try #require(summaries.first).prefix(10))
        let page = try run(["show", report, "--threads"]).stdout
        #expect(page.contains("## Crash: 4 threads, 44 binary images\n"))
        #expect(
            page.contains(
                "| ShopApp ★ | `4c4c442a-5555-3144-a1c2-ffa5de205d9d` | `0x100e57000` | `0x100e76fff` | arm64 | "))
        #expect(page.contains("| libsystem\\_pthread.dylib | `a0b9c8d7-e6f5-3e0a-b2c1-d0e9f8a7b6c5` | `0x1d5bb9000` |"))
        #expect(
            page.contains(
                "| libextra0.dylib | `5e7a0000-0000-4000-8000-100000000011` | `0x1e0000000` | `0x1e000ffff` | arm64 | ")
        )
        #expect(
            page.contains(
                "| libextra39.dylib | `5e7a0000-0000-4000-8000-1039000000c0` | `0x1e0270000` | `0x1e027ffff` | arm64 | "
            ))
    }

    @Test func refusesAnUnknownGroupWithTheWayOut() throws {
        try deliver(["coupon-closure-1.crash"])
        _ = try Casefile.run(["run", pipeline], in: work)
        let result = try run(["show", "ffffffffff"])
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "casefile: no single group or report matches 'ffffffffff'; give a group id or at least 6 digits of a fingerprint or report id (see `casefile groups`)\n"
        )
        let resolve = try run(["resolve", "ffffffffff"])
        #expect(
            resolve.stderr
                == "casefile: no single group matches 'ffffffffff'; give a group id or at least 6 digits of a fingerprint (see `casefile groups`)\n"
        )
        let noIndex = try Casefile.run(["groups", "--db", work.appendingPathComponent("none.sqlite").path], in: work)
        #expect(noIndex.status == 3)
    }
}
