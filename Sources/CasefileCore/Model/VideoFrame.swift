/// A still of the screen video at a moment a triager cares about: a failure, or the crash.
public struct VideoFrame: Sendable, Codable, Hashable {
    /// Seconds since the recording started.
    public var time: Double
    /// The image, as the summary links it (relative to the summary, or as given on the command line).
    public var link: String
    /// What happened then: `failure`, `crash`.
    public var moment: String
    /// The position in ``Report/timeline`` of the failed exchange or the crash.
    public var event: Int

    /// Creates a frame.
    public init(time: Double, link: String, moment: String, event: Int) {
        self.time = time
        self.link = link
        self.moment = moment
        self.event = event
    }
}
