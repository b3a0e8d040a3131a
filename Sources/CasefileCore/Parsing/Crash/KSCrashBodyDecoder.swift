/// Decodes a KSCrash report's binary images and its crash's threads and frames straight from the bytes — nearly all
/// of a report — and keeps every other member as a small tree for ``KSCrashParser``.
///
/// What it returns is what the tree would give, or nothing. The scanner reads strictly, and anything the tree would
/// read another way returns `nil`: a trailing comma or `...` elision (read with a warning), an escaped or repeated
/// key, a key the tree would match ignoring case, an integer past `Int64.max`, a frame, image or thread that is not
/// an object. The tree parser then reads the report as before. So does any JSON that is not a KSCrash report.
enum KSCrashBodyDecoder {
    /// A decoded report.
    struct Body {
        /// The report's members in file order; `binary_images` and the crash's `threads` are empty arrays here.
        var report = JSONObject()
        /// The images of `binary_images` that ``KSCrashParser`` keeps, when the report has the key and an array.
        var images: [BinaryImage]?
        /// The images' `crash_info_message` strings, in order.
        var crashInfoMessages: [String] = []
        /// The crash's threads, when its `threads` key holds an array.
        var threads: [CrashThread]?
    }

    private struct Refused: Error {}

    /// The smallest report worth decoding: a real KSCrash report lists hundreds of images and is larger; below this
    /// the tree costs little, and other JSON (MetricKit payloads, in-app reports) is not searched for the keys.
    static let minimumSize = 64 << 10

