/// One report's symbol coverage, counted where the report is parsed so the run's single collecting task only adds
/// totals: its app frames, how many of them were symbolicated, and the frames that fell in images no debug file had.
public struct SymbolCoverage: Sendable, Equatable {
    /// App frames of the report's crashes.
    public var inAppFrames = 0
    /// App frames symbolicated.
    public var inAppSymbolicated = 0
    /// Images without a debug file, in the order the report's frames first meet them.
    public var missing: [RunDigest.MissingImage] = []

    /// Counts every frame of every thread and exception backtrace of the report's crashes.
    public init(_ report: Report) {
        for crash in report.crashes {
            let appName = CrashSummary.appImageName(crash)
            var lastMissing: Int?
            // Frames are read in place, not copied: a crash holds a thousand or more.
            for thread in crash.threads.indices {
                for frame in crash.threads[thread].frames.indices {
                    count(crash.threads[thread].frames[frame], app: appName, last: &lastMissing)
                }
            }
            for frame in crash.exceptionBacktrace.indices {
                count(crash.exceptionBacktrace[frame], app: appName, last: &lastMissing)
            }
        }
    }

    private mutating func count(_ frame: borrowing Frame, app: String?, last: inout Int?) {
        if CrashSummary.isApp(frame, appImageName: app) {
            inAppFrames += 1
            if frame.symbolication?.locations.isEmpty == false { inAppSymbolicated += 1 }
        }
        switch frame.symbolication?.status {
        case .noDebugFile(let image, let uuid), .uuidMismatch(let image, let uuid, _):
            // Neighbouring frames mostly lie in the same image.
            if let last, missing[last].uuid == uuid {
                missing[last].frames += 1
            } else if let index = missing.firstIndex(where: { $0.uuid == uuid }) {
                missing[index].frames += 1
                last = index
            } else {
                missing.append(RunDigest.MissingImage(name: image, uuid: uuid, frames: 1))
                last = missing.count - 1
            }
        default:
            break
        }
    }
}
