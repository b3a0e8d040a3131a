/// A run's inputs, one at a time from an ``InboxWalk``, each with the ``InputSignature`` the index recorded for its
/// path. The signatures are asked for a few hundred paths at a time, the next paths' while the run starts the tasks of
/// the last ones, so the run holds the signatures of those paths only, not of the whole inbox, and does not wait for
/// them.
struct InboxInputs<Index: ReportIndex> {
    /// Inputs with their signatures: `nil` for a path the index never saw.
    typealias Chunk = [(path: String, signature: String?)]

    private let index: Index
    private var chunk: Chunk = []
    private var next = 0
    /// The next chunk being read, and the walk after it; `nil` once the walk is done.
    private var coming: Task<(InboxWalk, Chunk), any Error>?

    /// Paths asked about at once: one query's worth (`IndexStore` asks 500 per statement).
    static var chunkSize: Int { 500 }

    init(_ walk: InboxWalk, index: Index) {
        self.index = index
        coming = Self.read(walk, index: index)
    }

    /// The next input's path and the signature the index recorded for it, or `nil` once the walk is done.
    mutating func nextInput() async throws -> (path: String, signature: String?)? {
        if next == chunk.count {
            guard let coming else { return nil }
            let (walk, read) = try await coming.value
            chunk = read
            next = 0
            // A short chunk is the walk's last.
            self.coming = read.count < Self.chunkSize ? nil : Self.read(walk, index: index)
            if chunk.isEmpty { return nil }
        }
        defer { next += 1 }
        return chunk[next]
    }

    /// Walks to the next ``chunkSize`` inputs and asks the index for their signatures.
    private static func read(_ walk: InboxWalk, index: Index) -> Task<(InboxWalk, Chunk), any Error> {
        Task {
            var walk = walk
            var paths: [String] = []
            paths.reserveCapacity(chunkSize)
            while paths.count < chunkSize, let path = walk.next() { paths.append(path) }
            guard !paths.isEmpty else { return (walk, []) }
            let signatures = try await index.inputSignatures(paths: paths)
            return (walk, paths.map { ($0, signatures[$0]) })
        }
    }
}
