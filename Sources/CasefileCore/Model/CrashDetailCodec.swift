public import CasefileArchive

/// Every thread and image of a crash as one compact blob: tab-separated lines, zstd-compressed (`BlobCompression`).
///
/// The index keeps as rows only what is queried — the crashed thread, the exception backtrace, the app's frames and
/// the images they lie in; the rest of a crash (dozens of threads, hundreds of images) is this blob, made by the
/// parallel stages so the index writer only stores it. Text, not a binary layout: a person can read it with
/// `zstd -d` (blobs written before zstd are gzip, and still decode).
///
/// Version 2 writes a frame that lies in a listed image — the image's name and load address, its offset from it — as
/// a `G` line naming the image by its position, without the name, load address and offset, which decoding takes from
/// the image; any other frame is an `F` line with every field, as in version 1. Both versions decode.
public enum CrashDetailCodec {
    /// The first line of a blob: its format and version.
    public static let header = "casefile-crash-detail 2"
    private static let headers: Set<String> = ["casefile-crash-detail 1", header]

    /// The blob of a crash's threads and images.
    public static func encode(_ crash: Crash) throws(ArchiveError) -> [UInt8] {
        var out = LineWriter(
            capacity: crash.threads.reduce(0) { $0 + $1.frames.count } * 80 + crash.images.count * 120)
        out.line(header)
        // Fields are written straight into the buffer: no array of strings per line, no string per number.
        crash.images.withUnsafeBufferPointer { images in
            for index in images.indices {
                out.begin("I")
                out.field(images[index].name)
                out.field(images[index].path)
                out.field(images[index].arch)
                out.field(images[index].uuid)
                out.hex(images[index].loadAddress)
                out.hex(images[index].endAddress)
                out.flag(images[index].isApp)
                out.end()
            }
        }
        let table = ImageTable(crash.images)
        for thread in crash.threads {
            out.begin("T")
            out.decimal(thread.index)
            out.field(thread.name)
            out.field(thread.queue)
            out.flag(thread.crashed)
            out.end()
            // Frames are read where they lie, through the buffer: iterating the array would copy each one, and so
            // would handing a frame to a function (a retain and a release of each of its strings).
            thread.frames.withUnsafeBufferPointer { frames in
                var positions = PositionMemo()
                for index in frames.indices {
                    if let position = positions.position(of: frames, at: index, in: table) {
                        out.begin("G")
                        out.decimal(position)
                        out.field(frames[index].imageUUID)
                        out.hex(frames[index].address)
                    } else {
                        out.begin("F")
                        out.field(frames[index].image)
                        out.field(frames[index].imageUUID)
                        out.hex(frames[index].address)
                        out.hex(frames[index].imageLoadAddress)
                        out.hex(frames[index].imageOffset)
                    }
                    out.field(frames[index].symbol)
                    out.hex(frames[index].symbolOffset)
                    out.field(frames[index].file)
                    out.decimal(frames[index].line)
                    out.flag(frames[index].inlined)
                    // The function is the last location: its fields are read one by one, not the location copied.
                    let count = frames[index].symbolication?.locations.count ?? 0
                    if count > 0, let symbolication = frames[index].symbolication {
                        out.field(symbolication.locations[count - 1].rawName)
                        out.field(symbolication.locations[count - 1].file)
                        out.decimal(symbolication.locations[count - 1].line)
                    } else {
                        out.field(nil)
                        out.field(nil)
                        out.decimal(nil)
                    }
                    out.end()
                }
            }
        }
        return try out.compressed()
    }

