/// One thread of a crashed process.
public struct CrashThread: Sendable, Codable, Hashable {
    /// The thread's index in the report.
    public var index: Int
    /// The thread name.
    public var name: String?
    /// The dispatch queue it was running.
    public var queue: String?
    /// Whether this thread crashed.
    public var crashed: Bool
    /// Frames, innermost first.
    public var frames: [Frame]

    /// Creates a thread.
    public init(index: Int, name: String? = nil, queue: String? = nil, crashed: Bool = false, frames: [Frame] = []) {
        self.index = index
        self.name = name
        self.queue = queue
        self.crashed = crashed
        self.frames = frames
    }
}
