import CasefileArchive
public import Foundation

/// Extracts the frame a user saw from a report's screen video with `ffmpeg`: one JPEG at each failed request and
/// at the crash, written to a folder beside the summary and linked from it.
///
/// Optional by nature: without `ffmpeg` on the `PATH` (``locate(path:)`` returns `nil`) summaries simply have no
/// frames, and a video `ffmpeg` cannot decode yields a warning on the report, never a failed run.
public struct VideoFrames: Sendable {
    /// The `ffmpeg` executable.
    public var ffmpeg: String
    /// How long one extraction may take before it is stopped, in seconds.
    public var timeout = 20.0
    /// The frames' width in pixels (the height keeps the aspect ratio).
    public var width = 320
    /// The least size of a video worth asking `ffmpeg` about, in bytes.
    static let smallestVideo = 1024

    /// Uses the `ffmpeg` at `ffmpeg`.
    public init(ffmpeg: String) {
        self.ffmpeg = ffmpeg
    }

    /// `ffmpeg` from the directories of `path` (a `PATH` value; the process's own by default), or `nil`.
    public static func locate(path: String? = ProcessInfo.processInfo.environment["PATH"]) -> VideoFrames? {
        for directory in (path ?? "").split(separator: ":") {
            let candidate = "\(directory)/ffmpeg"
            if FileManager.default.isExecutableFile(atPath: candidate) {
                return VideoFrames(ffmpeg: candidate)
            }
        }
        return nil
    }

    /// The moments worth a frame: each chain's failure and the crash, inside the video's length.
    public static func moments(of report: Report) -> [(time: Double, moment: String, event: Int)] {
        let end = report.video?.duration ?? report.duration ?? 0
        var moments = report.correlation.chains.map { ($0.exchange.time, "failure", $0.exchange.event) }
        let events = report.timeline.events
        if let crash = events.lastIndex(where: { $0.kindName == "exception" }) {
            moments.append((events[crash].timeIsRecorded ? events[crash].timestamp : end, "crash", crash))
        }
        // The last frame sits a little before the end: seeking to the very end yields none.
        return moments.map { (min(max($0.0, 0), max(end - 0.1, 0)), $0.1, $0.2) }
    }

    /// The report with its frames extracted into `folder` and linked as `linkPrefix` + file name; a warning instead
    /// when the video cannot be read. Reports without a video, or with nothing worth a frame, come back unchanged.
    public func extract(_ report: Report, into folder: URL, linkPrefix: String) -> Report {
        // A video under 1 KB is a movie header at most (Clue's placeholder, a truncated upload): no frame to find,
        // and no ffmpeg process worth starting for it.
        guard let entry = report.videoEntry, (report.video?.size ?? 0) >= Self.smallestVideo else { return report }
        let moments = Self.moments(of: report)
        guard !moments.isEmpty else { return report }
        var report = report
        // A package folder's video is read where it lies; an archive's is streamed to a temporary file first.
        var isDirectory: ObjCBool = false
        let inPlace =
            FileManager.default.fileExists(atPath: report.source.input, isDirectory: &isDirectory)
            && isDirectory.boolValue
        let temporary = FileManager.default.temporaryDirectory
            .appendingPathComponent("casefile-video-\(UUID().uuidString).mp4")
        let video = inPlace ? URL(fileURLWithPath: report.source.input).appendingPathComponent(entry) : temporary
        defer { if !inPlace { try? FileManager.default.removeItem(at: temporary) } }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            if !inPlace { try ArchiveReader().copyEntry(entry, of: report.source.input, to: temporary) }
        } catch {
            report.warnings.append(Diagnostic(file: entry, message: "no video frames: \(error)"))
            return report
        }
        for (time, moment, event) in moments {
            // Named by the event's position, so the frames of one video keep distinct names.
            let name = "frame-\(event).jpg"
            let image = folder.appendingPathComponent(name)
            if run([
                "-v", "error", "-nostdin", "-ss", String(time), "-i", video.path, "-frames:v", "1",
                "-vf", "scale=\(width):-2", "-y", image.path,
            ]),
                FileManager.default.fileExists(atPath: image.path)
            {
                report.frames.append(VideoFrame(time: time, link: linkPrefix + name, moment: moment, event: event))
            } else {
                report.warnings.append(
                    Diagnostic(file: entry, message: "ffmpeg could not extract the frame at \(time) s; none shown"))
            }
        }
        if report.frames.isEmpty {
            try? FileManager.default.removeItem(at: folder)
        }
        return report
    }

    /// Runs `ffmpeg` with `arguments`; whether it exited 0 within ``timeout``.
    private func run(_ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                process.waitUntilExit()
                return false
            }
            usleep(10_000)
        }
        return process.terminationStatus == 0
    }
}
