import Foundation

/// What the rules make of one reported or symbolicated name, remembered: a night's crashes repeat the same few
/// thousand names (the app's functions, UIKit, the run loop), and demangling, normalizing and matching each against
/// the rule lists is most of a fingerprint's cost.
final class FrameIdentityCache: @unchecked Sendable {
    /// A name as the rules see it.
    struct Identity: Sendable {
        /// The normalized name.
        var name: String
        /// A thunk, folded into its neighbour.
        var isThunk: Bool
        /// Why it is skipped as crash machinery (`sentinel `abort``), when it matches a sentinel pattern.
        var sentinel: String?
        /// Why it is skipped anywhere (`irrelevant `start``), when it matches an irrelevant pattern.
        var irrelevant: String?
        /// Whether it is a prefix frame.
        var isPrefix: Bool
    }

    private struct Key: Hashable {
        var symbol: String
        var module: String?
    }

    private struct ImageKey: Hashable {
        var image: String
        var app: String?
    }

    private let lock = NSLock()
    private var identities: [Key: Identity] = [:]
    private var inApp: [ImageKey: Bool] = [:]
    /// Past this many names the cache starts over, so memory stays bounded on any inbox.
    private let limit = 200_000

    /// The identity of `symbol` in `module`, computed by `make` the first time.
    func identity(_ symbol: String, module: String?, make: () -> Identity) -> Identity {
        let key = Key(symbol: symbol, module: module)
        lock.lock()
        if let known = identities[key] {
            lock.unlock()
            return known
        }
        lock.unlock()
        let identity = make()
        lock.lock()
        if identities.count >= limit { identities.removeAll(keepingCapacity: true) }
        identities[key] = identity
        lock.unlock()
        return identity
    }

    /// Whether `image` is in-app in crashes of `app`, computed by `decide` the first time: an image of one name is
    /// embedded in an app's bundle, or not, in every crash of that app.
    func isInApp(_ image: String, app: String?, decide: () -> Bool) -> Bool {
        let key = ImageKey(image: image, app: app)
        lock.lock()
        if let known = inApp[key] {
            lock.unlock()
            return known
        }
        lock.unlock()
        let decision = decide()
        lock.lock()
        if inApp.count >= limit { inApp.removeAll(keepingCapacity: true) }
        inApp[key] = decision
        lock.unlock()
        return decision
    }
}
