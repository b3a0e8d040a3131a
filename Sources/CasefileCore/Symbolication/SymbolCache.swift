import Foundation

/// Symbolication results by image UUID and looked-up address, so a crash from a known build is symbolicated
/// without starting a back end.
///
/// In memory and lock-guarded; the index persists it (`CasefileStore`'s `symbol_cache` table) between runs. A cache
/// backed by an index reads the stored answers for an image the first time a crash asks about that image: an index
/// kept for a year holds answers for every build it ever symbolicated, and a run needs those of the few builds its
/// crashes came from.
public final class SymbolCache: @unchecked Sendable {
    /// What a back end answered for one address.
    public struct Result: Sendable, Hashable, Codable {
        /// The back end: `dwarf`, `breakpad`, `symbol-table`.
        public var backend: String
        /// Innermost first; empty when the debug file has nothing there.
        public var locations: [SourceLocation] {
            didSet { callerLocations = Self.asCaller(locations) }
        }
        /// ``locations`` as a caller frame reports them: a caller's return address is looked up at one less, so the
        /// frame's own function (the last location) is one further into it than the look-up.
        ///
        /// Worked out once per answer rather than once per frame: copying the locations for every caller frame held
        /// a warm look-up to 1.0 M a second (20,000 distinct frames answered from an index); 2.1–2.3 M without it.
        public private(set) var callerLocations: [SourceLocation]

        private enum CodingKeys: String, CodingKey {
            case backend, locations
        }

        /// Creates a result.
        public init(backend: String, locations: [SourceLocation]) {
            self.backend = backend
            self.locations = locations
            callerLocations = Self.asCaller(locations)
        }

        /// Decodes a result's back end and locations.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                backend: try container.decode(String.self, forKey: .backend),
                locations: try container.decode([SourceLocation].self, forKey: .locations))
        }

        /// The locations with the last one's offset one more; the same array when it has no offset.
        private static func asCaller(_ locations: [SourceLocation]) -> [SourceLocation] {
            guard let offset = locations.last?.offset else { return locations }
            var adjusted = locations
            adjusted[adjusted.count - 1].offset = offset + 1
            return adjusted
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

    /// Reads the stored answers for one image UUID, by looked-up address.
    public typealias Loader = @Sendable (_ uuid: String) -> [UInt64: Result]

    private let lock = NSLock()
    private var results: [String: [UInt64: Result]] = [:]
    private var added: [Entry] = []
    private let loader: Loader?
    /// The UUIDs whose stored answers were read (or are being read, under the lock).
    private var loadedUUIDs: Set<String> = []

    /// Creates an empty cache; with `loader`, the stored answers for an image are read the first time it is asked
    /// about.
    public init(loader: Loader? = nil) {
        self.loader = loader
    }

    /// The cached answer for an address of an image.
    public func result(uuid: String, address: UInt64) -> Result? {
        lock.lock()
        defer { lock.unlock() }
        loadIfNeeded(uuid)
        return results[uuid]?[address]
    }

    /// The cached answers for addresses of one image, in order (`nil` where unknown): one lock and one hash of
    /// the UUID for a crash's frames in that image.
    public func results(uuid: String, addresses: [UInt64]) -> [Result?] {
        lock.lock()
        defer { lock.unlock() }
        loadIfNeeded(uuid)
        guard let known = results[uuid] else { return Array(repeating: nil, count: addresses.count) }
        return addresses.map { known[$0] }
    }

    /// Remembers one back end's answers for addresses of one image (`answers[i]` for `addresses[i]`), and marks
    /// them as new, to be written back to the index. Returns the results as the cache keeps them, in that order.
    @discardableResult
    public func insert(uuid: String, backend: String, addresses: [UInt64], answers: [[SourceLocation]]) -> [Result] {
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
        return entries.map(\.result)
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

    /// Reads the stored answers for `uuid` the first time it is asked about; called with the lock held, so a crash
    /// asking about the same image meanwhile waits for them rather than asking its back end again.
    private func loadIfNeeded(_ uuid: String) {
        guard let loader, loadedUUIDs.insert(uuid).inserted else { return }
        let stored = loader(uuid)
        guard !stored.isEmpty else { return }
        // An answer this run already has (none, unless it was inserted by hand) wins: it is the newer one.
        results[uuid, default: [:]].merge(stored) { current, _ in current }
    }

    /// How many answers the cache holds in memory: those given or read in this process.
    public var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return results.values.reduce(0) { $0 + $1.count }
    }
}
