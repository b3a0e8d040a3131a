import Crypto

/// The Fingerprint stage: gives every crash and every failed request of a report its group keys.
///
/// A crash is keyed by the normalized, in-app-focused logical frames of the stack that tells the bug: the
/// exception backtrace for an uncaught exception, the main thread for a system termination (watchdog,
/// `0xdead10cc`), the crashed thread otherwise. Crash machinery (sentinel frames and everything above them),
/// irrelevant frames and thunks are skipped; prefix frames (`objc_msgSend`) count only with the frame below. Keys are
/// made at several resolutions (``Fingerprint/Resolution``) so regrouping is a query; the primary one is the
/// configured resolution, falling back to the system frames and then to the exception when there are no frames.
public struct Fingerprinter: Sendable {
    /// Everything the rules compile to, behind one reference: a fingerprinter is copied into every task of a run.
    private final class Compiled: Sendable {
        let rules: GroupingRules
        let primary: Fingerprint.Resolution
        let version: String
        let sentinel: PatternSet
        let irrelevant: PatternSet
        let prefix: PatternSet
        let inAppImages: PatternSet
        let cache = FrameIdentityCache()

        init(rules: GroupingRules, primary: Fingerprint.Resolution) {
            self.rules = rules
            self.primary = primary
            version = rules.version
            sentinel = PatternSet(rules.sentinel)
            irrelevant = PatternSet(rules.irrelevant)
            prefix = PatternSet(rules.prefix)
            inAppImages = PatternSet(rules.inAppImages)
        }
    }

    private let compiled: Compiled
    /// How deep into a stack grouping looks.
    static let framesLookedAt = 200

    /// Creates a fingerprinter; `primary` is `top1`, `top3` or `topN`.
    public init(rules: GroupingRules = .default, primary: Fingerprint.Resolution = .top3) {
        compiled = Compiled(rules: rules, primary: [.top1, .top3, .topN].contains(primary) ? primary : .top3)
    }

    /// The rules.
    public var rules: GroupingRules { compiled.rules }
    /// The resolution of the primary key of a crash.
    public var primary: Fingerprint.Resolution { compiled.primary }
    private var version: String { compiled.version }
    private var sentinel: PatternSet { compiled.sentinel }
    private var irrelevant: PatternSet { compiled.irrelevant }
    private var inAppImages: PatternSet { compiled.inAppImages }

    /// The report with every crash's ``Crash/fingerprint`` and every failed request's ``Report/failures`` filled in.
    public func fingerprint(_ report: Report) -> Report {
        var report = report
        fingerprint(&report)
        return report
    }

    /// Fills in every crash's fingerprint and the report's failures in place, without copying the crashes' frames.
    public func fingerprint(_ report: inout Report) {
        for index in report.crashes.indices {
            let fingerprint = fingerprint(report.crashes[index])
            report.crashes[index].fingerprint = fingerprint.key
            report.crashes[index].fingerprints = fingerprint.keys
            report.crashes[index].grouping = fingerprint
        }
        report.failures = failures(of: report)
    }

    // MARK: - Crashes

