import Foundation
import GRDB
import Testing

/// A run killed between writing a summary beside its name and renaming it leaves a hidden temporary file; the run that
/// finishes its work removes it, and leaves every other file alone.
@Suite final class AbandonedTemporariesTests {
    let work: URL

    init() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-tmp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: work.appendingPathComponent("inbox"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: Casefile.sample("Crashes/cart-total-iphone14-ios16.ips")),
            to: work.appendingPathComponent("inbox/a.ips"))
        try Casefile.writeBarePipeline(in: work)
    }

    deinit {
        try? FileManager.default.removeItem(at: work)
    }

    /// The id of a process that has exited: a writer that is gone.
    func deadProcess() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    func files(in folder: String) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: work.appendingPathComponent("out/\(folder)").path))
    }

    @Test func theRunAfterAKilledOneRemovesWhatItsWritersLeft() throws {
        #expect(try Casefile.run(["run", "pipeline.toml"], in: work).status == 0)
        let dead = try deadProcess()
        let mine = ProcessInfo.processInfo.processIdentifier
        let left = [
            "reports/.0bab9e3d7cd3.md.\(dead).17.tmp", "groups/.525345147b4e2891.md.\(dead).3.tmp",
            "outbox/.1-525345147b4e2891.json.\(dead).4.tmp", ".digest.md.\(dead).tmp",
        ]
        let kept = [
            // A live process's (this test's), not ours by their names, or not temporary.
            "reports/.0bab9e3d7cd3.md.\(mine).2.tmp", "reports/notes.tmp", "reports/.hidden", "reports/.x.md.abc.tmp",
        ]
        for name in left + kept {
            try Data("half".utf8).write(to: work.appendingPathComponent("out/\(name)"))
        }
        let before = try files(in: "reports")
        // Only a run after a killed one looks: the next run after a finished one leaves them.
        #expect(try Casefile.run(["run", "pipeline.toml"], in: work).status == 0)
        #expect(try files(in: "reports") == before)
        // As if the last run was killed before it finished.
        try DatabaseQueue(path: work.appendingPathComponent("out/casefile.sqlite").path).write { db in
            try db.execute(sql: "UPDATE runs SET finished_at = NULL WHERE id = (SELECT MAX(id) FROM runs)")
        }
        #expect(try Casefile.run(["run", "pipeline.toml"], in: work).status == 0)
        for name in left {
            #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("out/\(name)").path), "\(name)")
        }
        for name in kept {
            #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("out/\(name)").path), "\(name)")
        }
    }
}
