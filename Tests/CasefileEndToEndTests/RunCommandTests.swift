import Foundation
import GRDB
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite final class RunCommandTests {
    let work: URL

    init() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: work)
    }

    func pipeline(_ body: String) throws -> String {
        let path = work.appendingPathComponent("pipeline.toml").path
        try body.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    var samples: String { Casefile.repository.appendingPathComponent("SampleReports").path }

    @Test func indexesTheSamplesOnceAndNothingTheSecondTime() throws {
        let path = try pipeline(
            """
            version = 1
            [inbox]
            path = "\(samples)"
            ignore = ["*.md", "Symbols", "Hostile"]
            [output]
            path = "out"
            """)
        let first = try Casefile.run(["run", path], in: work)
        #expect(first.status == 1)
        let database = work.appendingPathComponent("out/casefile.sqlite").path
        let reports = work.appendingPathComponent("out/reports").path
        #expect(
            first.stdout
                == "casefile: 32 processed, 0 skipped (already seen), 6 quarantined; 27 new reports, 7 duplicates — index \(database), summaries \(reports)\n"
        )
        let quarantined = first.stderr.split(separator: "\n").filter { $0.hasPrefix("quarantined: ") }
        #expect(quarantined.count == 6)
        #expect(
            quarantined.contains {
                $0.hasSuffix(
                    "archive-bomb.zip: entry 'Modules/module_view.json': compression ratio over 200:1 (6619136 bytes from 32763 compressed); this looks like an archive bomb"
                )
            })
        let summaries = try FileManager.default.contentsOfDirectory(atPath: reports).filter { $0.hasSuffix(".md") }
        #expect(summaries.count == 27)
        // Nothing written keeps checkout-bugreport.zip's bearer token, session cookie, card number or analytics
        // session token: not the index (its WAL included), not a summary.
        let written = FileManager.default.enumerator(atPath: work.appendingPathComponent("out").path)
        while let file = written?.nextObject() as? String {
            let bytes = (try? Data(contentsOf: work.appendingPathComponent("out/\(file)"))) ?? Data()
            for secret in ["eyJhbGci", "s3cr3t-session", "4111111111111111", "tok-991"] {
                #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) in out/\(file)")
            }
        }
        #expect(summaries.contains("1bd8b1d4ec00.md"))

        let second = try Casefile.run(["run", path], in: work)
        #expect(second.status == 0)
        #expect(
            second.stdout.hasPrefix("casefile: 0 processed, 37 skipped (already seen), 0 quarantined; 0 new reports — ")
        )
        #expect(second.stderr.isEmpty)
    }

    @Test func refusesAnUnknownDefinitionVersionWithExitCode2() throws {
        let path = try pipeline("version = 9\n[inbox]\npath = \"in\"\n")
        let result = try Casefile.run(["run", path], in: work)
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "casefile: \(path): version: version 9 is not supported; this build reads versions 1 to 1\n")
    }

    @Test func refusesAMissingInboxWithExitCode2() throws {
        let path = try pipeline("version = 1\n[inbox]\npath = \"nowhere\"\n")
        let result = try Casefile.run(["run", path], in: work)
        #expect(result.status == 2)
        #expect(result.stderr == "casefile: \(work.path)/nowhere: the inbox folder does not exist\n")
    }

    @Test func exitsWith3WhileAnotherRunHoldsTheLock() throws {
        let path = try pipeline("version = 1\n[inbox]\npath = \"\(samples)\"\n[output]\npath = \"out\"\n")
        try FileManager.default.createDirectory(
            at: work.appendingPathComponent("out"), withIntermediateDirectories: true)
        let lockPath = work.appendingPathComponent("out/casefile.sqlite.lock").path
        let descriptor = open(lockPath, O_CREAT | O_RDWR, 0o644)
        #expect(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        defer { close(descriptor) }
        let result = try Casefile.run(["run", path], in: work)
        #expect(result.status == 3)
        #expect(
            result.stderr
                == "casefile: \(lockPath): another casefile run holds the lock; try again when it ends, or pass --wait\n"
        )
    }

    @Test func waitsForTheLockWithWait() throws {
        let inbox = work.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: Casefile.sample("Crashes/cart-total-iphone14-ios16.ips")),
            to: inbox.appendingPathComponent("a.ips"))
        let path = try pipeline("version = 1\n[inbox]\npath = \"inbox\"\n[output]\npath = \"out\"\n")
        try FileManager.default.createDirectory(
            at: work.appendingPathComponent("out"), withIntermediateDirectories: true)
        let descriptor = open(work.appendingPathComponent("out/casefile.sqlite.lock").path, O_CREAT | O_RDWR, 0o644)
        #expect(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        // The other "run" ends after a second.
        let started = Date()
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) { close(descriptor) }
        let result = try Casefile.run(["run", "--wait", path], in: work)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) >= 1)
        #expect(result.stdout.hasPrefix("casefile: 1 processed"))
    }
}

@Suite final class DigestTests {
    let work: URL

