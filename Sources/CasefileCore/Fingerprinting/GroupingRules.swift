import Crypto
import Foundation

/// The rules that turn a stack into a group key, as data: which images are the app's, which frames are crash
/// machinery, which never matter, which only matter with the frame below them, and how many frames count.
///
/// The defaults suit iOS apps out of the box; a pipeline definition adds to the lists and adds per-project
/// overrides under `[grouping]`. ``version`` names the algorithm and this exact rule set; it is stored with every
/// fingerprint, so a changed rule never silently mixes keys of two rule sets.
public struct GroupingRules: Sendable, Hashable {
    /// The fingerprint algorithm; bump when a change to the code changes keys.
    public static let algorithm = "casefile-grouping-1"

    /// Image-name globs that are in-app, besides the main executable and frameworks embedded in the `.app`.
    public var inAppImages: [String]
    /// Function globs of crash machinery: the frame and every frame above it are skipped.
    public var sentinel: [String]
    /// Function or image globs skipped wherever they appear (dispatch trampolines, run-loop plumbing).
    public var irrelevant: [String]
    /// Function globs that mean nothing alone (`objc_msgSend`): kept only together with the next meaningful frame.
    public var prefix: [String]
    /// In-app frames of the primary key (`top3` by default).
    public var inAppFrames: Int
    /// Frames of the `topN` key, system frames included.
    public var allFrames: Int
    /// Per-project overrides, applied in order: `image:GLOB +app`, `image:GLOB -app`, `function:GLOB -group`,
    /// `image:GLOB -group`.
    public var overrides: [Override]

    /// One override line.
    public struct Override: Sendable, Hashable {
        /// What the glob is matched against.
        public enum Target: String, Sendable, Hashable {
            /// The frame's image name.
            case image
            /// The frame's normalized function name.
            case function
        }

        /// What a matching frame gets.
        public enum Action: String, Sendable, Hashable {
            /// In-app.
            case app = "+app"
            /// Not in-app.
            case notApp = "-app"
            /// Left out of grouping.
            case noGroup = "-group"
        }

        /// The field matched.
        public var target: Target
        /// The glob (`*`, `?`).
        public var pattern: String
        /// The effect.
        public var action: Action

        /// Parses `image:Firebase* -app`; `nil` when the line is not of that shape.
        public init?(_ line: String) {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            guard words.count == 2, let colon = words[0].firstIndex(of: ":"),
                let target = Target(rawValue: String(words[0][..<colon])),
                let action = Action(rawValue: String(words[1]))
            else { return nil }
            let pattern = String(words[0][words[0].index(after: colon)...])
            guard !pattern.isEmpty, target == .image || action == .noGroup else { return nil }
            self.target = target
            self.pattern = pattern
            self.action = action
        }

        /// The line as written in a pipeline definition.
        public var description: String {
            "\(target.rawValue):\(pattern) \(action.rawValue)"
        }
    }

    /// The defaults, good for iOS apps.
    public static let `default` = GroupingRules(
        inAppImages: [], sentinel: defaultSentinel, irrelevant: defaultIrrelevant, prefix: defaultPrefix,
        inAppFrames: 3, allFrames: 6, overrides: [])

    /// Creates rules.
    public init(
        inAppImages: [String], sentinel: [String], irrelevant: [String], prefix: [String], inAppFrames: Int,
        allFrames: Int, overrides: [Override]
    ) {
        self.inAppImages = inAppImages
        self.sentinel = sentinel
        self.irrelevant = irrelevant
        self.prefix = prefix
        self.inAppFrames = inAppFrames
        self.allFrames = allFrames
        self.overrides = overrides
    }

