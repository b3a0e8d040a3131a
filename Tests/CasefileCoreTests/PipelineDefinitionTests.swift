import CasefileArchive
import CasefileCore
import Foundation
import Testing

@Suite struct PipelineDefinitionTests {
    let base = URL(fileURLWithPath: "/srv/casefile/Pipelines")

    @Test func readsTheNightlyDefinition() throws {
        let path = Samples.repository.appendingPathComponent("Pipelines/nightly.toml").path
        let definition = try PipelineDefinition.load(from: path)
        #expect(definition.inbox.path == Samples.repository.appendingPathComponent("SampleReports").path)
        #expect(definition.output.path == Samples.repository.appendingPathComponent("out").path)
        #expect(definition.database.lastPathComponent == "casefile.sqlite")
        #expect(definition.ignore == ["*.md", "*.py", "*.sh", "Symbols", "Hostile"])
        #expect(definition.limits == ArchiveLimits.default)
        #expect(definition.bytesInFlight == 12 << 20)
        #expect(
            definition.symbolFolders.map(\.path) == [
                Samples.repository.appendingPathComponent("SampleReports/Symbols").path
            ])
    }

    @Test func resolvesRelativePathsAgainstTheDefinitionsFolder() throws {
        let toml = """
            version = 1
            [inbox]
            path = "../inbox"
            [output]
            path = "/var/casefile"
            [limits]
            max_entries = 50
            max_bytes_in_flight = 8388608
            """
        let definition = try PipelineDefinition(toml: toml, file: "x.toml", baseDirectory: base)
        #expect(definition.inbox.path == "/srv/casefile/inbox")
        #expect(definition.database.path == "/var/casefile/casefile.sqlite")
        #expect(definition.limits.maxEntries == 50)
        #expect(definition.limits.maxNestingDepth == ArchiveLimits.default.maxNestingDepth)
        #expect(definition.bytesInFlight == 8 << 20)
    }

    @Test(arguments: [
        (
            "version = 2\n[inbox]\npath = \"a\"",
            "x.toml: version: version 2 is not supported; this build reads versions 1 to 1"
        ),
        ("[inbox]\npath = \"a\"", "x.toml: version: missing; this build reads version 1"),
        ("version = 1", "x.toml: inbox.path: missing; name the folder reports arrive in"),
        ("version = 1\n[inbox]\npath = 3", "x.toml: inbox.path: expected a string"),
        (
            "version = 1\n[inbox]\npath = \"a\"\n[limits]\nmax_entrys = 5",
            "x.toml: limits.max_entrys: unknown key; known keys here are max_bytes_in_flight, max_compression_ratio, max_entries, max_entry_bytes, max_nesting_depth, max_total_bytes, reports_per_part"
        ),
        (
            "version = 1\n[inbox]\npath = \"a\"\n[limits]\nmax_entries = 0",
            "x.toml: limits.max_entries: expected a positive integer, got 0"
        ),
        (
            "version = 1\n[inbox]\npath = \"a\"\n[limits]\nmax_bytes_in_flight = -1",
            "x.toml: limits.max_bytes_in_flight: expected a positive integer, got -1"
        ),
        ("version = 1\n[inbox]\npath = \"a\"\nignore = [\"*.md\", 4]", "x.toml: inbox.ignore[1]: expected a string"),
        (
            "version = 1\n[inbox]\npath = \"a\"\n[grouping]\nprimary = \"top2\"",
            "x.toml: grouping.primary: expected top1, top3 or topN, got 'top2'"
        ),
        (
            "version = 1\n[inbox]\npath = \"a\"\n[grouping]\nrules = [\"function:main +app\"]",
            "x.toml: grouping.rules[0]: 'function:main +app' is not a rule; write 'image:GLOB +app', 'image:GLOB -app', 'image:GLOB -group' or 'function:GLOB -group'"
        ),
    ])
    func refusesBadDefinitionsNamingTheKey(_ toml: String, _ message: String) {
        let error = #expect(throws: ConfigurationError.self) {
            try PipelineDefinition(toml: toml, file: "x.toml", baseDirectory: base)
        }
        #expect(error?.description == message)
    }

    @Test func readsGroupingRulesOnTopOfTheDefaults() throws {
        let toml = """
            version = 1
            [inbox]
            path = "inbox"
            [grouping]
            primary = "top1"
            frames = 8
            in_app = ["ShopKit*"]
            sentinel = ["ShopApp.Crash.report*"]
            rules = ["image:Firebase* -app", "function:*Logger* -group"]
            """
        let definition = try PipelineDefinition(toml: toml, file: "x.toml", baseDirectory: base)
        #expect(definition.primaryResolution == .top1)
        #expect(definition.grouping.allFrames == 8)
        #expect(definition.grouping.inAppImages == ["ShopKit*"])
        #expect(definition.grouping.sentinel.contains("objc_exception_throw"))
        #expect(definition.grouping.sentinel.last == "ShopApp.Crash.report*")
        #expect(
            definition.grouping.overrides.map(\.description) == ["image:Firebase* -app", "function:*Logger* -group"])
        #expect(definition.grouping.version != GroupingRules.default.version)
    }

    @Test func readsRedactionRulesOnTopOfTheDefaults() throws {
        let toml = """
            version = 1
            [inbox]
            path = "inbox"
            [redaction]
            headers = ["X-Shop-Session"]
            keys = ["loyalty_number"]
            phones = false
            patterns = ["ORD-[0-9]{6}"]
            """
        let rules = try PipelineDefinition(toml: toml, file: "x.toml", baseDirectory: base).redaction
        #expect(rules.headers.contains("authorization"))
        #expect(rules.headers.last == "X-Shop-Session")
        #expect(rules.keys.contains("password") && rules.keys.last == "loyalty_number")
        #expect(rules.phones == false && rules.emails == true)
        #expect(rules.patterns == ["ORD-[0-9]{6}"])
        let bad = "version = 1\n[inbox]\npath = \"inbox\"\n[redaction]\npatterns = [\"ORD-[0-9\"]\n"
        let error = #expect(throws: ConfigurationError.self) {
            try PipelineDefinition(toml: bad, file: "x.toml", baseDirectory: base)
        }
        #expect(error?.description.contains("redaction.patterns[0]") == true)
    }

    @Test func refusesTextThatIsNotTOML() {
        let error = #expect(throws: ConfigurationError.self) {
            try PipelineDefinition(toml: "version = = 1", file: "x.toml", baseDirectory: base)
        }
        #expect(error?.description.hasPrefix("x.toml: not valid TOML at line 1") == true)
    }
}
