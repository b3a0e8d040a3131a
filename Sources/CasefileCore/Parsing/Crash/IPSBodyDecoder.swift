/// Decodes the threads, frames and images of an `.ips` body straight from its bytes — they are nearly all of a
/// report — and keeps every other key as a small tree for ``IPSCrashParser``.
///
/// Returns `nil` for anything unusual (truncation, odd types); the tree parser then reads the body and says why.
enum IPSBodyDecoder {
    struct RawFrame {
        var imageIndex: Int?
        var frame: Frame
    }

    struct RawThread {
        var name: String?
        var queue: String?
        var triggered: Bool?
        /// Frames, their images not yet resolved; ``imageIndices`` runs beside them (−1 for none).
        var frames: [Frame]
        var imageIndices: [Int]
    }

    struct Body {
        var rest = JSONObject()
        var threads: [RawThread]?
        /// The images of `usedImages` that are images (the absolute placeholder is not), in its order.
        var images: [BinaryImage]?
        /// For each entry of `usedImages`, its position in ``images``; −1 for none.
        var imagePositions: [Int] = []
        var exceptionBacktrace: [RawFrame]?
    }

    static func decode(_ bytes: ArraySlice<UInt8>) -> Body? {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer)
            var body = Body()
            do {
                scanner.skipWhitespace()
                try scanner.members { scanner, key in
                    if scanner.key(key, is: "threads") {
                        var threads: [RawThread] = []
                        try scanner.elements { scanner in threads.append(try thread(&scanner)) }
                        body.threads = threads
                    } else if scanner.key(key, is: "usedImages") {
                        // Kept apart from their positions, so the parser takes the list as it is, with no copy of
                        // each image (and its four strings) to drop the placeholder's gap.
                        var images: [BinaryImage] = []
                        var positions: [Int] = []
                        try scanner.elements { scanner in
                            if let image = try image(&scanner) {
                                positions.append(images.count)
                                images.append(image)
                            } else {
                                positions.append(-1)
                            }
                        }
                        body.images = images
                        body.imagePositions = positions
                    } else if scanner.key(key, is: "lastExceptionBacktrace") {
                        var frames: [RawFrame] = []
                        try scanner.elements { scanner in frames.append(try frame(&scanner)) }
                        body.exceptionBacktrace = frames
                    } else {
                        body.rest.members.append(
                            JSONObject.Member(key: scanner.text(key), value: try scanner.value()))
                    }
                }
                scanner.skipWhitespace()
                guard scanner.index == buffer.count else { return nil }
            } catch {
                return nil
            }
            resolveImages(&body)
            return body
        }
    }

    /// Gives a frame its image, as `usedImages[imageIndex]` names it: address = load address + image offset.
    static func attach(_ frame: inout Frame, image: String, loadAddress: UInt64) {
        frame.image = image
        frame.imageLoadAddress = loadAddress
        if let offset = frame.imageOffset { frame.address = loadAddress &+ offset }
    }

    /// Fills each frame's image, load address and address from `usedImages`, in place while the arrays are
    /// uniquely owned (usedImages follows the threads in the file, so this cannot happen while reading them).
    private static func resolveImages(_ body: inout Body) {
        guard let images = body.images, var threads = body.threads else { return }
        body.threads = nil
        // Names and load addresses by index, so a frame copies a string reference, not a whole image.
        let names = body.imagePositions.map { $0 < 0 ? nil : images[$0].name }
        let loads = body.imagePositions.map { $0 < 0 ? nil : images[$0].loadAddress }
        for thread in threads.indices {
            for position in threads[thread].frames.indices {
                let imageIndex = threads[thread].imageIndices[position]
                guard imageIndex >= 0, imageIndex < names.count, let name = names[imageIndex],
                    let load = loads[imageIndex]
                else { continue }
                attach(&threads[thread].frames[position], image: name, loadAddress: load)
            }
        }
        body.threads = threads
    }

    private static func thread(_ scanner: inout JSONScanner) throws -> RawThread {
        var thread = RawThread(frames: [], imageIndices: [])
        thread.frames.reserveCapacity(CrashThread.framesReserved)
        thread.imageIndices.reserveCapacity(CrashThread.framesReserved)
        try scanner.members { scanner, key in
            if scanner.key(key, is: "frames") {
                try scanner.elements { scanner in
                    // Decoded in place: a Frame is large, and copying one per frame showed in profiles.
                    thread.frames.append(Frame())
                    thread.imageIndices.append(-1)
                    let last = thread.frames.count - 1
                    try decodeFrame(&scanner, into: &thread.frames[last], imageIndex: &thread.imageIndices[last])
                }
            } else if scanner.key(key, is: "name") {
                thread.name = try scanner.string()
            } else if scanner.key(key, is: "queue") {
                thread.queue = try scanner.string()
            } else if scanner.key(key, is: "triggered") {
                thread.triggered = try scanner.bool()
            } else {
                try scanner.skipValue()
            }
        }
        return thread
    }

    private static func decodeFrame(
        _ scanner: inout JSONScanner, into frame: inout Frame, imageIndex: inout Int
    ) throws {
        let start = scanner.index
        if decodeCompactFrame(&scanner, into: &frame, imageIndex: &imageIndex) { return }
        scanner.rewind(to: start)
        frame = Frame()
        imageIndex = -1
        try scanner.members { scanner, key in
            if scanner.key(key, is: "imageOffset") {
                frame.imageOffset = try scanner.uint64()
            } else if scanner.key(key, is: "symbol") {
                frame.symbol = try scanner.string()
            } else if scanner.key(key, is: "symbolLocation") {
                frame.symbolOffset = try scanner.uint64()
            } else if scanner.key(key, is: "imageIndex") {
                imageIndex = try scanner.int() ?? -1
            } else if scanner.key(key, is: "sourceFile") {
                frame.file = try scanner.string()
            } else if scanner.key(key, is: "sourceLine") {
                frame.line = try scanner.int()
            } else if scanner.key(key, is: "inline") {
                frame.inlined = try scanner.bool() ?? false
            } else {
                try scanner.skipValue()
            }
        }
    }

    /// The shape Apple writes, byte for byte: `{"imageOffset":N,"symbol":"…","symbolLocation":N,"imageIndex":N}`
    /// or `{"imageOffset":N,"imageIndex":N}`. Anything else (white space, other keys, escapes) returns `false` and
    /// the frame is read key by key.
    @inline(__always)
    private static func decodeCompactFrame(
        _ scanner: inout JSONScanner, into frame: inout Frame, imageIndex: inout Int
    ) -> Bool {
        guard scanner.literal(#"{"imageOffset":"#), let offset = scanner.digits() else { return false }
        frame.imageOffset = offset
        if scanner.literal(#","symbol":""#) {
            guard let symbol = scanner.plainStringBody(), scanner.literal(#","symbolLocation":"#),
                let location = scanner.digits()
            else { return false }
            frame.symbol = symbol
            frame.symbolOffset = location
        }
        guard scanner.literal(#","imageIndex":"#), let index = scanner.digits(), scanner.literal("}"),
            let value = Int(exactly: index)
        else { return false }
        imageIndex = value
        return true
    }

    private static func frame(_ scanner: inout JSONScanner) throws -> RawFrame {
        var raw = RawFrame(frame: Frame())
        var imageIndex = -1
        try decodeFrame(&scanner, into: &raw.frame, imageIndex: &imageIndex)
        raw.imageIndex = imageIndex >= 0 ? imageIndex : nil
        return raw
    }

    private static func image(_ scanner: inout JSONScanner) throws -> BinaryImage? {
        var base: UInt64?
        var size: UInt64 = 0
        var uuid: String?
        var path: String?
        var name: String?
        var arch: String?
        try scanner.members { scanner, key in
            if scanner.key(key, is: "base") {
                base = try scanner.uint64()
            } else if scanner.key(key, is: "size") {
                size = try scanner.uint64() ?? 0
            } else if scanner.key(key, is: "uuid") {
                uuid = try scanner.uuid()
            } else if scanner.key(key, is: "path") {
                path = try scanner.string()
            } else if scanner.key(key, is: "name") {
                name = try scanner.string()
            } else if scanner.key(key, is: "arch") {
                arch = try scanner.string()
            } else {
                try scanner.skipValue()
            }
        }
        guard let base, let name = name ?? path.flatMap({ $0.split(separator: "/").last.map(String.init) }) else {
            return nil
        }
        return BinaryImage(
            name: name, path: path, arch: arch, normalizedUUID: uuid, loadAddress: base,
            endAddress: size > 0 ? base &+ size &- 1 : nil, isApp: false)
    }
}
