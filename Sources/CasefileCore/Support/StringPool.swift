#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The strings of one large report, made once and shared: a crash report repeats the same image name, symbol and key
/// in thread after thread, thousands of frames in all. A shared string is one allocation instead of many, and compares
/// equal to its copies by identity, without reading their bytes.
///
/// A fixed table of the strings last seen, by a hash of their bytes: a slot holds the latest string that hashed to
/// it, so memory stays bounded, and a miss costs one hash (a few multiplications) more than decoding the string alone.
///
/// A pool is one document's. Pools kept from one report to the next (lent to each parse, 8,192 slots) were tried for
/// `.ips` images, symbols and thread names, which reports of one iOS build repeat: 15 % fewer allocations over the
/// benchmark's 1,000 inputs (2,444,747 → 2,076,545) and the same instructions (−0.08 %) and time (alternating runs
/// +8 % then −3 %). In `perf`, hashing and comparing took 1.5 % of the run's samples and retaining the string a hit
/// returns 1.2–1.4 % (a string an earlier report made, often on the other thread: about 90 ns a retain), where the
/// allocations saved had cost 1.0 %. Not kept (2026-12-03).
struct StringPool {
    /// Documents from this size on share their strings: a crash report, not a line of events, for which the table
    /// would cost more than it saves.
    static let documentSize = 32 * 1024
    /// Strings shorter than this are held inside the `String` value itself and cost no allocation.
    static let shortest = 16
    /// Long strings (messages, stack dumps) rarely repeat; they are not shared.
    static let longest = 256
    private static let slotCount = 1024

    private var slots: [String?] = []

    /// A pool that shares nothing: every string is decoded on its own.
    init() {}

    /// A pool for a document of `size` bytes: sharing when the document is large enough to repeat itself.
    init(documentSize size: Int) {
        if size >= Self.documentSize { slots = [String?](repeating: nil, count: Self.slotCount) }
    }

    /// The string of `bytes`, decoded as `String(decoding:as:)` does, shared with earlier identical bytes.
    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard !slots.isEmpty, bytes.count >= Self.shortest, bytes.count <= Self.longest else {
            return String(decoding: bytes, as: UTF8.self)
        }
        let slot = Int(truncatingIfNeeded: Self.hash(bytes) >> 54) & (Self.slotCount - 1)
        if let known = slots[slot], Self.equal(known, bytes) { return known }
        let made = String(decoding: bytes, as: UTF8.self)
        slots[slot] = made
        return made
    }

    /// A hash of 16 or more bytes, eight at a time (the last word overlaps the one before it): hashing byte by byte
    /// (FNV-1a) cost a fifth of parsing a 100 KB report.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let raw = UnsafeRawBufferPointer(bytes)
        var hash = UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15
        var offset = 0
        while offset < bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: min(offset, bytes.count - 8), as: UInt64.self)
            hash = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 31
            offset += 8
        }
        return hash
    }

    /// Whether `string`'s UTF-8 is exactly `bytes`. (A string decoded from invalid UTF-8 holds replacement characters
    /// instead, so its bytes differ and it is never returned for them.)
    static func equal(_ string: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard string.utf8.count == bytes.count else { return false }
        return string.withUTF8Bytes { stored in memcmp(stored.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
    }
}