    /// The fingerprint of one crash.
    public func fingerprint(_ crash: Crash) -> Fingerprint {
        if crash.kind == .jetsam { return jetsam(crash) }
        let termination = Self.terminationComponent(crash)
        let (stack, source) = stack(of: crash, termination: termination != nil)
        // The top of the stack decides: a runaway recursion of 100,000 frames is looked at, and explained, no deeper.
        let frames = stack.prefix(Self.framesLookedAt)
        var logical = logicalFrames(frames, crash: crash)
        let meaningful = applyRules(&logical)

        let exceptionParts = exceptionComponents(crash, termination: termination)
        let kind: Fingerprint.Kind = termination == nil ? .crash : .termination
        // An uncaught exception's name is part of the key: an NSRangeException thrown in total() is another bug than
        // a trap in total(). Mach exception types are not, as formats disagree on them (SIGTRAP vs EXC_BREAKPOINT).
        let leading = termination.map { [$0] } ?? crash.exception.name.map { ["exception \($0)"] } ?? []
        var keys: [String: String] = [:]
        var chosen: [Fingerprint.Resolution: [Int]] = [:]
        var weak: Set<Fingerprint.Resolution> = []
        for resolution in [Fingerprint.Resolution.top1, .top3, .topN] {
            guard let picked = pick(meaningful, logical: logical, resolution: resolution) else { continue }
            chosen[resolution] = picked
            // Frames known only by their image say little: the exception joins the key so that unrelated
            // unsymbolicated crashes of one app do not fall into one group.
            if termination == nil, picked.allSatisfy({ logical[$0].name == (logical[$0].image ?? "???") }) {
                weak.insert(resolution)
            }
            let context = leading + (weak.contains(resolution) ? exceptionParts : [])
            keys[resolution.rawValue] = Self.hash(kind, resolution, context + picked.map { logical[$0].name })
        }
        keys[Fingerprint.Resolution.exception.rawValue] = Self.hash(kind, .exception, exceptionParts)

        let order: [Fingerprint.Resolution] =
            switch primary {
            case .top1: [.top1, .topN]
            case .topN: [.topN]
            default: [.top3, .topN]
            }
        let resolution = order.first { chosen[$0] != nil } ?? .exception
        let used = Set(chosen[resolution] ?? [])
        let beyondInApp = Self.beyond(resolution, rules: rules, inApp: true)
        let beyondOther = Self.beyond(resolution, rules: rules, inApp: false)
        for index in logical.indices where logical[index].skipped == nil {
            if used.contains(index) {
                logical[index].inKey = true
            } else {
                logical[index].skipped = logical[index].inApp ? beyondInApp : beyondOther
            }
        }
        // What the primary key hashed besides frames.
        let components =
            resolution == .exception ? exceptionParts : leading + (weak.contains(resolution) ? exceptionParts : [])
        let title = Self.title(crash, frame: used.min().map { logical[$0].name })
        let explained = logical.map { frame in
            FingerprintFrame(
                function: frame.name, image: frame.image, inApp: frame.inApp, inKey: frame.inKey,
                skipped: frame.skipped)
        }
        return Fingerprint(
            kind: kind, resolution: resolution, key: keys[resolution.rawValue] ?? "", keys: keys, title: title,
            source: source, frames: explained, components: components, rulesVersion: version)
    }

    /// Which stack tells the bug, and its name for the explanation.
    private func stack(of crash: Crash, termination: Bool) -> ([Frame], String?) {
        if termination, let main = crash.threads.first(where: { $0.index == 0 }) ?? crash.threads.first {
            return (main.frames, "main thread (thread \(main.index))")
        }
        if !crash.exceptionBacktrace.isEmpty {
            return (crash.exceptionBacktrace, "exception backtrace")
        }
        if let thread = crash.crashingThread ?? crash.threads.first {
            return (thread.frames, "crashed thread \(thread.index)")
        }
        return ([], nil)
    }

