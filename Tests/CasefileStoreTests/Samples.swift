import CasefileCore
import CasefileStore
import Foundation

/// The committed samples, found from this file.
enum Samples {
    /// The repository's root.
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `SampleReports/`.
    static let folder = repository.appendingPathComponent("SampleReports")

    /// The samples indexed by one pipeline run into a new index at `database`, its output in `output`, the files
    /// matching `ignore` left out.
    static func indexed(into database: URL, output: URL, ignore: [String]) async throws -> IndexStore {
        let definition = PipelineDefinition(inbox: folder, output: output, database: database, ignore: ignore)
        let store = try IndexStore(path: database.path)
        _ = try await PipelineRunner(definition: definition, logger: CapturedLog().logger)
            .run(index: store, pipelineName: "test.toml")
        return store
    }
}
