/// The strings the crash reports of one input repeat, kept once.
///
/// A tester's zip of crash logs holds hundreds of reports from a few iOS builds: each lists the same few hundred
/// system images, by the same paths and UUIDs, and its frames name the same images and symbols. Parsed one by one,
/// every report holds its own copy of each string. The bench inbox's 185 `.ips` files list 65,139 images with 2,375
/// distinct UUIDs and 584 distinct paths. An input's reports are all held until its rows are written, so those copies
/// are what a large input's peak memory is made of.
///
/// A string of 15 UTF-8 bytes or fewer lives inside the `String` value and is left alone.
///
/// Each report shared has its arrays of images, threads and frames trimmed to their count too: the parsers grow them
/// one append at a time, into storage up to twice what they hold. Trimmed, a zip of the bench inbox's 423 crash files
/// peaked at 102–105 MB instead of 116 MB.
struct RepeatedStrings {
    /// The strings kept, by a hash of their bytes (``StringPool``'s), in open addressing; made when the first is kept.
    private var slots: [String?] = []
    private var kept = 0
    private let sharing: Bool

    /// The files of one input from which its reports' strings are shared. Each string costs a hash and a comparison
    /// (about 1 % of the bench's instructions when its three-report zips were shared too) to save memory that matters
    /// only when an input holds many reports; below this the copies are few.
    static let entriesBeforeSharing = 8

    /// Sharing for the reports read from an input's `entries` files, when they are ``entriesBeforeSharing`` or more.
    init(entries: Int) {
        sharing = entries >= Self.entriesBeforeSharing
    }

    /// Shares the strings of `report`, just read, with those of the reports shared before it. Call it as each report
    /// is read: the copies it lets go are then freed before the next report is parsed, and the allocator reuses their
    /// memory.
    mutating func share(_ report: inout Report) {
        guard sharing else { return }
        for crash in report.crashes.indices {
            share(&report.crashes[crash])
        }
    }

    /// Shares the crash's strings, and trims its arrays of images, threads and frames to their count (`trimToCount`):
    /// the same reports' memory, held as long.
    private mutating func share(_ crash: inout Crash) {
        for image in crash.images.indices {
            share(&crash.images[image].name)
            share(&crash.images[image].path)
            share(&crash.images[image].arch)
            share(&crash.images[image].uuid)
        }
        crash.images.trimToCount()
        for thread in crash.threads.indices {
            share(&crash.threads[thread].frames)
        }
        crash.threads.trimToCount()
        share(&crash.exceptionBacktrace)
    }

    private mutating func share(_ frames: inout [Frame]) {
        for frame in frames.indices {
            share(&frames[frame].image)
            share(&frames[frame].imageUUID)
            share(&frames[frame].symbol)
            share(&frames[frame].file)
        }
        frames.trimToCount()
    }

    private mutating func share(_ string: inout String?) {
        guard let value = string else { return }
        string = shared(value)
    }

    private mutating func share(_ string: inout String) {
        string = shared(string)
    }

    /// `string`, or the string of the same bytes kept before it, which is kept in its place when there is none.
    /// Bytes, not `String`'s `==`, which holds canonically equivalent strings equal (`é` as one scalar and as `e` with
    /// a combining accent): a report's paths and symbols keep their own bytes.
    private mutating func shared(_ string: String) -> String {
        guard string.utf8.count > 15 else { return string }
        if kept * 2 >= slots.count { grow() }
        return string.withUTF8Bytes { bytes in
            var slot = slot(bytes)
            while let known = slots[slot] {
                if StringPool.equal(known, bytes) { return known }
                slot = (slot + 1) & (slots.count - 1)
            }
            slots[slot] = string
            kept += 1
            return string
        }
    }

    /// The slot of `bytes`: the top bits of their hash, as many as pick one of the slots (a power of two).
    private func slot(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        Int(truncatingIfNeeded: StringPool.hash(bytes) >> UInt64(64 - slots.count.trailingZeroBitCount))
    }

    /// Twice the slots (4,096 at first), the strings kept placed anew.
    private mutating func grow() {
        let old = slots
        slots = [String?](repeating: nil, count: old.isEmpty ? 4_096 : 2 * old.count)
        for case let string? in old {
            string.withUTF8Bytes { bytes in
                var slot = slot(bytes)
                while slots[slot] != nil { slot = (slot + 1) & (slots.count - 1) }
                slots[slot] = string
            }
        }
    }
}
