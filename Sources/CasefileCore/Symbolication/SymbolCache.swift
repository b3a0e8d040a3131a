import Foundation

/// Symbolication results by image UUID and looked-up address, so a crash from a known build is symbolicated
/// without starting a back end.
///
/// In memory and lock-guarded; the index persists it (`CasefileStore`'s `symbol_cache` table) between runs.
public final class SymbolCache: @unchecked Sendable {
    /// What a back end answered for one address.
    public struct Result: Sendable, Hashable, Codable {
        /// The back end: `dwarf`, `breakpad`, `symbol-table`.
        public var backend: String
        /// Innermost first; empty when the debug file has nothing there.
        public var locations: [SourceLocation]

        /// Creates a result.
        public init(backend: String, locations: [SourceLocation]) {
            self.backend = backend
            self.locations = locations
        }
    }

    /// One cached answer, for persisting.
    public struct Entry: Sendable, Hashable {
        /// The image UUID.
        public var uuid: String
        /// The address looked up in the debug file.
        public var address: UInt64
        /// The answer.
        public var result: Result

        /// Creates an entry.
        public init(uuid: String, address: UInt64, result: Result) {
            self.uuid = uuid
            self.address = address
            self.result = result
        }
    }

    private let lock = NSLock()
    private var results: [String: [UInt64: Result]] = [:]
    private var added: [Entry] = []

    /// Creates an empty cache.
    public init() {}

    /// The cached answer for an address of an image.
    public func result(uuid: String, address: UInt64) -> Result? {
        lock.lock()
        defer { lock.unlock() }
        return results[uuid]?[address]
    }

    /// The cached answers for addresses of one image, in order (`nil` where unknown): one lock and one hash of
    /// the UUID for a crash's frames in that image.
    public func results(uuid: String, addresses: [UInt64]) -> [Result?] {
        lock.lock()
        defer { lock.unlock() }
        guard let known = results[uuid] else { return Array(repeating: nil, count: addresses.count) }
        return addresses.map { known[$0] }
    }

    /// Remembers one back end's answers for addresses of one image (`answers[i]` for `addresses[i]`), and marks
    /// them as new, to be written back to the index.
    public func insert(uuid: String, backend: String, addresses: [UInt64], answers: [[SourceLocation]]) {
        let entries = zip(addresses, answers).map { address, locations in
            Entry(uuid: uuid, address: address, result: Result(backend: backend, locations: locations))
        }
        lock.lock()
        defer { lock.unlock() }
        // Taken out while filled, so it is neither copied nor looked up again per answer.
        var known = results.removeValue(forKey: uuid) ?? [:]
        known.reserveCapacity(known.count + entries.count)
        for entry in entries {
            known[entry.address] = entry.result
        }
        results[uuid] = known
        added += entries
    }

    /// Remembers answers; `persist` marks them as new, to be written back to the index.
    public func insert(_ entries: [Entry], persist: Bool = true) {
        lock.lock()
        defer { lock.unlock() }
        for entry in entries {
            results[entry.uuid, default: [:]][entry.address] = entry.result
        }
        if persist { added += entries }
    }

    /// The answers added since the cache was loaded, and forgets that they were new.
    public func takeNewEntries() -> [Entry] {
        lock.lock()
        defer { lock.unlock() }
        defer { added = [] }
        return added
    }

    /// How many answers the cache holds.
    public var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return results.values.reduce(0) { $0 + $1.count }
    }
}
