import ArgumentParser
import CasefileCore
import CasefileStore
import Foundation

/// Which index a query command reads: `--db PATH`, or the database the pipeline definition names.
struct IndexOptions: ParsableArguments {
    @Option(name: .long, help: "The SQLite index (default: the database of the pipeline definition).")
    var db: String?

    @Option(name: .long, help: "The pipeline definition whose database to read.")
    var pipeline = "Pipelines/nightly.toml"

    /// The definition, when it can be read; commands that only query work without one given `--db`.
    func definition() throws -> PipelineDefinition? {
        guard db == nil || FileManager.default.fileExists(atPath: pipeline) else { return nil }
        do {
            return try PipelineDefinition.load(from: pipeline)
        } catch {
            printError("casefile: \(error)")
            throw ExitStatus.usage.exitCode
        }
    }

    /// Opens the index, which must exist: a query never creates one.
    func open() throws -> IndexStore {
        let path = try db ?? definition()?.database.path ?? "out/casefile.sqlite"
        guard FileManager.default.fileExists(atPath: path) else {
            printError("casefile: no index at \(path); run `casefile run` first, or name one with --db")
            throw ExitStatus.cannotStart.exitCode
        }
        do {
            return try IndexStore(path: path)
        } catch {
            printError("casefile: \(error)")
            throw ExitStatus.cannotStart.exitCode
        }
    }

    /// The group a reference names, or a one-line error and exit code 2.
    func group(_ reference: String, in store: IndexStore, orReport: Bool = false) throws -> BugGroup {
        guard let group = try store.group(named: reference) else {
            let what = orReport ? "group or report" : "group"
            let ids = orReport ? "a fingerprint or report id" : "a fingerprint"
            printError(
                "casefile: no single \(what) matches '\(reference)'; give a group id or at least 6 digits of \(ids) (see `casefile groups`)"
            )
            throw ExitStatus.usage.exitCode
        }
        return group
    }
}