    /// The frames as logical frames, every inlined function a frame of its own (innermost first). The names of one
    /// crash are looked up in the cache together, under one lock.
    private func logicalFrames(_ frames: ArraySlice<Frame>, crash: Crash) -> [LogicalFrame] {
        // In-app is decided once per image name and app: a crash has dozens of frames in a few images, and lists
        // hundreds of images that would otherwise be searched for every frame.
        let appName = crash.appImage?.name ?? crash.app.name ?? crash.processName
        var decisions = compiled.cache.inAppDecisions(app: appName)
        var learned: [String: Bool] = [:]
        var last: (image: String, decision: Bool)?
        func isApp(_ image: String?) -> Bool {
            guard let image else { return false }
            // Neighbouring frames are mostly in one image.
            if let last, last.image == image { return last.decision }
            if let known = decisions[image] {
                last = (image, known)
                return known
            }
            let decision = isInApp(image: image, crash: crash)
            decisions[image] = decision
            learned[image] = decision
            last = (image, decision)
            return decision
        }
        var logical: [LogicalFrame] = []
        logical.reserveCapacity(frames.count + 4)
        var keys: [FrameIdentityCache.Key] = []
        var owners: [Int] = []
        for frame in frames {
            let image = frame.image
            let inApp = isApp(image)
            if let locations = frame.symbolication?.locations, !locations.isEmpty {
                for location in locations {
                    owners.append(logical.count)
                    keys.append(FrameIdentityCache.Key(symbol: location.rawName, module: image))
                    logical.append(
                        LogicalFrame(
                            identity: FrameIdentityCache.placeholder, image: image, inApp: inApp,
                            startLine: location.startLine))
                }
            } else if let symbol = frame.symbol, !symbol.isEmpty, !Self.isPlaceholder(symbol, image: image) {
                owners.append(logical.count)
                keys.append(FrameIdentityCache.Key(symbol: symbol, module: image))
                logical.append(LogicalFrame(identity: FrameIdentityCache.placeholder, image: image, inApp: inApp))
            } else {
                // No symbol: the function's start when the debug file knows it, else only the image — never an
                // address.
                let imageName = image ?? "???"
                var name = imageName
                if inApp, let offset = frame.imageOffset, let into = frame.symbolication?.locations.last?.offset,
                    into <= offset
                {
                    name = "\(imageName)+0x\(String(offset - into, radix: 16))"
                }
                let identity = FrameIdentityCache.Identity(
                    name: name, isThunk: false, sentinel: nil,
                    irrelevant: irrelevant.match(imageName).map { "irrelevant `\($0)`" }, isPrefix: false)
                logical.append(LogicalFrame(identity: identity, image: image, inApp: inApp))
            }
        }
        compiled.cache.remember(learned, app: appName)
        let table = compiled
        let identities = table.cache.identities(keys) { key in
            let normalized = SymbolNormalizer.normalize(key.symbol, module: key.module)
            return FrameIdentityCache.Identity(
                name: normalized.name, isThunk: normalized.role == .thunk,
                sentinel: table.sentinel.match(normalized.name).map { "sentinel `\($0)`" },
                irrelevant: table.irrelevant.match(normalized.name).map { "irrelevant `\($0)`" },
                isPrefix: table.prefix.match(normalized.name) != nil)
        }
        for (index, owner) in owners.enumerated() {
            logical[owner].identity = identities[index]
        }
        return logical
    }

    private static func isPlaceholder(_ symbol: String, image: String?) -> Bool {
        symbol == "???" || symbol == "<redacted>" || symbol == image || symbol.hasPrefix("0x")
    }

    /// Whether an image is the app's own: the main executable, a framework embedded in the `.app`, an image the
    /// rules name; `+app`/`-app` overrides last.
    func isInApp(image: String?, crash: Crash) -> Bool {
        guard let image else { return false }
        var inApp = false
        if let app = crash.appImage {
            inApp = app.name == image
        } else if let name = crash.app.name ?? crash.processName {
            inApp = name == image
        }
        if !inApp, inAppImages.match(image) != nil { inApp = true }
        if !inApp, let path = crash.images.first(where: { $0.name == image })?.path,
            path.contains(".app/Frameworks/") || path.contains(".app/PlugIns/")
        {
            inApp = true
        }
        for override in rules.overrides where override.target == .image && override.action != .noGroup {
            if Glob.matches(override.pattern, image) { inApp = override.action == .app }
        }
        return inApp
    }

    /// Marks skipped frames in place; returns the indices of the frames left, in order.
    private func applyRules(_ frames: inout [LogicalFrame]) -> [Int] {
        // Crash machinery: the deepest sentinel among the top frames, and everything above it.
        let window = min(frames.count, 40)
        if let last = (0..<window).last(where: { frames[$0].identity.sentinel != nil }) {
            let above = "above the sentinel frame `\(frames[last].name)`"
            for index in 0..<last { frames[index].skipped = above }
            frames[last].skipped = frames[last].identity.sentinel
        }
        var kept: [Int] = []
        let overrides = rules.overrides.contains { $0.action == .noGroup }
        for index in frames.indices where frames[index].skipped == nil {
            let identity = frames[index].identity
            if overrides, let rule = noGroupRule(frames[index]) {
                frames[index].skipped = "rule `\(rule)`"
            } else if identity.isThunk {
                frames[index].skipped = "thunk"
            } else if let reason = identity.irrelevant {
                frames[index].skipped = reason
            } else if let previous = kept.last, frames[previous].identity.name == identity.name,
                frames[previous].startLine == frames[index].startLine, frames[previous].image == frames[index].image
            {
                frames[index].skipped = "same function as the frame above (thunk or recursion)"
            } else {
                kept.append(index)
            }
        }
        return kept
    }

