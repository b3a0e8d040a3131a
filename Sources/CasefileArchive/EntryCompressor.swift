import Foundation

/// Compresses the entries of one input that ``ArchiveReader`` keeps compressed (``ArchiveEntry/compressed()``), and
/// spills those past its bound (``ArchiveEntry/spilled(to:)``), on a thread of its own while the reader expands the
/// next ones: reading a tester's zip of 2,180 crash files (216 MB unpacked) was half inflating and half compressing,
/// one after the other on one core, 0.8 s of a 3.5 s run.
///
/// Entries are compressed in the order given, so the same ones are spilled as when they were compressed as read. The
/// entries given and not yet compressed hold at most ``bytesWaiting`` (or one entry, when it is larger): the reader
/// waits for room.
final class EntryCompressor {
    /// The bytes of entries given and not yet compressed the reader may run ahead by.
    static let bytesWaiting = 4 << 20

    /// What the compressing thread and the reader share, under `condition`.
    private final class Shared: @unchecked Sendable {
        let condition = NSCondition()
        /// Entries given, with their places among the input's entries, not yet taken by the thread.
        var waiting: [(position: Int, entry: ArchiveEntry)] = []
        /// The bytes of the entries given and not yet compressed.
        var bytesWaiting = 0
        /// Entries compressed (and spilled, past the bound), with their places.
        var done: [(position: Int, entry: ArchiveEntry)] = []
        /// No more entries will be given.
        var closed = false
        /// The thread has ended.
        var ended = false
    }

    private let shared = Shared()

    /// Starts the thread. `keptInMemory` is ``ArchiveReader/compressedBytesKeptInMemory``; `spillFolder` is where the
    /// spill file is made.
    init(keptInMemory: Int, spillFolder: String?) {
        let shared = shared
        let thread = Thread {
            // Under 16 bytes, as Linux keeps a thread's name: `/proc/self/task/*/comm` shows it.
            Thread.current.name = "casefile.zstd"
            var spill = Spill(folder: spillFolder, keptInMemory: keptInMemory)
            while let (position, entry) = Self.take(shared) {
                let compressed = spill.kept(entry.compressed())
                shared.condition.lock()
                shared.done.append((position, compressed))
                shared.bytesWaiting -= entry.size
                shared.condition.broadcast()
                shared.condition.unlock()
            }
            shared.condition.lock()
            shared.ended = true
            shared.condition.broadcast()
            shared.condition.unlock()
        }
        thread.start()
    }

    // A reader that stops (an input over a limit) stops the thread too, once it has compressed what it was given.
    deinit {
        shared.condition.lock()
        shared.closed = true
        shared.condition.broadcast()
        shared.condition.unlock()
    }

    /// Gives `entry`, whose place among the input's entries is `position`, to be compressed; waits while the entries
    /// given and not yet compressed hold ``bytesWaiting``.
    func add(_ entry: ArchiveEntry, at position: Int) {
        shared.condition.lock()
        while shared.bytesWaiting > 0, shared.bytesWaiting + entry.size > Self.bytesWaiting {
            shared.condition.wait()
        }
        shared.waiting.append((position, entry))
        shared.bytesWaiting += entry.size
        shared.condition.broadcast()
        shared.condition.unlock()
    }

    /// Every entry given, compressed, with its place: waits for the thread to compress the last and end.
    func finish() -> [(position: Int, entry: ArchiveEntry)] {
        shared.condition.lock()
        defer { shared.condition.unlock() }
        shared.closed = true
        shared.condition.broadcast()
        while !shared.ended { shared.condition.wait() }
        return shared.done
    }

    /// The next entry to compress, taken out of what waits; `nil` once no more will be given and none waits.
    private static func take(_ shared: Shared) -> (position: Int, entry: ArchiveEntry)? {
        shared.condition.lock()
        defer { shared.condition.unlock() }
        while shared.waiting.isEmpty, !shared.closed { shared.condition.wait() }
        guard !shared.waiting.isEmpty else { return nil }
        return shared.waiting.removeFirst()
    }
}

/// Where an input's compressed entries are kept: in memory up to `keptInMemory` bytes, then in a ``SpillFile`` in
/// `folder`, made at the first entry past the bound (in memory still without a folder, or when none can be made).
struct Spill {
    private let folder: String?
    private let keptInMemory: Int
    /// The compressed bytes kept in memory.
    private var bytesKept = 0
    private var file: SpillFile?
    private var fileFailed = false

    init(folder: String?, keptInMemory: Int) {
        self.folder = folder
        self.keptInMemory = keptInMemory
    }

    /// `compressed` as it is kept: spilled when the entries before it keep the bound's bytes in memory.
    mutating func kept(_ compressed: ArchiveEntry) -> ArchiveEntry {
        var entry = compressed
        if bytesKept > keptInMemory, let file = spillFile() {
            entry = entry.spilled(to: file)
        }
        bytesKept += entry.bytesHeld
        return entry
    }

    /// The spill file, made at the first call; `nil` without a folder, or when one cannot be made there.
    private mutating func spillFile() -> SpillFile? {
        if file == nil, !fileFailed, let folder {
            file = SpillFile(folder: folder)
            fileFailed = file == nil
        }
        return file
    }
}