    /// The decoded report; `nil` when the tree parser must read it.
    static func decode(_ bytes: ArraySlice<UInt8>) -> Body? {
        guard bytes.count >= minimumSize else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            // A report without a crash section is not read here (KSCrash's check also takes images beside system
            // information, which the tree reads); nor is any other JSON, which costs this search of its bytes.
            guard
                [#""crash""#, #""recrash_report""#].contains(where: { key in
                    Array(key.utf8).withUnsafeBufferPointer { ByteScan.contains($0, in: buffer) }
                })
            else { return nil }
            var scanner = JSONScanner(buffer, strict: true)
            var body = Body()
            // Other members are passed over first and made into trees (which checks them) only once the report is
            // KSCrash's: any other JSON goes to the tree parser having cost one pass over its bytes.
            var others: [(member: Int, value: Range<Int>)] = []
            do {
                var seen = JSONKeySet()
                scanner.skipWhitespace()
                try scanner.members { scanner, key in
                    guard scanner.keyIsPlain(key) else { throw Refused() }
                    if scanner.key(key, is: "binary_images") {
                        try seen.insert(0)
                        if scanner.current == UInt8(ascii: "[") {
                            try images(&scanner, into: &body)
                            body.report.members.append(JSONObject.Member(key: "binary_images", value: .array([])))
                            return
                        }
                    } else if scanner.key(key, is: "crash") {
                        try seen.insert(1)
                        if scanner.current == UInt8(ascii: "{") {
                            let crash = try crash(&scanner, threads: &body.threads)
                            body.report.members.append(JSONObject.Member(key: "crash", value: .object(crash)))
                            return
                        }
                    }
                    let start = scanner.index
                    try scanner.skipExtent()
                    others.append((body.report.members.count, start..<scanner.index))
                    body.report.members.append(JSONObject.Member(key: scanner.text(key), value: .null))
                }
                scanner.skipWhitespace()
                guard scanner.index == buffer.count, CrashReportParser.isKSCrash(body.report) else { return nil }
                for other in others {
                    // A member of the report's top object: one level down.
                    var value = JSONScanner(
                        UnsafeBufferPointer(rebasing: buffer[other.value]), strict: true, depth: 1)
                    body.report.members[other.member].value = try value.value()
                }
            } catch {
                return nil
            }
            return body
        }
    }

    private static func images(_ scanner: inout JSONScanner, into body: inout Body) throws {
        var images: [BinaryImage] = []
        var messages: [String] = []
        try scanner.elements { scanner in
            guard scanner.current == UInt8(ascii: "{") else { throw Refused() }
            var base: UInt64?
            var path: String?
            var size: UInt64?
            var cpuType: Int?
            var cpuSubtype: Int?
            var uuid: String?
            var message: String?
            var seen = JSONKeySet()
            try scanner.members { scanner, key in
                guard scanner.keyIsPlain(key) else { throw Refused() }
                if scanner.key(key, is: "image_addr") {
                    try seen.insert(0)
                    base = try scanner.uint64()
                } else if scanner.key(key, is: "name") {
                    try seen.insert(1)
                    path = try scanner.string()
                } else if scanner.key(key, is: "image_size") {
                    try seen.insert(2)
                    size = try scanner.uint64()
                } else if scanner.key(key, is: "cpu_type") {
                    try seen.insert(3)
                    cpuType = try scanner.int()
                } else if scanner.key(key, is: "cpu_subtype") {
                    try seen.insert(4)
                    cpuSubtype = try scanner.int()
                } else if scanner.key(key, is: "uuid") {
                    try seen.insert(5)
                    uuid = try scanner.string()
                } else if scanner.key(key, is: "crash_info_message") {
                    try seen.insert(6)
                    message = try scanner.string()
                } else {
                    try scanner.skipValue(
                        ofKey: key,
                        besides: [
                            "image_addr", "name", "image_size", "cpu_type", "cpu_subtype", "uuid", "crash_info_message",
                        ])
                }
            }
            if let image = KSCrashParser.image(
                base: base, path: path, size: size, cpuType: cpuType, cpuSubtype: cpuSubtype, uuid: uuid)
            {
                images.append(image)
            }
            if let message { messages.append(message) }
        }
        body.images = images
        body.crashInfoMessages = messages
    }

    /// The crash object with its threads decoded into `threads` and left empty in the tree.
    private static func crash(_ scanner: inout JSONScanner, threads: inout [CrashThread]?) throws -> JSONObject {
        var rest = JSONObject()
        var seenThreads = false
        try scanner.members { scanner, key in
            guard scanner.keyIsPlain(key) else { throw Refused() }
            if scanner.key(key, is: "threads") {
                guard !seenThreads else { throw Refused() }
                seenThreads = true
                if scanner.current == UInt8(ascii: "[") {
                    var decoded: [CrashThread] = []
                    try scanner.elements { scanner in decoded.append(try thread(&scanner, position: decoded.count)) }
                    threads = decoded
                    rest.members.append(JSONObject.Member(key: "threads", value: .array([])))
                    return
                }
            }
            rest.members.append(JSONObject.Member(key: scanner.text(key), value: try scanner.value()))
        }
        return rest
    }

    private static func thread(_ scanner: inout JSONScanner, position: Int) throws -> CrashThread {
        guard scanner.current == UInt8(ascii: "{") else { throw Refused() }
        var thread = CrashThread(index: position)
        var seen = JSONKeySet()
        try scanner.members { scanner, key in
            guard scanner.keyIsPlain(key) else { throw Refused() }
            if scanner.key(key, is: "index") {
                try seen.insert(0)
                thread.index = try scanner.int() ?? position
            } else if scanner.key(key, is: "name") {
                try seen.insert(1)
                thread.name = try scanner.string()
            } else if scanner.key(key, is: "dispatch_queue") {
                try seen.insert(2)
                thread.queue = try scanner.string()
            } else if scanner.key(key, is: "crashed") {
                try seen.insert(3)
                thread.crashed = try scanner.bool() ?? false
            } else if scanner.key(key, is: "backtrace") {
                try seen.insert(4)
                thread.frames = try backtrace(&scanner)
            } else {
                try scanner.skipValue(ofKey: key, besides: ["index", "name", "dispatch_queue", "crashed", "backtrace"])
            }
        }
        return thread
    }

    /// The frames of a thread's `backtrace` object: its `contents`; none for anything else.
    private static func backtrace(_ scanner: inout JSONScanner) throws -> [Frame] {
        guard scanner.current == UInt8(ascii: "{") else {
            try scanner.skipValue()
            return []
        }
        var frames: [Frame] = []
        var seen = JSONKeySet()
        try scanner.members { scanner, key in
            guard scanner.keyIsPlain(key) else { throw Refused() }
            if scanner.key(key, is: "contents") {
                try seen.insert(0)
                guard scanner.current == UInt8(ascii: "[") else {
                    try scanner.skipValue()
                    return
                }
                var image: ImageMemo?
                try scanner.elements { scanner in frames.append(try frame(&scanner, image: &image)) }
            } else {
                try scanner.skipValue(ofKey: key, besides: ["contents"])
            }
        }
        return frames
    }

    /// The image name of the frame before: the bytes of its `object_name` and the name made of them.
    private struct ImageMemo {
        var path: Range<Int>
        var name: String
    }

    /// A frame, its keys matched exactly as ``KSCrashParser`` matches them. A thread's frames name a few images many
    /// times: an `object_name` spelled as the frame before's takes that frame's image name, not a new string.
    private static func frame(_ scanner: inout JSONScanner, image memo: inout ImageMemo?) throws -> Frame {
        guard scanner.current == UInt8(ascii: "{") else { throw Refused() }
        var address: UInt64?
        var load: UInt64?
        var symbolAddress: UInt64?
        var image: String?
        var symbol: String?
        var seen = JSONKeySet()
        try scanner.members { scanner, key in
            guard scanner.keyIsPlain(key) else { throw Refused() }
            if scanner.key(key, is: "instruction_addr") {
                try seen.insert(0)
                address = try scanner.uint64()
            } else if scanner.key(key, is: "object_addr") {
                try seen.insert(1)
                load = try scanner.uint64()
            } else if scanner.key(key, is: "symbol_addr") {
                try seen.insert(2)
                symbolAddress = try scanner.uint64()
            } else if scanner.key(key, is: "object_name") {
                try seen.insert(3)
                if let path = try scanner.plainStringRange() {
                    if let known = memo, scanner.bytes(path, equal: known.path) {
                        image = known.name
                    } else {
                        let name = scanner.text(path, afterLastSlash: true)
                        memo = ImageMemo(path: path, name: name)
                        image = name
                    }
                } else {
                    image = try scanner.string().map(KSCrashParser.basename)
                }
            } else if scanner.key(key, is: "symbol_name") {
                try seen.insert(4)
                symbol = try scanner.string()
            } else {
                try scanner.skipValue()
            }
        }
        return KSCrashParser.frame(
            address: address, load: load, symbolAddress: symbolAddress, image: image, symbol: symbol)
    }
}
