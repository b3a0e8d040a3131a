import Foundation
import Testing

/// The `ffmpeg` on the PATH, if any.
private let ffmpegPath: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
    .map { "\($0)/ffmpeg" }.first { FileManager.default.isExecutableFile(atPath: $0) }

/// The frame the user saw: with `ffmpeg` on the PATH, `casefile triage --frames` and `casefile run` extract the screen
/// video's frame at each failure and link it from the summary. The video is made here with ffmpeg: the checkout
/// recording (its 500 at 13.150 s) with a screen that is blue until 12 s and red after, so the frame at the failure
/// must be red.
@Suite(.enabled(if: ffmpegPath != nil, "ffmpeg is not on PATH: frame extraction is not tested"))
struct VideoFrameTests {

    private static func ffmpeg(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpegPath ?? "/usr/bin/ffmpeg")
        process.arguments = ["-v", "error", "-nostdin"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }

    /// A folder holding a copy of the checkout recording with the two-colour video.
    private func inbox() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-frames-\(UUID())")
        let recording = folder.appendingPathComponent("inbox/checkout.clue")
        try FileManager.default.createDirectory(
            at: recording.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: Casefile.sample("5B0F1C2E-9D4A-4C61-8E07-3A1F6B2C9D10.clue")), to: recording)
        let video = recording.appendingPathComponent("Modules/module_video.mp4")
        try FileManager.default.removeItem(at: video)
        _ = try Self.ffmpeg([
            "-f", "lavfi", "-i", "color=c=blue:s=90x160:d=12:r=10", "-f", "lavfi", "-i",
            "color=c=red:s=90x160:d=5:r=10", "-filter_complex", "[0][1]concat=n=2:v=1", "-pix_fmt", "yuv420p",
            video.path,
        ])
        return folder
    }

    /// The first pixel of an image as red, green, blue.
    private func pixel(_ image: String) throws -> [UInt8] {
        Array(try Self.ffmpeg(["-i", image, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]).prefix(3))
    }

    @Test func triageExtractsTheFrameAtTheFailure() throws {
        let folder = try inbox()
        defer { try? FileManager.default.removeItem(at: folder) }
        let frames = folder.appendingPathComponent("frames").path
        let result = try Casefile.run(["triage", "--frames", frames, folder.appendingPathComponent("inbox").path])
        #expect(result.status == 0)
        let line = try #require(result.stdout.split(separator: "\n").first { $0.contains("![Screen at 13.150 s") })
        let link = try #require(line.split(separator: "(").last?.dropLast())
        #expect(link.hasPrefix(frames + "/"))
        let color = try pixel(String(link))
        try #require(color.count == 3)
        #expect(color[0] > 200 && color[2] < 60, "the frame at 13.150 s is \(color), not red")
    }

    @Test func theNightlyRunLinksFramesBesideTheSummary() throws {
        let folder = try inbox()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipeline = folder.appendingPathComponent("pipeline.toml")
        try Data("version = 1\n[inbox]\npath = \"inbox\"\n[output]\npath = \"out\"\n".utf8).write(to: pipeline)
        #expect(try Casefile.run(["run", pipeline.path]).status == 0)
        let reports = folder.appendingPathComponent("out/reports")
        let summary = try #require(
            try FileManager.default.contentsOfDirectory(atPath: reports.path).first { $0.hasSuffix(".md") })
        let text = try String(contentsOf: reports.appendingPathComponent(summary), encoding: .utf8)
        let id = summary.dropLast(3)
        let line = try #require(text.split(separator: "\n").first { $0.contains("![Screen at 13.150 s") })
        #expect(line.hasSuffix("(\(id)/frame-\(try #require(line.split(separator: "-").last?.dropLast(5))).jpg)"))
        let link = try #require(line.split(separator: "(").last?.dropLast())
        #expect(FileManager.default.fileExists(atPath: reports.appendingPathComponent(String(link)).path))

        // `[output] frames = false` turns it off.
        let off = folder.appendingPathComponent("off.toml")
        try Data("version = 1\n[inbox]\npath = \"inbox\"\n[output]\npath = \"out-off\"\nframes = false\n".utf8)
            .write(to: off)
        #expect(try Casefile.run(["run", off.path]).status == 0)
        let plain = try String(
            contentsOf: folder.appendingPathComponent("out-off/reports/\(summary)"), encoding: .utf8)
        #expect(!plain.contains("![Screen at"))
    }

    /// `SampleReports/checkout-bugreport.zip` carries a real screen video (white until 13.15 s, then red): read out
    /// of the zip, the frame at the 15.000 s failure is red.
    @Test func framesComeOutOfAZippedReport() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-frames-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Casefile.run(["triage", "--frames", folder.path, Casefile.sample("checkout-bugreport.zip")])
        #expect(result.status == 0)
        let line = try #require(result.stdout.split(separator: "\n").first { $0.contains("![Screen at 15.000 s") })
        let link = try #require(line.split(separator: "(").last?.dropLast())
        let color = try pixel(String(link))
        try #require(color.count == 3)
        #expect(color[0] > 200 && color[1] < 60 && color[2] < 60, "the frame at 15.000 s is \(color), not red")
    }
}