    /// The threads and images back from a blob; a frame's symbolication, when it had one, as its function, file
    /// and line.
    public static func decode(_ blob: [UInt8]) throws(ArchiveError) -> (threads: [CrashThread], images: [BinaryImage]) {
        let bytes = try BlobCompression.decompress(blob)
        var threads: [CrashThread] = []
        var images: [BinaryImage] = []
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)[...]
        guard let first = lines.popFirst(), headers.contains(String(decoding: first, as: UTF8.self)) else {
            throw ArchiveError(
                code: .corrupt, input: "crash detail", reason: "not a crash detail blob of version 1 or 2")
        }
        for line in lines where !line.isEmpty {
            let fields = line.split(separator: 0x09, omittingEmptySubsequences: false).map(unescape)
            func field(_ index: Int) -> String? { index < fields.count ? fields[index] : nil }
            func number(_ index: Int) -> UInt64? { field(index).flatMap { UInt64($0, radix: 16) } }
            switch field(0) {
            case "I":
                images.append(
                    BinaryImage(
                        name: field(1) ?? "???", path: field(2), arch: field(3), uuid: field(4),
                        loadAddress: number(5) ?? 0, endAddress: number(6), isApp: field(7) == "1"))
            case "T":
                threads.append(
                    CrashThread(
                        index: field(1).flatMap { Int($0) } ?? threads.count, name: field(2), queue: field(3),
                        crashed: field(4) == "1"))
            case "F":
                guard !threads.isEmpty else { continue }
                var frame = Frame(
                    image: field(1), address: number(3), imageLoadAddress: number(4), imageOffset: number(5))
                frame.imageUUID = field(2)
                threads[threads.count - 1].frames.append(frame.described(by: fields, from: 6))
            case "G":
                guard !threads.isEmpty, let position = field(1).flatMap({ Int($0) }), images.indices.contains(position),
                    let address = number(3)
                else { continue }
                let image = images[position]
                var frame = Frame(
                    image: image.name, address: address, imageLoadAddress: image.loadAddress,
                    imageOffset: address &- image.loadAddress)
                frame.imageUUID = field(2)
                threads[threads.count - 1].frames.append(frame.described(by: fields, from: 4))
            default:
                continue
            }
        }
        return (threads, images)
    }

    /// The position of the image a frame lies in, when the image's name and load address are the frame's and the
    /// frame's offset is its address less the load address: what a `G` line leaves out. (A frame's UUID, usually
    /// absent where the image has one, is written as it is.)
    ///
    /// The image found for one load address is kept for the next frame: a thread's frames come in runs from the
    /// same image, and each look-up in the table hashes the address.
    private struct PositionMemo {
        private var load: UInt64?
        private var position: Int?

        mutating func position(of frames: UnsafeBufferPointer<Frame>, at index: Int, in table: ImageTable) -> Int? {
            guard let load = frames[index].imageLoadAddress, let address = frames[index].address else { return nil }
            if load != self.load {
                self.load = load
                position = table.position(loadedAt: load)
            }
            guard let position, frames[index].imageOffset == address &- load,
                table.images[position].name == frames[index].image
            else { return nil }
            return position
        }
    }

    /// Lines of tab-separated fields: `nil` is an empty field, an empty string `\e`, and tab, newline, carriage
    /// return and backslash are escaped.
    ///
    /// Written into memory of its own rather than an array: a crash's blob is a hundred thousand bytes in a dozen
    /// pieces per frame, and an array checked its uniqueness and capacity on every one of them.
    private struct LineWriter: ~Copyable {
        private var base: UnsafeMutablePointer<UInt8>
        private var capacity: Int
        private var count = 0

        init(capacity: Int) {
            self.capacity = max(capacity, 4096)
            base = .allocate(capacity: self.capacity)
        }

        deinit {
            base.deallocate()
        }

        /// The text written so far, compressed.
        func compressed() throws(ArchiveError) -> [UInt8] {
            try BlobCompression.compress(UnsafeRawBufferPointer(start: base, count: count))
        }

        mutating func line(_ text: String) {
            for byte in text.utf8 { append(byte) }
            end()
        }

        mutating func begin(_ tag: Unicode.Scalar) {
            append(UInt8(ascii: tag))
        }

        mutating func end() {
            append(0x0A)
        }

        @inline(__always)
        mutating func field(_ text: String?) {
            append(0x09)
            guard let text else { return }
            if text.isEmpty {
                append(0x5C)
                append(0x65)
                return
            }
            // The string's own bytes, read in place through a span (`withUTF8` would need a mutable copy of every
            // field, and `withContiguousStorageIfAvailable` retained and released the string) and copied in one go.
            // Almost every field needs no escape, which eight bytes at a time rule out; a byte the word test stops at
            // is looked at exactly.
            text.withUTF8Bytes { utf8 in
                let plain = JSONParser.plainRun(utf8, from: 0)
                if plain == utf8.count
                    || !UnsafeBufferPointer(rebasing: utf8[plain...]).contains(where: Self.needsEscape)
                {
                    append(utf8)
                } else {
                    escape(utf8)
                }
            }
        }

        /// Lowercase hexadecimal, no prefix.
        mutating func hex(_ value: UInt64?) {
            append(0x09)
            guard let value else { return }
            hexDigits(of: value)
        }

        mutating func decimal(_ value: Int?) {
            append(0x09)
            guard let value else { return }
            if value < 0 { append(UInt8(ascii: "-")) }
            decimalDigits(of: UInt64(value.magnitude))
        }

        mutating func flag(_ value: Bool) {
            append(0x09)
            append(value ? 0x31 : 0x30)
        }

        private static func needsEscape(_ byte: UInt8) -> Bool {
            byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x5C
        }

        private mutating func escape(_ utf8: some Sequence<UInt8>) {
            for byte in utf8 {
                switch byte {
                case 0x09: append(0x5C, 0x74)
                case 0x0A: append(0x5C, 0x6E)
                case 0x0D: append(0x5C, 0x72)
                case 0x5C: append(0x5C, 0x5C)
                default: append(byte)
                }
            }
        }

        /// The lowercase hexadecimal digits of `value`, most significant first: four bits a digit, by shifts (a
        /// division by a radix known only at run time cost a hardware divide per digit, for every address).
        private mutating func hexDigits(of value: UInt64) {
            reserve(16)
            let length = max(1, (64 - value.leadingZeroBitCount + 3) / 4)
            var rest = value
            for position in stride(from: count + length - 1, through: count, by: -1) {
                let digit = UInt8(truncatingIfNeeded: rest & 0xF)
                base[position] = digit < 10 ? 0x30 + digit : 0x57 + digit
                rest >>= 4
            }
            count += length
        }

        /// The decimal digits of `value`, most significant first; a 64-bit value has at most 20.
        private mutating func decimalDigits(of value: UInt64) {
            reserve(20)
            var rest = value
            var length = 0
            repeat {
                length += 1
                rest /= 10
            } while rest > 0
            rest = value
            for position in stride(from: count + length - 1, through: count, by: -1) {
                base[position] = 0x30 + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            }
            count += length
        }

        private mutating func append(_ byte: UInt8) {
            reserve(1)
            base[count] = byte
            count += 1
        }

        private mutating func append(_ first: UInt8, _ second: UInt8) {
            append(first)
            append(second)
        }

        private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let source = bytes.baseAddress else { return }
            reserve(bytes.count)
            (base + count).update(from: source, count: bytes.count)
            count += bytes.count
        }

        private mutating func reserve(_ extra: Int) {
            guard count + extra > capacity else { return }
            let grown = max(capacity * 2, count + extra)
            let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            moved.moveInitialize(from: base, count: count)
            base.deallocate()
            base = moved
            capacity = grown
        }
    }

    private static func unescape(_ field: ArraySlice<UInt8>) -> String? {
        if field.isEmpty { return nil }
        if field.elementsEqual([0x5C, 0x65]) { return "" }
        guard field.contains(0x5C) else { return String(decoding: field, as: UTF8.self) }
        var out: [UInt8] = []
        var escaped = false
        for byte in field {
            if escaped {
                switch byte {
                case 0x74: out.append(0x09)
                case 0x6E: out.append(0x0A)
                case 0x72: out.append(0x0D)
                default: out.append(byte)
                }
                escaped = false
            } else if byte == 0x5C {
                escaped = true
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension Frame {
    /// The frame with the fields every frame line ends with, starting at `start`: symbol, symbol offset, file, line,
    /// inlined flag, and what symbolication found (function, file, line).
    fileprivate func described(by fields: [String?], from start: Int) -> Frame {
        func field(_ offset: Int) -> String? { start + offset < fields.count ? fields[start + offset] : nil }
        var frame = self
        frame.symbol = field(0)
        frame.symbolOffset = field(1).flatMap { UInt64($0, radix: 16) }
        frame.file = field(2)
        frame.line = field(3).flatMap { Int($0) }
        frame.inlined = field(4) == "1"
        if let name = field(5) {
            frame.symbolication = FrameSymbolication(
                status: .symbolicated(backend: "index"),
                locations: [SourceLocation(rawName: name, file: field(6), line: field(7).flatMap { Int($0) })])
        }
        return frame
    }
}
