import CasefileArchive
import CasefileCore
import Foundation

/// The crash-detail blob on one core: every thread and image of a real-sized crash written as the index stores it
/// (tab-separated text, then zstd), the work each crash costs the run besides parsing and its rows.
enum BlobBenchmark {
    /// Prints crashes encoded per second, and the sizes of the blob's text and of the blob.
    static func run(_ crash: Crash) throws {
        var crash = crash
        // A real iOS report lists 300 and more binary images: system libraries after the app.
        for index in 0..<320 {
            let base = 0x1_9000_0000 + UInt64(index) * 0x40_0000
            crash.images.append(
                BinaryImage(
                    name: "libsystem_\(index).dylib", path: "/usr/lib/system/libsystem_\(index).dylib", arch: "arm64e",
                    uuid: String(format: "%08x-0000-4000-8000-%012x", index, index * 7919), loadAddress: base,
                    endAddress: base + 0x1f_ffff))
        }
        // The system images go in sets, compressed at the first crash that lists them and taken from memory after, as
        // for most crashes of a run.
        let detail = try CrashDetailCodec.encode(crash)
        let text = try BlobCompression.decompress(detail.blob)
        let sets = try detail.imageSets.reduce(0) { $0 + (try BlobCompression.decompress($1.blob)).count }
        let rate = try runsPerSecond(for: 2, batch: 20) { _ = try CrashDetailCodec.encode(crash) }
        let frames = crash.frameCount
        print(
            String(
                format:
                    "crash detail blob: %.0f crashes/s (%d frames, %d images; %.1f KB of text, %.1f KB stored; "
                    + "%d image sets of %.1f KB of text, %.1f KB stored once; one core)",
                rate, frames, crash.images.count, Double(text.count) / 1000, Double(detail.blob.count) / 1000,
                detail.imageSets.count, Double(sets) / 1000,
                Double(detail.imageSets.reduce(0) { $0 + $1.blob.count }) / 1000))
    }
}
