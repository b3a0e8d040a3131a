import Foundation

/// The committed samples, found from this file.
enum Samples {
    /// The repository's root.
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `SampleReports/`.
    static let folder = repository.appendingPathComponent("SampleReports")
}