    private func noGroupRule(_ frame: LogicalFrame) -> String? {
        for override in rules.overrides where override.action == .noGroup {
            let text = override.target == .image ? frame.image ?? "" : frame.name
            if Glob.matches(override.pattern, text) { return override.description }
        }
        return nil
    }

    /// The frames of a resolution, or `nil` when it has none. Prefix frames ride along with the next meaningful
    /// frame; a stack of only prefix frames has no frames to key on.
    private func pick(_ kept: [Int], logical: [LogicalFrame], resolution: Fingerprint.Resolution) -> [Int]? {
        var picked: [Int] = []
        switch resolution {
        case .top1, .top3:
            let limit = resolution == .top1 ? 1 : 3
            for index in kept where logical[index].inApp {
                picked.append(index)
                if picked.count == limit { break }
            }
        default:
            var pendingPrefix: [Int] = []
            var count = 0
            for index in kept where count < rules.allFrames {
                if !logical[index].inApp, logical[index].identity.isPrefix {
                    pendingPrefix.append(index)
                    continue
                }
                picked += pendingPrefix + [index]
                pendingPrefix = []
                count += 1
            }
        }
        return picked.isEmpty ? nil : picked
    }

    private static func beyond(_ resolution: Fingerprint.Resolution, rules: GroupingRules, inApp: Bool) -> String {
        switch resolution {
        case .top1: inApp ? "beyond the first in-app frame" : "not in-app"
        case .top3: inApp ? "beyond the top 3 in-app frames" : "not in-app"
        case .topN: "beyond the top \(rules.allFrames) frames"
        default: "no frame is used: keyed by the exception"
        }
    }

    /// A logical frame while the rules work on it.
    private struct LogicalFrame {
        var identity: FrameIdentityCache.Identity
        var image: String?
        var inApp: Bool
        var startLine: Int?
        var inKey = false
        var skipped: String?

        init(identity: FrameIdentityCache.Identity, image: String?, inApp: Bool, startLine: Int? = nil) {
            self.identity = identity
            self.image = image
            self.inApp = inApp
            self.startLine = startLine
        }

        /// The name the key uses: a closure's declaration line, when known, tells it from its siblings.
        var name: String {
            guard identity.isClosure, let startLine else { return identity.name }
            return identity.name + " @\(startLine)"
        }
    }

    // MARK: - Exceptions and terminations

    /// `SPRINGBOARD 0x8badf00d` for a system termination with a code of its own; `nil` for an ordinary crash.
    static func terminationComponent(_ crash: Crash) -> String? {
        let exception = crash.exception
        guard let code = exception.terminationCodeHex else { return nil }
        let namespace = exception.terminationNamespace?.uppercased()
        let systemNamespaces: Set<String> = ["SPRINGBOARD", "FRONTBOARD", "RUNNINGBOARD", "WATCHDOG", "ASSERTIOND"]
        guard exception.terminationMeaning != nil || namespace.map(systemNamespaces.contains) == true else {
            return nil
        }
        // The namespace is left out on purpose: iOS moved watchdog kills from SPRINGBOARD to RUNNINGBOARD, and
        // `0x8badf00d` means the same bug whoever reports it.
        return "termination \(code)"
    }

    private func exceptionComponents(_ crash: Crash, termination: String?) -> [String] {
        let exception = crash.exception
        if let termination { return [termination] }
        let type = exception.name ?? exception.type ?? exception.signal ?? "unknown exception"
        let reason = exception.reason.map(ReasonNormalizer.normalize) ?? ""
        return [type, reason]
    }

