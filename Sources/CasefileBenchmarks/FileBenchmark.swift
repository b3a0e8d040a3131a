import CasefileArchive
import CasefileCore
import Foundation

/// Crash reports given as files, one at a time on one core: parsing, and the crash-detail blob of what was parsed.
///
/// The format benchmarks grow the samples with threads only; an inbox's report (Scripts/make-inbox.py, or a real one)
/// also lists hundreds of binary images, and their lines cost a parser what the frames do.
enum FileBenchmark {
    /// Prints, for each file, reports parsed per second and crashes encoded as blobs per second.
    static func run(files: [String]) throws {
        let parser = CrashReportParser()
        for path in files {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("\(path): cannot be read")
                continue
            }
            let bytes = [UInt8](data)
            let name = PathText.lastComponent(path)
            guard case .crashes(let kind, let crashes, _) = parser.parse(bytes, file: name), let crash = crashes.first
            else {
                print("\(name): not a crash report Casefile reads")
                continue
            }
            let parsed = runsPerSecond(for: 1, batch: 10) { _ = parser.parse(bytes, file: name) }
            let encoded = try runsPerSecond(for: 1, batch: 10) { _ = try CrashDetailCodec.encode(crash) }
            let frames = crash.frameCount
            print(
                String(
                    format: "%@ (%@, %.1f KB, %d frames, %d images): parse %.0f reports/s, blob %.0f crashes/s",
                    name, kind.rawValue, Double(bytes.count) / 1000, frames, crash.images.count, parsed, encoded)
                    + " (one core)")
        }
    }
}
