import Foundation
import GRDB
import Testing

/// A group's title does not depend on which input the run's parallel tasks indexed first, nor on kills: it is its
/// occurrence's from the input that sorts first by path, until the run that found the group is done.
@Suite final class GroupTitleTests {
    let work: URL

    /// The same watchdog kill, 0x8badf00d in ShopApp, in two formats that title it apart: the Apple text report names
    /// SpringBoard's namespace, the MetricKit diagnostic the termination context's domain 10. `a-` sorts first.
    static let inputs = [
        "a-watchdog.crash": "Crashes/watchdog-8badf00d-ipad-ios11.crash",
        "b-watchdog.json": "Crashes/watchdog-ios17-metrickit-diagnostic.json",
    ]

    init() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-titles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: work.appendingPathComponent("inbox"), withIntermediateDirectories: true)
        try Casefile.writeBarePipeline(in: work)
    }

    deinit {
        try? FileManager.default.removeItem(at: work)
    }

    func deliver(_ name: String) throws {
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: Casefile.sample(Self.inputs[name]!)),
            to: work.appendingPathComponent("inbox/\(name)"))
    }

    func run() throws {
        let result = try Casefile.run(["run", "pipeline.toml"], in: work)
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// The titles of the index's groups.
    func titles() throws -> [String] {
        try DatabaseQueue(path: work.appendingPathComponent("out/casefile.sqlite").path).read { db in
            try String.fetchAll(db, sql: "SELECT title FROM groups ORDER BY id")
        }
    }

    @Test func oneRunOverBothTakesTheTitleOfTheInputThatSortsFirst() throws {
        try deliver("a-watchdog.crash")
        try deliver("b-watchdog.json")
        try run()
        let titles = try titles()
        #expect(titles.count == 1)
        #expect(titles.first?.contains("SPRINGBOARD 0x8badf00d") == true, "\(titles)")
    }

    @Test func aRunKilledAfterIndexingTheLaterInputLeavesTheSameTitle() throws {
        try deliver("b-watchdog.json")
        try run()
        let before = try titles()
        #expect(before.first?.contains("domain 10") == true, "\(before)")
        // As if that run was killed after its commit, before it finished: its groups' first run is not done.
        try DatabaseQueue(path: work.appendingPathComponent("out/casefile.sqlite").path).write { db in
            try db.execute(sql: "UPDATE runs SET finished_at = NULL")
        }
        try deliver("a-watchdog.crash")
        try run()
        let titles = try titles()
        #expect(titles.count == 1)
        #expect(titles.first?.contains("SPRINGBOARD 0x8badf00d") == true, "\(titles)")
        // Its page, written by the run that finished the work, says the same.
        let pages = work.appendingPathComponent("out/groups")
        let page = try #require(try FileManager.default.contentsOfDirectory(atPath: pages.path).first)
        let text = try String(contentsOf: pages.appendingPathComponent(page), encoding: .utf8)
        #expect(text.contains("SPRINGBOARD 0x8badf00d"))
    }

    @Test func aTitleStaysOnceTheRunThatFoundItIsDone() throws {
        try deliver("b-watchdog.json")
        try run()
        try deliver("a-watchdog.crash")
        try run()
        let titles = try titles()
        #expect(titles.count == 1)
        #expect(titles.first?.contains("domain 10") == true, "\(titles)")
    }
}
