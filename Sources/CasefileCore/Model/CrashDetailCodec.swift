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
/// the image; any other frame is an `F` line with every field, as in version 1. Version 3 lists most system images of a
/// crash with many by the sets the index stores once (``CrashImageSet``): an `S` line names a set, and each `J` line
/// after it holds only a load address, for the next image of that set. Every version decodes.
public enum CrashDetailCodec {
    /// The first line of a blob: its format and version.
    public static let header = "casefile-crash-detail 3"
    private static let headers: Set<String> = ["casefile-crash-detail 1", "casefile-crash-detail 2", header]

    /// The blob of a crash's threads and images, and the sets of system images it names.
    public static func encode(_ crash: Crash) throws(ArchiveError) -> CrashDetail {
        let (sets, setOfImage) = try CrashImageSet.sets(of: crash.images)
        var out = BlobLineWriter(capacity: crash.frameCount * 80 + crash.images.count * 120)
        out.line(header)
        // Fields are written straight into the buffer: no array of strings per line, no string per number.
        crash.images.withUnsafeBufferPointer { images in
            var current: Int?
            for index in images.indices {
                if let set = setOfImage[index] {
                    if set != current {
                        current = set
                        out.begin("S")
                        out.field(sets[set].id)
                        out.end()
                    }
                    out.begin("J")
                    out.hex(images[index].loadAddress)
                    out.end()
                    continue
                }
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
                    if let box = frames[index].symbolicationBox, let last = box.value.locations.indices.last {
                        out.field(box.value.locations[last].rawName)
                        out.field(box.value.locations[last].file)
                        out.decimal(box.value.locations[last].line)
                    } else {
                        out.field(nil)
                        out.field(nil)
                        out.decimal(nil)
                    }
                    out.end()
                }
            }
        }
        return CrashDetail(blob: try out.compressed(), imageSets: sets)
    }

    /// The threads and images back from a crash's detail; a frame's symbolication, when it had one, as its function,
    /// file and line.
    public static func decode(_ detail: CrashDetail) throws(ArchiveError) -> (
        threads: [CrashThread], images: [BinaryImage]
    ) {
        try decode(detail.blob, imageSets: Dictionary(detail.imageSets.map { ($0.id, $0) }) { first, _ in first })
    }

    /// The ids of the sets of system images a blob names (version 3; earlier blobs name none), in order.
    public static func imageSetIDs(in blob: [UInt8]) throws(ArchiveError) -> [String] {
        try BlobCompression.decompress(blob).split(separator: 0x0A).compactMap { line in
            guard line.first == UInt8(ascii: "S") else { return nil }
            return fields(of: line).dropFirst().first ?? nil
        }
    }

    /// The threads and images back from a blob and the set of system images it names (version 3; earlier blobs name
    /// none), by id. A blob naming a set missing from `imageSets` is refused.
    public static func decode(_ blob: [UInt8], imageSets: [String: CrashImageSet] = [:]) throws(ArchiveError) -> (
        threads: [CrashThread], images: [BinaryImage]
    ) {
        try decode(blob) { id throws(ArchiveError) in imageSets[id] }
    }

    /// The threads and images back from a blob, asking `imageSet` for each set of system images it names (version 3;
    /// earlier blobs name none) as it comes to it: a reader holding the sets elsewhere (the index) fetches each from
    /// there, and the blob is decompressed once. A set `imageSet` does not find (`nil`) is refused.
    public static func decode(
        _ blob: [UInt8], imageSet: (String) throws(ArchiveError) -> CrashImageSet?
    ) throws(ArchiveError) -> (threads: [CrashThread], images: [BinaryImage]) {
        let bytes = try BlobCompression.decompress(blob)
        var threads: [CrashThread] = []
        var images: [BinaryImage] = []
        var members: [CrashImageSet.Member] = []
        var nextMember = 0
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)[...]
        guard let first = lines.popFirst(), headers.contains(String(decoding: first, as: UTF8.self)) else {
            throw ArchiveError(
                code: .corrupt, input: "crash detail", reason: "not a crash detail blob of version 1, 2 or 3")
        }
        for line in lines where !line.isEmpty {
            let fields = Self.fields(of: line)
            func field(_ index: Int) -> String? { index < fields.count ? fields[index] : nil }
            func number(_ index: Int) -> UInt64? { field(index).flatMap { UInt64($0, radix: 16) } }
            switch field(0) {
            case "S":
                guard let id = field(1), let imageSet = try imageSet(id) else {
                    throw ArchiveError(
                        code: .corrupt, input: "crash detail",
                        reason: "names the image set \(field(1) ?? "") it was not given")
                }
                members = try imageSet.members()
                nextMember = 0
            case "I":
                images.append(
                    BinaryImage(
                        name: field(1) ?? "???", path: field(2), arch: field(3), uuid: field(4),
                        loadAddress: number(5) ?? 0, endAddress: number(6), isApp: field(7) == "1"))
            case "J":
                // The next image of the set, loaded at this address.
                guard nextMember < members.count, let load = number(1) else {
                    throw ArchiveError(
                        code: .corrupt, input: "crash detail",
                        reason: "lists more images of its set than the \(members.count) the set holds")
                }
                images.append(members[nextMember].image(loadedAt: load))
                nextMember += 1
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

    /// The fields of one line of a blob, unescaped: `nil` for an empty one.
    static func fields(of line: ArraySlice<UInt8>) -> [String?] {
        line.split(separator: 0x09, omittingEmptySubsequences: false).map(unescape)
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
