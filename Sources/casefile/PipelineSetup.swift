import CasefileCore
import CasefileStore
import Foundation

extension Casefile {
    /// The pipeline definition at `path`, or the one-line reason and exit code 2.
    static func loadDefinition(_ path: String) throws -> PipelineDefinition {
        do {
            return try PipelineDefinition.load(from: path)
        } catch {
            printError("casefile: \(error)")
            throw ExitStatus.usage.exitCode
        }
    }

    /// The definition's index with the run lock held (waiting for it with `wait`), or the one-line reason and exit
    /// code 3. The caller releases the lock.
    static func openLocked(_ definition: PipelineDefinition, wait: Bool = false) throws -> (IndexStore, RunLock) {
        do {
            try FileManager.default.createDirectory(
                at: definition.database.deletingLastPathComponent(), withIntermediateDirectories: true)
            let lock = try RunLock(path: definition.database.path + ".lock", wait: wait)
            do {
                return (try IndexStore(path: definition.database.path), lock)
            } catch {
                lock.release()
                throw error
            }
        } catch {
            printError("casefile: \(error)")
            throw ExitStatus.cannotStart.exitCode
        }
    }
}
