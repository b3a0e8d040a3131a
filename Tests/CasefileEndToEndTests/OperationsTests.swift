import Foundation
import Testing

/// What an operator scripts against: the version line, exit codes, `--json`, `--log-level`, and the sample cron line
/// and systemd units.
@Suite final class OperationsTests {
    let work: URL

    init() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-ops-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: work.appendingPathComponent("inbox"), withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: work)
    }

    private func pipeline(inbox: String = "inbox") throws -> String {
        let path = work.appendingPathComponent("pipeline.toml")
        try
            "version = 1\n[inbox]\npath = \"\(inbox)\"\nignore = [\"*.md\", \"Symbols\", \"Hostile\"]\n[output]\npath = \"out\"\nframes = false\n"
            .write(to: path, atomically: true, encoding: .utf8)
        return path.path
    }

    @Test func printsItsVersion() throws {
        let result = try Casefile.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("casefile 0."))
        #expect(result.stdout.contains("outbox casefile-outbox/1"))
    }

    @Test func exitCodesSayWhatHappened() throws {
        // 0: every input processed.
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: Casefile.sample("Crashes/cart-total-iphone14-ios16.ips")),
            to: work.appendingPathComponent("inbox/a.ips"))
        #expect(try Casefile.run(["run", try pipeline()], in: work).status == 0)
        // 1: an input quarantined, the rest processed.
        try Data("{\"bug_type\": \"309\"".utf8).write(to: work.appendingPathComponent("inbox/broken.ips"))
        #expect(try Casefile.run(["run", try pipeline()], in: work).status == 1)
        // 2: a usage error.
        #expect(try Casefile.run(["run", "--log-level", "loud", try pipeline()], in: work).status == 2)
        #expect(try Casefile.run(["run", work.appendingPathComponent("missing.toml").path], in: work).status == 2)
    }

    @Test func printsTheRunAsJSONForScripts() throws {
        let validator = try JSONSchemaValidator.schema("run-v1.schema.json")
        let samples = Casefile.repository.appendingPathComponent("SampleReports").path
        let result = try Casefile.run(["run", "--json", try pipeline(inbox: samples)], in: work)
        #expect(result.status == 1)
        let document = try JSON.parse(result.stdout)
        #expect(validator.errors(of: document).isEmpty, "\(validator.errors(of: document).prefix(3))")
        #expect(document["exitCode"] == .number(1))
        // Malformed/ holds the quarantined samples; stderr names each once too.
        let quarantined = document["quarantined"]?.array ?? []
        #expect(!quarantined.isEmpty)
        #expect(quarantined.count == result.stderr.components(separatedBy: "quarantined: ").count - 1)
        #expect(quarantined.allSatisfy { $0["input"]?.string?.contains("/Malformed/") == true })
        #expect(!validator.errors(of: try JSON.parse(#"{"schemaVersion": 1}"#)).isEmpty)
    }

    @Test func logsAtTheLevelAsked() throws {
        let samples = Casefile.repository.appendingPathComponent("SampleReports").path
        let quiet = try Casefile.run(["run", "--log-level", "error", try pipeline(inbox: samples)], in: work)
        #expect(!quiet.stderr.contains(" notice casefile"))
        try FileManager.default.removeItem(at: work.appendingPathComponent("out"))
        // Each quarantined input is logged at notice level too.
        let chatty = try Casefile.run(["run", "--log-level", "notice", try pipeline(inbox: samples)], in: work)
        #expect(chatty.stderr.contains(" notice casefile: [CasefileCore] quarantined: "))
    }

    @Test func theSampleCronLineAndSystemdUnitsUseRealCommands() throws {
        let folder = Casefile.repository.appendingPathComponent("Pipelines")
        var commands: [String] = []
        for name in ["casefile.cron", "casefile-nightly.service"] {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                // `./casefile run …`, `/srv/casefile/casefile publish …` (not the folder `/srv/casefile && …`).
                for part in line.components(separatedBy: "casefile ").dropFirst()
                where part.first.map({ $0.isLetter && $0.isLowercase }) == true {
                    commands.append(String(part.prefix { $0 != ";" && $0 != "&" }))
                }
            }
        }
        #expect(commands.count == 4)
        for command in commands {
            let words = command.split(separator: " ").map(String.init)
            let help = try Casefile.run([words[0], "--help"])
            #expect(help.status == 0, "\(command)")
            for flag in words.dropFirst() where flag.hasPrefix("--") {
                #expect(help.stdout.contains(flag), "\(command): \(flag)")
            }
        }
        let timer = try String(contentsOf: folder.appendingPathComponent("casefile-nightly.timer"), encoding: .utf8)
        #expect(timer.contains("OnCalendar=") && timer.contains("Persistent=true"))
    }
}
