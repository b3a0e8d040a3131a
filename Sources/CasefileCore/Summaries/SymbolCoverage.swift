/// One report's symbol coverage, counted where the report is parsed so the run's single collecting task only adds
/// totals: its app frames, how many of them were symbolicated, and the frames that fell in images no debug file had.
public struct SymbolCoverage: Sendable, Hashable, Codable {
    /// App frames of the report's crashes.
    public var inAppFrames = 0
    /// App frames symbolicated.
    public var inAppSymbolicated = 0
    /// Images without a debug file, in the order the report's frames first meet them.
    public var missing: [RunDigest.MissingImage] = []

    /// A coverage of the counts given.
    public init(inAppFrames: Int = 0, inAppSymbolicated: Int = 0, missing: [RunDigest.MissingImage] = []) {
        self.inAppFrames = inAppFrames
        self.inAppSymbolicated = inAppSymbolicated
        self.missing = missing
    }

    /// Counts every frame of every thread and exception backtrace of the report's crashes.
    public init(_ report: Report) {
        // Where each UUID is in `missing`: a crash's frames move between a few dozen images, and looking the image
        // up by comparing it with each one met before cost more than the rest of the count.
        var positions: [String: Int] = [:]
        for crash in report.crashes {
            let appName = crash.appImageName
            var lastMissing: Int?
            // Frames are read in place, not copied: a crash holds a thousand or more.
            for thread in crash.threads {
                thread.frames.withUnsafeBufferPointer {
                    count($0, app: appName, last: &lastMissing, positions: &positions)
                }
            }
            crash.exceptionBacktrace.withUnsafeBufferPointer {
                count($0, app: appName, last: &lastMissing, positions: &positions)
            }
        }
    }

    private mutating func count(
        _ frames: UnsafeBufferPointer<Frame>, app: String?, last: inout Int?, positions: inout [String: Int]
    ) {
        for index in frames.indices {
            // Read in its box: ``Frame/symbolication`` would copy it out.
            let symbolication = frames[index].symbolicationBox
            if CrashSummary.isApp(image: frames[index].image, appImageName: app) {
                inAppFrames += 1
                if symbolication?.value.locations.isEmpty == false { inAppSymbolicated += 1 }
            }
            // Matched in place: handing each frame's image and symbolication to a function copied them (retaining
            // and releasing their strings), more than half of what counting cost.
            switch symbolication?.value.status {
            case .noDebugFile(_, let uuid), .uuidMismatch(_, let uuid, _):
                // Neighbouring frames mostly lie in the same image.
                if let last, missing[last].uuid == uuid {
                    missing[last].frames += 1
                } else if let found = positions[uuid] {
                    missing[found].frames += 1
                    last = found
                } else {
                    missing.append(
                        RunDigest.MissingImage(name: Self.image(symbolication?.value), uuid: uuid, frames: 1))
                    last = missing.count - 1
                    positions[uuid] = missing.count - 1
                }
            default:
                break
            }
        }
    }

    /// The image a frame's symbolication found no debug file for.
    private static func image(_ symbolication: FrameSymbolication?) -> String {
        switch symbolication?.status {
        case .noDebugFile(let image, _), .uuidMismatch(let image, _, _): image
        default: ""
        }
    }
}
