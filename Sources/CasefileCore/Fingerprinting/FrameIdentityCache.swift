import Foundation

/// What the rules make of one reported or symbolicated name, remembered: a night's crashes repeat the same few
/// thousand names (the app's functions, UIKit, the run loop), and demangling, normalizing and matching each against
/// the rule lists is most of a fingerprint's cost.
final class FrameIdentityCache: @unchecked Sendable {
    /// A name as the rules see it; shared, never changed, so a frame holds it with one reference.
    final class Identity: Sendable {
        /// The normalized name.
        let name: String
        /// A thunk, folded into its neighbour.
        let isThunk: Bool
        /// Why it is skipped as crash machinery (`sentinel `abort``), when it matches a sentinel pattern.
        let sentinel: String?
        /// Why it is skipped anywhere (`irrelevant `start``), when it matches an irrelevant pattern.
        let irrelevant: String?
        /// Whether it is a prefix frame.
        let isPrefix: Bool
        /// Whether it names a closure, which its declaration line tells apart from the function's other closures.
        let isClosure: Bool

        init(name: String, isThunk: Bool, sentinel: String?, irrelevant: String?, isPrefix: Bool) {
            self.name = name
            self.isThunk = isThunk
            self.sentinel = sentinel
            self.irrelevant = irrelevant
            self.isPrefix = isPrefix
            isClosure = name.hasPrefix("closure in ") || name.hasPrefix("implicit closure in ")
        }
    }

    /// A name and the image it is in.
    struct Key: Hashable, Sendable {
        var symbol: String
        var module: String?

        /// The symbol alone: it almost always decides, and hashing the image name too costs a second pass.
        func hash(into hasher: inout Hasher) {
            hasher.combine(symbol)
        }
    }

    private let lock = NSLock()
    private var identities: [Key: Identity] = [:]
    /// In-app decisions by app, then image name.
    private var inApp: [String: [String: Bool]] = [:]
    /// Past this many names the cache starts over, so memory stays bounded on any inbox.
    private let limit = 200_000

    /// The identities of `keys`, in order, each computed by `make` the first time; one lock for all the known ones.
    func identities(_ keys: [Key], make: (Key) -> Identity) -> [Identity] {
        var result: [Identity] = []
        result.reserveCapacity(keys.count)
        var missing: [Int] = []
        lock.lock()
        for key in keys {
            if let known = identities[key] {
                result.append(known)
            } else {
                missing.append(result.count)
                result.append(Self.placeholder)
            }
        }
        lock.unlock()
        guard !missing.isEmpty else { return result }
        var made: [Key: Identity] = [:]
        for index in missing {
            let key = keys[index]
            let identity = made[key] ?? make(key)
            made[key] = identity
            result[index] = identity
        }
        lock.lock()
        if identities.count + made.count >= limit { identities.removeAll(keepingCapacity: true) }
        identities.merge(made) { old, _ in old }
        lock.unlock()
        return result
    }

    /// A name not known yet, filled in later.
    static let placeholder = Identity(name: "", isThunk: false, sentinel: nil, irrelevant: nil, isPrefix: false)

    /// The in-app decisions known for images in crashes of `app`.
    func inAppDecisions(app: String?) -> [String: Bool] {
        lock.lock()
        defer { lock.unlock() }
        return inApp[app ?? ""] ?? [:]
    }

    /// Remembers in-app decisions for images in crashes of `app`: an image of one name is embedded in an app's
    /// bundle, or not, in every crash of that app.
    func remember(_ decisions: [String: Bool], app: String?) {
        guard !decisions.isEmpty else { return }
        lock.lock()
        defer { lock.unlock() }
        if inApp.count >= 1_000 { inApp.removeAll() }
        inApp[app ?? "", default: [:]].merge(decisions) { old, _ in old }
    }
}
