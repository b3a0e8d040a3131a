import Foundation
import Testing

/// The seeded-secrets sample (`Scripts/make-secrets-sample.py`) holds a secret of every kind — credential headers,
/// query tokens, URL passwords, JSON and form bodies, emails, phone numbers, JWTs, `Bearer` values, API keys in a
/// log, Keychain items and UserDefaults tokens. None may reach anything Casefile writes or prints.
@Suite final class SecretsTests {
    let work: URL
    let sample = Casefile.repository.appendingPathComponent("Tests/Fixtures/Secrets/seeded-secrets.zip")
    /// Written by the script beside the sample, one per line; read by a person from the script's own list.
    let secrets: [String]

    init() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-secrets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: work.appendingPathComponent("inbox"), withIntermediateDirectories: true)
        let list = try String(
            contentsOf: Casefile.repository.appendingPathComponent("Tests/Fixtures/Secrets/secrets.txt"),
            encoding: .utf8)
        secrets = list.split(separator: "\n").map(String.init)
    }

    deinit {
        try? FileManager.default.removeItem(at: work)
    }

    /// The secrets found in `text`.
    private func leaks(in text: String) -> [String] {
        secrets.filter { text.contains($0) }
    }

    @Test func theListCoversEveryKind() {
        #expect(secrets.count == 18)
        #expect(secrets.contains("jane.doe@example.com"))
    }

    @Test func triageMarkdownAndJSONHoldNoSecret() throws {
        let markdown = try Casefile.run(["triage", sample.path])
        #expect(markdown.status == 0)
        #expect(leaks(in: markdown.stdout + markdown.stderr) == [])
        // What was masked keeps its kind, and what is not secret survives.
        #expect(markdown.stdout.contains("`theme` = `dark`"))
        #expect(markdown.stdout.contains("sk_live_…[redacted]"))
        #expect(markdown.stdout.contains("Bearer …[redacted]"))
        #expect(markdown.stdout.contains("eyJ…[redacted JWT]"))
        #expect(markdown.stdout.contains("[redacted email]"))
        #expect(markdown.stdout.contains("[redacted phone]"))
        let json = try Casefile.run(["triage", "--format", "json", sample.path])
        #expect(json.status == 0)
        #expect(leaks(in: json.stdout + json.stderr) == [])
        #expect(json.stdout.contains("u-1"))
    }

    @Test func noFileTheNightlyRunWritesHoldsASecret() throws {
        try FileManager.default.copyItem(
            at: sample, to: work.appendingPathComponent("inbox/seeded-secrets.zip"))
        let pipeline = work.appendingPathComponent("pipeline.toml")
        try "version = 1\n[inbox]\npath = \"inbox\"\n[output]\npath = \"out\"\nframes = false\n".write(
            to: pipeline, atomically: true, encoding: .utf8)
        let result = try Casefile.run(["run", "--verbose", pipeline.path], in: work)
        #expect(result.status == 0)
        #expect(leaks(in: result.stdout + result.stderr) == [])
        let output = work.appendingPathComponent("out")
        let files = try FileManager.default.subpathsOfDirectory(atPath: output.path)
        #expect(files.contains("casefile.sqlite"))
        #expect(files.contains { $0.hasPrefix("reports/") && $0.hasSuffix(".md") })
        for file in files {
            let url = output.appendingPathComponent(file)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            // Bytes as Latin-1: every secret is ASCII, and SQLite pages are not UTF-8.
            let text = String(decoding: try Data(contentsOf: url).map { $0 }, as: Unicode.ASCII.self)
            #expect(leaks(in: text) == [], "\(file)")
        }
    }
}
