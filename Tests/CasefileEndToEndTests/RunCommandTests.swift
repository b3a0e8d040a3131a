import Foundation
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
            ignore = ["*.md", "Symbols"]
            [output]
            path = "out"
            """)
        let first = try Casefile.run(["run", path], in: work)
        #expect(first.status == 1)
        let database = work.appendingPathComponent("out/casefile.sqlite").path
        let reports = work.appendingPathComponent("out/reports").path
        #expect(
            first.stdout
                == "casefile: 31 processed, 0 skipped (already seen), 6 quarantined; 26 new reports, 7 duplicates — index \(database), summaries \(reports)\n"
        )
        let quarantined = first.stderr.split(separator: "\n").filter { $0.hasPrefix("quarantined: ") }
        #expect(quarantined.count == 6)
        #expect(
            quarantined.contains {
                $0.hasSuffix(
                    "archive-bomb.zip: entry 'Modules/module_view.json': compression ratio over 200:1 (6619136 bytes from 32763 compressed); this looks like an archive bomb"
                )
            })
        let summaries = try FileManager.default.contentsOfDirectory(atPath: reports)
        #expect(summaries.count == 26)
        #expect(summaries.contains("1bd8b1d4ec00.md"))

        let second = try Casefile.run(["run", path], in: work)
        #expect(second.status == 0)
        #expect(
            second.stdout.hasPrefix("casefile: 0 processed, 36 skipped (already seen), 0 quarantined; 0 new reports — ")
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
        #expect(result.stderr == "casefile: \(lockPath): another casefile run holds the lock; try again when it ends\n")
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
        let pipeline = work.appendingPathComponent("pipeline.toml")
        try """
        version = 1
        [inbox]
        path = "inbox"
        [output]
        path = "out"
        [symbols]
        paths = ["\(symbols.path)"]
        """.write(to: pipeline, atomically: true, encoding: .utf8)
        let result = try Casefile.run(["run", pipeline.path], in: work)
        #expect(result.status == 0)
        let digest = try String(contentsOf: work.appendingPathComponent("out/digest.md"), encoding: .utf8)
        #expect(digest.contains("| 1 | 1 | 0 | 0 | 1 | 0 |"))
        // Three of the crash's four frames are in ShopApp, whose dSYM is in the symbol folder; libdyld's is not.
        #expect(digest.contains("App frames symbolicated: 3 of 3 (100 %)."))
        #expect(digest.contains("| libdyld.dylib | `5b4c3d2e-1f0a-39b8-c7d6-e5f4a3b2c1d0` | 1 |"))
        #expect(digest.contains("**EXC_BAD_ACCESS (SIGSEGV)** in `ShopApp.CartViewModel.total() + 44 (checkout.c:17)"))
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("out/runs/run-1.md").path))
    }
}
