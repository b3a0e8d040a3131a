/// Reads the duration of a QuickTime/MP4 file from a stream of chunks without keeping the media.
///
/// It walks the top-level atoms, skips every atom but `ftyp` and `moov` (bounded to 4 MiB), and reads the movie
/// header `mvhd` inside `moov`. A truncated file, as Clue leaves when it zips a report on the exception path,
/// simply yields no duration.
struct QuickTimeProbe {
    private static let keptAtomLimit = 4 << 20

    private var header: [UInt8] = []
    private var remaining: Int64 = 0
    private var keeping: [UInt8]?
    private var keptType = ""
    private var moov: [UInt8]?
    private var failed = false

    /// The `ftyp` major brand, once seen.
    private(set) var brand: String?
    /// Total bytes fed so far.
    private(set) var size = 0

    /// Feeds the next chunk of the file.
    mutating func feed(_ chunk: UnsafeRawBufferPointer) {
        size += chunk.count
        var index = 0
        while index < chunk.count, !failed {
            if remaining > 0 {
                let take = Int(min(remaining, Int64(chunk.count - index)))
                if keeping != nil {
                    keeping?.append(contentsOf: chunk[index..<index + take])
                }
                remaining -= Int64(take)
                index += take
                if remaining == 0 {
                    finishAtom()
                }
                continue
            }
            header.append(chunk[index])
            index += 1
            readHeaderIfComplete()
        }
    }

    /// The movie duration in seconds, when the movie header was read.
    var duration: Double? {
        guard let moov else { return nil }
        return Self.movieDuration(inMoov: moov)
    }

    private mutating func readHeaderIfComplete() {
        guard header.count >= 8 else { return }
        let size32 = header[0..<4].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let type = String(decoding: header[4..<8], as: UTF8.self)
        var headerLength = 8
        var atomSize = Int64(size32)
        if size32 == 1 {
            guard header.count >= 16 else { return }
            atomSize = Int64(truncatingIfNeeded: header[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
            headerLength = 16
        } else if size32 == 0 {
            atomSize = .max
        }
        header.removeAll(keepingCapacity: true)
        guard atomSize >= Int64(headerLength) else {
            failed = true
            return
        }
        remaining = atomSize == .max ? .max : atomSize - Int64(headerLength)
        let keep = (type == "moov" || type == "ftyp") && remaining <= Int64(Self.keptAtomLimit)
        keeping = keep ? [] : nil
        keptType = type
        if remaining == 0 {
            finishAtom()
        }
    }

    private mutating func finishAtom() {
        guard let kept = keeping else { return }
        if keptType == "ftyp", kept.count >= 4 {
            brand = String(decoding: kept[0..<4], as: UTF8.self)
        } else if keptType == "moov" {
            moov = kept
        }
        keeping = nil
    }

    /// Finds `mvhd` among the children of `moov` and divides its duration by its time scale.
    static func movieDuration(inMoov moov: [UInt8]) -> Double? {
        var offset = 0
        while offset + 8 <= moov.count {
            let size = Int(moov[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            let type = String(decoding: moov[offset + 4..<offset + 8], as: UTF8.self)
            guard size >= 8, offset + size <= moov.count else { return nil }
            if type == "mvhd" {
                return headerDuration(Array(moov[offset + 8..<offset + size]))
            }
            offset += size
        }
        return nil
    }

    private static func headerDuration(_ body: [UInt8]) -> Double? {
        func integer(_ start: Int, _ length: Int) -> UInt64? {
            guard start + length <= body.count else { return nil }
            return body[start..<start + length].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }
        guard let version = body.first else { return nil }
        let (scaleOffset, durationOffset, durationLength) = version == 1 ? (20, 24, 8) : (12, 16, 4)
        guard let scale = integer(scaleOffset, 4), scale > 0, let duration = integer(durationOffset, durationLength)
        else { return nil }
        return Double(duration) / Double(scale)
    }
}