    init() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-digest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: work.appendingPathComponent("inbox"), withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: work)
    }

    @Test func writesFiguresNewReportsAndSymbolCoverage() throws {
        let symbols = Casefile.repository.appendingPathComponent("SampleReports/Symbols")
        try FileManager.default.copyItem(
            at: symbols.appendingPathComponent("Crashes/checkout-total-iphone14.crash"),
            to: work.appendingPathComponent("inbox/checkout-total-iphone14.crash"))
        let pipeline = try Casefile.writePipeline(in: work, symbols: symbols.path)
        let result = try Casefile.run(["run", pipeline], in: work)
        #expect(result.status == 0)
        let digest = try String(contentsOf: work.appendingPathComponent("out/digest.md"), encoding: .utf8)
        #expect(digest.contains("| 1 | 1 | 0 | 0 | 1 | 0 |"))
        // Three of the crash's four frames are in ShopApp, whose dSYM is in the symbol folder; libdyld's is not.
        #expect(digest.contains("App frames symbolicated: 3 of 3 (100 %)."))
        #expect(digest.contains("| libdyld.dylib | `5b4c3d2e-1f0a-39b8-c7d6-e5f4a3b2c1d0` | 1 |"))
        #expect(
            digest.contains(#"**EXC\_BAD\_ACCESS (SIGSEGV)** in `CartViewModel.total() + 44 (checkout.c:17)"#))
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("out/runs/run-1.md").path))
    }
}

@Suite final class UnchangedInputTests {
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-unchanged-\(UUID().uuidString)")

    deinit {
        try? FileManager.default.removeItem(at: work)
    }

    /// `touch`, which sets times to the nanosecond as the file system keeps them.
    func touch(_ arguments: [String]) throws {
        let process = try Process.run(URL(fileURLWithPath: "/usr/bin/touch"), arguments: arguments)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test func skipsAnInputWhoseSizeAndTimesAreUnchangedWithoutReadingIt() throws {
        let inbox = work.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        let crash = inbox.appendingPathComponent("crash.ips")
        let source = Casefile.sample("Crashes/cart-total-iphone14-ios16.ips")
        try FileManager.default.copyItem(atPath: source, toPath: crash.path)
        let pipeline = work.appendingPathComponent("p.toml").path
        try "version = 1\n[inbox]\npath = \"inbox\"\n[output]\npath = \"out\"\n".write(
            toFile: pipeline, atomically: true, encoding: .utf8)
        #expect(try Casefile.run(["run", pipeline], in: work).stdout.hasPrefix("casefile: 1 processed, 0 skipped"))
        // The same bytes count, another incident, and the old modification time: taken as unchanged, never read.
        let reference = work.appendingPathComponent("reference").path
        try FileManager.default.copyItem(atPath: crash.path, toPath: reference)
        try touch(["-r", crash.path, reference])
        let text = try String(contentsOf: crash, encoding: .utf8)
        try text.replacingOccurrences(of: "3C1F0A52", with: "3C1F0A53").write(
            to: crash, atomically: false, encoding: .utf8)
        try touch(["-r", reference, crash.path])
        #expect(try Casefile.run(["run", pipeline], in: work).stdout.hasPrefix("casefile: 0 processed, 1 skipped"))
        // A newer modification time: read, hashed, and indexed as the new incident it is.
        try touch([crash.path])
        let third = try Casefile.run(["run", pipeline], in: work).stdout
        #expect(third.hasPrefix("casefile: 1 processed, 0 skipped (already seen), 0 quarantined; 1 new report"))
    }
}

/// The stored symbol answers are only a cache: rows a run cannot read are asked again, where they stopped every run.
@Suite final class DamagedSymbolCacheTests {
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-symcache-\(UUID().uuidString)")

    deinit {
        try? FileManager.default.removeItem(at: work)
    }

    @Test func aRunSymbolicatesAgainWhatTheCacheCannotAnswer() throws {
        let symbols = Casefile.repository.appendingPathComponent("SampleReports/Symbols")
        let inbox = work.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: symbols.appendingPathComponent("Crashes/checkout-total-iphone14.crash"),
            to: inbox.appendingPathComponent("first.crash"))
        let pipeline = try Casefile.writePipeline(in: work, symbols: symbols.path)
        #expect(try Casefile.run(["run", pipeline], in: work).status == 0)
        // The first run stored the answers for ShopApp's three frames; every one of them is now unreadable.
        let database = try DatabaseQueue(path: work.appendingPathComponent("out/casefile.sqlite").path)
        let damaged = try database.write { db in
            try db.execute(sql: "UPDATE symbol_cache SET locations_json = '[{'")
            return db.changesCount
        }
        #expect(damaged == 3)
        // Another crash of the same build (ShopApp 4c4c442a-…), in the same function.
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: Casefile.sample("Crashes/cart-total-iphone14-ios16.ips")),
            to: inbox.appendingPathComponent("second.ips"))
        let second = try Casefile.run(["run", pipeline], in: work)
        #expect(second.status == 0)
        let digest = try String(contentsOf: work.appendingPathComponent("out/digest.md"), encoding: .utf8)
        // checkout.c line 17, in cart_total: what the debug file says, asked again.
        #expect(digest.contains("in `CartViewModel.total() + 44 (checkout.c:17)"))
        let readable = try database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM symbol_cache WHERE locations_json != '[{'")
        }
        #expect(readable ?? 0 > 0)
    }
}
