/// The group key of one crash or failure, at every resolution, with the frames that made it and why others were
/// skipped ("why grouped").
public struct Fingerprint: Sendable, Codable, Hashable {
    /// What kind of bug the key describes.
    public enum Kind: String, Sendable, Codable, Hashable, CaseIterable {
        /// A crash, keyed by its stack.
        case crash
        /// A termination by the system with a code of its own (watchdog `0x8badf00d`, `0xdead10cc`, …).
        case termination
        /// A jetsam event (killed for memory).
        case jetsam
        /// A failed request in a recording without a crash.
        case failure
    }

    /// The resolutions a key is computed at; regrouping at another one is a query.
    public enum Resolution: String, Sendable, Codable, Hashable, CaseIterable {
        /// The first in-app frame.
        case top1
        /// The first three in-app frames (the default primary).
        case top3
        /// The first N frames, system frames included.
        case topN
        /// The exception type (or termination) and its normalized reason, no frames.
        case exception
        /// A failure: screen, URL template and status class.
        case screen
        /// A failure: URL template and status class only.
        case endpoint
    }

    /// The kind.
    public var kind: Kind
    /// The resolution the primary key was taken at (the configured one, or the fallback when it had no frames).
    public var resolution: Resolution
    /// The primary key: 16 hex digits.
    public var key: String
    /// Every key, by resolution name.
    public var keys: [String: String]
    /// A one-line title for the group.
    public var title: String
    /// Where the frames came from: `crashed thread 0`, `exception backtrace`, `main thread`.
    public var source: String?
    /// Every frame looked at, in order, with what the rules did to it.
    public var frames: [FingerprintFrame]
    /// The non-frame parts of the primary key (exception, termination code, screen, URL template, status class).
    public var components: [String]
    /// The algorithm and rule-set version the key was made with.
    public var rulesVersion: String

    /// Creates a fingerprint.
    public init(
        kind: Kind, resolution: Resolution, key: String, keys: [String: String], title: String, source: String?,
        frames: [FingerprintFrame], components: [String], rulesVersion: String
    ) {
        self.kind = kind
        self.resolution = resolution
        self.key = key
        self.keys = keys
        self.title = title
        self.source = source
        self.frames = frames
        self.components = components
        self.rulesVersion = rulesVersion
    }

    /// The frames that made the primary key, in order.
    public var keyFrames: [FingerprintFrame] {
        frames.filter(\.inKey)
    }
}

/// One logical frame as grouping saw it (an inlined function is a frame of its own).
public struct FingerprintFrame: Sendable, Codable, Hashable {
    /// The normalized function, or `Image+0xSTART` / the image name when there is no symbol.
    public var function: String
    /// The image name.
    public var image: String?
    /// Whether the frame counts as the app's own.
    public var inApp: Bool
    /// Whether the frame is part of the primary key.
    public var inKey: Bool
    /// Why the frame is not part of the key (a rule, or `beyond the top 3 in-app frames`); `nil` when it is.
    public var skipped: String?

    /// Creates a frame.
    public init(function: String, image: String?, inApp: Bool, inKey: Bool = false, skipped: String? = nil) {
        self.function = function
        self.image = image
        self.inApp = inApp
        self.inKey = inKey
        self.skipped = skipped
    }
}

/// One failed request of a recording, keyed for grouping.
public struct FailureFingerprint: Sendable, Codable, Hashable {
    /// The position of the failed exchange in the report's timeline.
    public var event: Int
    /// The screen shown when the request failed (root view class), when known.
    public var screen: String?
    /// The URL template: `/v1/orders/{id}/pay`.
    public var endpoint: String
    /// `5xx`, `4xx`, `timeout`, or `NSURLErrorDomain -1009`.
    public var outcome: String
    /// The primary key (screen · endpoint · outcome).
    public var fingerprint: String
    /// Every key, by resolution name (`screen`, `endpoint`).
    public var fingerprints: [String: String]
    /// The full grouping record.
    public var grouping: Fingerprint

    /// Creates a failure fingerprint.
    public init(event: Int, screen: String?, endpoint: String, outcome: String, grouping: Fingerprint) {
        self.event = event
        self.screen = screen
        self.endpoint = endpoint
        self.outcome = outcome
        self.fingerprint = grouping.key
        self.fingerprints = grouping.keys
        self.grouping = grouping
    }
}