    /// `casefile-grouping-1/` plus the first 8 hex digits of a hash over every rule, so keys made under other
    /// rules are recognizable.
    public var version: String {
        let text = [
            inAppImages.joined(separator: ","), sentinel.joined(separator: ","), irrelevant.joined(separator: ","),
            prefix.joined(separator: ","), "\(inAppFrames)", "\(allFrames)",
            overrides.map(\.description).joined(separator: ","),
        ].joined(separator: "\n")
        let digest = SHA256.hash(data: Array(text.utf8))
        return Self.algorithm + "/" + digest.prefix(4).map { String(format: "%02x", $0) }.joined()
    }

    /// Crash machinery: where the runtime, libc or the Objective-C runtime takes over after the bug happened.
    public static let defaultSentinel = [
        "__pthread_kill", "pthread_kill", "abort", "__abort", "abort_with_payload", "__abort_with_payload",
        "abort_with_reason", "raise", "__assert_rtn", "__cxa_throw", "__cxa_rethrow", "std::terminate*",
        "std::__terminate*", "__cxxabiv1::*", "demangling_terminate_handler*", "_objc_terminate*",
        "objc_exception_throw", "objc_exception_rethrow", "__exceptionPreprocess", "_CFThrowFormattedException",
        "-[NSException raise]", "+[NSException raise:format:*", "_assertionFailure*", "assertionFailure*",
        "_fatalErrorMessage*", "fatalError*", "preconditionFailure*", "_swift_runtime_on_report",
        "_swift_stdlib_reportFatalError*", "swift_reportError", "swift::fatalError*", "swift_unexpectedError*",
        "swift::swift_abortRetainOverflow*", "swift_deletedMethodError", "swift_dynamicCastFailure*",
        "Swift runtime failure:*", "_os_crash*", "__os_crash*", "os_crash*", "_dispatch_assert_queue_fail",
        "dispatch_assert_queue*", "__NSArrayM_insertObject*", "-[__NSArray* objectAtIndex*]*",
    ]

    /// Frames that never tell bugs apart: thread and dispatch trampolines, run-loop plumbing, the process entry.
    public static let defaultIrrelevant = [
        "_dispatch_call_block_and_release", "_dispatch_client_callout*", "_dispatch_lane_serial_drain",
        "_dispatch_lane_invoke", "_dispatch_workloop_worker_thread", "_dispatch_root_queue_drain*",
        "_dispatch_worker_thread*", "_dispatch_main_queue_callback_4CF", "_dispatch_main_queue_drain*",
        "_dispatch_async_and_wait_invoke", "_pthread_wqthread", "start_wqthread", "_pthread_start",
        "thread_start", "__CFRUNLOOP_IS_SERVICING_THE_MAIN_DISPATCH_QUEUE__", "__CFRUNLOOP_IS_CALLING_OUT_TO*",
        "__CFRunLoopDoSource*", "__CFRunLoopDoBlocks", "__CFRunLoopDoObservers", "__CFRunLoopRun",
        "CFRunLoopRunSpecific",
        "CFRunLoopRunInMode", "GSEventRunModal", "-[UIApplication _run]", "UIApplicationMain", "start", "_start",
        "dyld*start*", "0x0",
    ]

    /// Frames that mean nothing alone: message sends, reference counting, allocation.
    public static let defaultPrefix = [
        "objc_msgSend*", "objc_retain*", "objc_release*", "objc_autorelease*", "objc_storeStrong",
        "objc_loadWeak*", "objc_destructInstance", "swift_retain*", "swift_release*", "swift_bridgeObjectRetain*",
        "swift_bridgeObjectRelease*", "swift_unknownObjectRetain*", "swift_unknownObjectRelease*",
        "swift_getObjectType", "swift_dynamicCast*", "swift_isUniquelyReferenced*", "_swift_release_dealloc",
        "swift_arrayInitWithCopy", "malloc*", "free", "calloc", "realloc", "_platform_mem*", "memcpy", "memmove",
        "memset", "strlen", "_CF_forwarding_prep_0", "___forwarding___", "CFRelease", "CFRetain",
    ]
}
