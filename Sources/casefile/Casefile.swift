import ArgumentParser
import CasefileCore
import CasefileStore
import Foundation

/// The `casefile` command: arguments, wiring and exit codes; the work happens in the libraries.
@main
struct Casefile: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "casefile",
        abstract: "Turn iOS bug reports and crash reports into triage answers.",
        discussion: """
            Exit codes: 0 all inputs processed, 1 some inputs quarantined (the rest processed) or some payloads \
            left for the next publish, 2 usage or configuration error, 3 the run could not start (lock held, \
            database unreadable).
            """,
        version: "casefile \(CasefileVersion.current) (\(interfaces))",
        subcommands: [
            Triage.self, Run.self, Publish.self, Symbolicate.self, Groups.self, Show.self, Resolve.self,
            MergeGroups.self,
        ]
    )

    /// What the version line lists after the version: the layouts this build writes.
    static var interfaces: String {
        CasefileVersion.interfaces(
            indexMigrations: IndexStore.migrations,
            indexDocuments: [
                ("report", IndexedReportDocument.currentSchemaVersion),
                ("regroup", RegroupDocument.currentSchemaVersion),
            ])
    }

    /// Runs the command, mapping argument errors to exit code 2 as DESIGN.md specifies.
    static func main() async {
        // libarchive converts every zip entry's DOS time with mktime; with TZ unset glibc then stats /etc/localtime
        // on every call (thousands per nightly run). Naming the same zone explicitly, before any thread starts, lets
        // glibc read it once.
        if getenv("TZ") == nil { setenv("TZ", ":/etc/localtime", 0) }
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let code as ExitCode {
            exit(withError: code)
        } catch let error as StoreError {
            // The index cannot be read (a damaged row or file): exit code 3, as for an index that cannot be opened.
            printError("casefile: \(error)")
            Foundation.exit(ExitStatus.cannotStart.rawValue)
        } catch  where StoreError.isDatabaseFailure(error) {
            printError("casefile: the index cannot be read: \(error)")
            Foundation.exit(ExitStatus.cannotStart.rawValue)
        } catch {
            if exitCode(for: error) == .success {
                exit(withError: error)
            }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(ExitStatus.usage.rawValue)
        }
    }
}

/// The process exit codes of DESIGN.md.
enum ExitStatus: Int32 {
    /// Everything was processed.
    case success = 0
    /// Some inputs were quarantined; the rest were processed.
    case quarantined = 1
    /// The command line or the pipeline definition is wrong.
    case usage = 2
    /// The run could not start: the lock is held or the database cannot be opened.
    case cannotStart = 3

    var exitCode: ExitCode {
        ExitCode(rawValue)
    }
}

/// Writes one line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Prints a document as the JSON the `--format json` options write (``DocumentEncoding``).
func printJSON(_ document: some Encodable) throws {
    print(String(decoding: try DocumentEncoding.encoder().encode(document), as: UTF8.self))
}
