public import CasefileArchive

/// Every thread and image of a crash as one compact blob: tab-separated lines, gzip-compressed by libarchive.
///
/// The index keeps as rows only what is queried — the crashed thread, the exception backtrace, the app's frames and
/// the images they lie in; the rest of a crash (dozens of threads, hundreds of images) is this blob, made by the
/// parallel stages so the index writer only stores it. Text, not a binary layout: a person can read it with
/// `gunzip`.
public enum CrashDetailCodec {
    /// The first line of a blob: its format and version.
    public static let header = "casefile-crash-detail 1"

    /// The blob of a crash's threads and images.
    public static func encode(_ crash: Crash) throws(ArchiveError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(crash.threads.reduce(0) { $0 + $1.frames.count } * 80 + crash.images.count * 120)
        out += header.utf8
        out.append(0x0A)
        for image in crash.images {
            line(
                &out, "I",
                [
                    image.name, image.path, image.arch, image.uuid, hex(image.loadAddress), image.endAddress.map(hex),
                    image.isApp ? "1" : "0",
                ])
        }
        for thread in crash.threads {
            line(&out, "T", [String(thread.index), thread.name, thread.queue, thread.crashed ? "1" : "0"])
            for frame in thread.frames {
                let function = frame.symbolication?.locations.last
                line(
                    &out, "F",
                    [
                        frame.image, frame.imageUUID, frame.address.map(hex), frame.imageLoadAddress.map(hex),
                        frame.imageOffset.map(hex), frame.symbol, frame.symbolOffset.map(hex), frame.file,
                        frame.line.map(String.init), frame.inlined ? "1" : "0", function?.rawName, function?.file,
                        function?.line.map(String.init),
                    ])
            }
        }
        return try Gzip.compress(out)
    }

    /// The threads and images back from a blob; a frame's symbolication, when it had one, as its function, file
    /// and line.
    public static func decode(_ blob: [UInt8]) throws(ArchiveError) -> (threads: [CrashThread], images: [BinaryImage]) {
        let bytes = try Gzip.decompress(blob)
        var threads: [CrashThread] = []
        var images: [BinaryImage] = []
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)[...]
        guard let first = lines.popFirst(), String(decoding: first, as: UTF8.self) == header else {
            throw ArchiveError(code: .corrupt, input: "crash detail", reason: "not a crash detail blob of version 1")
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
                    image: field(1), address: number(3), imageLoadAddress: number(4), imageOffset: number(5),
                    symbol: field(6), symbolOffset: number(7), file: field(8), line: field(9).flatMap { Int($0) },
                    inlined: field(10) == "1")
                frame.imageUUID = field(2)
                if let name = field(11) {
                    frame.symbolication = FrameSymbolication(
                        status: .symbolicated(backend: "index"),
                        locations: [SourceLocation(rawName: name, file: field(12), line: field(13).flatMap { Int($0) })]
                    )
                }
                threads[threads.count - 1].frames.append(frame)
            default:
                continue
            }
        }
        return (threads, images)
    }

    private static func hex(_ value: UInt64) -> String {
        String(value, radix: 16)
    }

    /// One line: a tag, then the fields; `nil` is an empty field, an empty string `\e`.
    private static func line(_ out: inout [UInt8], _ tag: String, _ fields: [String?]) {
        out += tag.utf8
        for field in fields {
            out.append(0x09)
            guard let field else { continue }
            if field.isEmpty {
                out += [0x5C, 0x65]
                continue
            }
            for byte in field.utf8 {
                switch byte {
                case 0x09: out += [0x5C, 0x74]
                case 0x0A: out += [0x5C, 0x6E]
                case 0x0D: out += [0x5C, 0x72]
                case 0x5C: out += [0x5C, 0x5C]
                default: out.append(byte)
                }
            }
        }
        out.append(0x0A)
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