    private func jetsam(_ crash: Crash) -> Fingerprint {
        let app = crash.app.name ?? crash.processName
        let reason =
            crash.jetsam?.killed.first { $0.name == app }?.reason ?? crash.jetsam?.killed.first?.reason ?? "unknown"
        let components = ["jetsam", reason]
        let key = Self.hash(.jetsam, .exception, components)
        return Fingerprint(
            kind: .jetsam, resolution: .exception, key: key, keys: [Fingerprint.Resolution.exception.rawValue: key],
            title: "Jetsam (\(reason))", source: nil, frames: [], components: components, rulesVersion: version)
    }

    private static func title(_ crash: Crash, frame: String?) -> String {
        var title = CrashSummary.title(crash)
        if let name = crash.exception.name { title = name }
        if let frame { return title + " in " + frame }
        if let reason = crash.exception.reason { return title + ": " + String(reason.prefix(120)) }
        return title
    }

    // MARK: - Failures

    /// Keys for every failed request of a recording; a report with a crash is keyed by its crash instead.
    func failures(of report: Report) -> [FailureFingerprint] {
        guard report.crashes.isEmpty else { return [] }
        var screen: String?
        var result: [FailureFingerprint] = []
        for (index, event) in report.timeline.events.enumerated() {
            switch event.kind {
            case .screen(let change):
                screen = change.toClass
            case .network(let exchange):
                guard let failure = exchange.failure else { continue }
                result.append(failureFingerprint(event: index, exchange: exchange, failure: failure, screen: screen))
            default:
                continue
            }
        }
        return result
    }

    private func failureFingerprint(
        event: Int, exchange: NetworkExchange, failure: NetworkFailure, screen: String?
    ) -> FailureFingerprint {
        let endpoint = exchange.url.map { URLTemplate.path(of: $0) } ?? "unknown URL"
        let outcome: String =
            switch failure {
            case .http(let status): "\(status / 100)xx"
            case .timeout: "timeout"
            case .transport(let error): "\(error.domain ?? "unknown domain") \(error.code.map(String.init) ?? "")"
            }
        let screenName = screen ?? "unknown screen"
        let keys = [
            Fingerprint.Resolution.screen.rawValue: Self.hash(.failure, .screen, [screenName, endpoint, outcome]),
            Fingerprint.Resolution.endpoint.rawValue: Self.hash(.failure, .endpoint, [endpoint, outcome]),
        ]
        let shortScreen = screenName.split(separator: ".").last.map(String.init) ?? screenName
        let grouping = Fingerprint(
            kind: .failure, resolution: .screen, key: keys[Fingerprint.Resolution.screen.rawValue] ?? "", keys: keys,
            title: "\(shortScreen) · \(endpoint) · \(outcome)", source: nil, frames: [],
            components: [screenName, endpoint, outcome], rulesVersion: version)
        return FailureFingerprint(
            event: event, screen: screen, endpoint: endpoint, outcome: outcome, grouping: grouping)
    }

    // MARK: - Keys

    /// 16 hex digits of SHA-256 over the kind, the resolution and the components.
    static func hash(_ kind: Fingerprint.Kind, _ resolution: Fingerprint.Resolution, _ parts: [String]) -> String {
        // One contiguous buffer, one update: each update into the digest has a cost of its own.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(parts.reduce(16) { $0 + $1.utf8.count + 1 })
        bytes += kind.rawValue.utf8
        bytes.append(0x0a)
        bytes += resolution.rawValue.utf8
        for part in parts {
            bytes.append(0x0a)
            bytes += part.utf8
        }
        var hasher = SHA256()
        bytes.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        let digest = hasher.finalize()
        return String(unsafeUninitializedCapacity: 16) { buffer in
            let hex: StaticString = "0123456789abcdef"
            var position = 0
            for byte in digest.prefix(8) {
                buffer[position] = hex.utf8Start[Int(byte >> 4)]
                buffer[position + 1] = hex.utf8Start[Int(byte & 0x0f)]
                position += 2
            }
            return 16
        }
    }
}
