import Foundation
import Testing

/// Summaries are read rendered (GitHub, the tracker), not as text: rendered with `cmark-gfm` (installed by `make
/// deps`), every name and label shows the characters the report had.
@Suite struct RenderedMarkdownTests {
    static let cmark = ["/usr/bin/cmark-gfm", "/usr/local/bin/cmark-gfm"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The HTML GitHub-flavoured Markdown gives `markdown`.
    static func html(_ markdown: String) throws -> String {
        let path = try #require(cmark, "cmark-gfm is not installed; make deps installs it")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        // --unsafe: raw HTML passes through, as GitHub lets <details> through; a name's `<b>` must arrive escaped.
        process.arguments = [
            "--unsafe", "--extension", "table", "--extension", "strikethrough", "--extension", "autolink",
        ]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let writer = Thread {
            input.fileHandleForWriting.write(Data(markdown.utf8))
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// The text a reader sees: tags removed, entities decoded.
    static func text(ofHTML html: String) -> String {
        var text = ""
        var inTag = false
        for character in html {
            if character == "<" {
                inTag = true
            } else if character == ">" {
                inTag = false
            } else if !inTag {
                text.append(character)
            }
        }
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return text
    }

    /// The tags cmark-gfm writes for Markdown itself.
    static let renderedTags: Set<String> = [
        "h1", "h2", "h3", "h4", "p", "ul", "ol", "li", "table", "thead", "tbody", "tr", "th", "td", "code", "pre",
        "strong", "em", "a", "img", "br", "hr", "blockquote", "del",
    ]

    /// The names of the tags in `html`.
    static func tagNames(_ html: String) -> [String] {
        html.components(separatedBy: "<").dropFirst().compactMap { part in
            let name = part.drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber }
            return name.isEmpty ? nil : name.lowercased()
        }
    }

    /// The texts of `<em>` elements.
    static func emphasized(_ html: String) -> [String] {
        html.components(separatedBy: "<em>").dropFirst().compactMap { $0.components(separatedBy: "</em>").first }
    }

    struct Expected: Decodable {
        var names: [String]
        var reason: String
    }

    @Test func everyHostileNameRendersAsTheCharactersItHas() throws {
        let folder = Casefile.repository.appendingPathComponent("Tests/Fixtures/HostileNames")
        let expected = try JSONDecoder().decode(
            Expected.self, from: Data(contentsOf: folder.appendingPathComponent("expected.json")))
        let result = try Casefile.run(["triage", folder.appendingPathComponent("hostile-names.crash").path])
        #expect(result.status == 0)
        let html = try Self.html(result.stdout)
        let text = Self.text(ofHTML: html)
        for name in expected.names {
            #expect(text.contains(name), "\(name) does not survive rendering")
        }
        // The reason is cut to 160 characters in the headline; what is shown is shown as it was.
        #expect(text.contains(String(expected.reason.prefix(150))))
        // Nothing in a name became markup: no emphasis, strike-through, link or dropped HTML.
        #expect(!html.contains("<em>"))
        #expect(!html.contains("<del>"))
        #expect(!html.contains("<a href=\"https://example.com\""))
        #expect(!html.contains("<b>"))
        // The frame table is still one table with its eight frames.
        #expect(html.components(separatedBy: "<table>").count - 1 >= 2)
    }

    @Test func everySummaryOfTheSamplesRendersWithoutLeakingMarkup() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-render-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let pipeline = work.appendingPathComponent("p.toml")
        try """
        version = 1
        [inbox]
        path = "\(Casefile.repository.appendingPathComponent("SampleReports").path)"
        ignore = ["*.md", "Symbols", "Hostile"]
        [output]
        path = "out"
        frames = false
        """.write(to: pipeline, atomically: true, encoding: .utf8)
        #expect([0, 1].contains(try Casefile.run(["run", pipeline.path], in: work).status))
        let out = work.appendingPathComponent("out")
        var files = ["digest.md"]
        for folder in ["reports", "groups"] {
            files += try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent(folder).path)
                .filter { $0.hasSuffix(".md") }.map { "\(folder)/\($0)" }
        }
        #expect(files.count > 40)
        for file in files {
            let markdown = try String(contentsOf: out.appendingPathComponent(file), encoding: .utf8)
            let html = try Self.html(markdown)
            // The only raw HTML is Casefile's own folding.
            let tags = Set(Self.tagNames(html))
            #expect(
                tags.isSubset(of: Self.renderedTags.union(["details", "summary"])),
                "\(file): \(tags.subtracting(Self.renderedTags))")
            // A table written is a table rendered.
            #expect(!markdown.contains("|---") || html.contains("<table>"), "\(file)")
            // Emphasis only where Casefile writes a note in italics (`_…_` lines), never from a name's underscores.
            for emphasis in Self.emphasized(html) {
                #expect(markdown.contains("_\(emphasis)_"), "\(file): <em>\(emphasis)</em>")
            }
        }

        // The tracker payloads carry the group pages' Markdown: their bodies render the same way.
        let outbox = out.appendingPathComponent("outbox")
        let payloads = try FileManager.default.contentsOfDirectory(atPath: outbox.path).filter { $0.hasSuffix(".json") }
        #expect(payloads.count > 10)
        for name in payloads {
            let document = try JSON.parse(String(contentsOf: outbox.appendingPathComponent(name), encoding: .utf8))
            let body = try #require(document["issue"]?["body"]?.string)
            let html = try Self.html(body)
            #expect(Set(Self.tagNames(html)).isSubset(of: Self.renderedTags.union(["details", "summary"])), "\(name)")
            #expect(html.contains("<table>"), "\(name)")
            #expect(html.contains("<!-- casefile-fingerprint: "), "\(name): the marker stays a comment")
            #expect(!Self.text(ofHTML: html).contains("casefile-fingerprint"), "\(name): the marker shows")
        }

        // The page `make demo` writes: every summary and group page in it, its links inside the page, and no
        // Markdown syntax left in what a reader sees outside code.
        let script = Casefile.repository.appendingPathComponent("Scripts/render-html.sh").path
        let rendered = try Casefile.runTool("/bin/bash", [script, out.path])
        #expect(rendered.status == 0, "\(rendered.stderr)")
        let page = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        for file in files where file != "digest.md" {
            let name = String(file.split(separator: "/")[1].dropLast(3))
            let anchor = file.hasPrefix("reports/") ? "report-\(name)" : "group-\(name)"
            #expect(page.contains("<section id=\"\(anchor)\">"), "\(file) is not on the page")
        }
        #expect(!page.contains("href=\"reports/") && !page.contains(".md\""))
        var outsideCode = page
        while let start = outsideCode.range(of: "<code"),
            let end = outsideCode[start.upperBound...].range(of: "</code>")
        {
            outsideCode.removeSubrange(start.lowerBound..<end.upperBound)
        }
        let visible = Self.text(ofHTML: outsideCode)
        for syntax in ["|---", "](", "```", "<details>"] {
            #expect(!visible.contains(syntax), "'\(syntax)' shows on the page")
        }
        // Bold that did not render ("**EXC…"); a reason's own "*** -[NSArray …]" is text and stays.
        #expect(visible.range(of: #"\*\*[A-Za-z]"#, options: .regularExpression) == nil)
    }
}
