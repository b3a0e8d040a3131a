import CasefileArchive
import Crypto
import Synchronization

/// A crash's blob (``CrashDetailCodec``) and the sets of system images it names, which the index stores once for every
/// crash that lists them.
public struct CrashDetail: Sendable {
    /// Every thread and image of the crash; the images of its ``imageSets`` as the set's id and their load addresses.
    public var blob: [UInt8]
    /// The sets of system images the blob names, in order.
    public var imageSets: [CrashImageSet]

    /// Creates a crash detail.
    public init(blob: [UInt8], imageSets: [CrashImageSet] = []) {
        self.blob = blob
        self.imageSets = imageSets
    }
}

/// A run of a crash's system images, without their load addresses: the same in every report from one OS build (their
/// UUIDs, paths and sizes are the shared cache's), where each boot slides them by an amount of its own.
///
/// A crash lists 300-odd images and most of them are the system's; written once per set instead of once per crash,
/// they were most of a crash blob's size and of the time compressing it took. Two crashes of one OS build seldom list
/// exactly the same images (a process loads some frameworks only when it uses them), so the list is cut into runs where
/// its content says, as content-defined chunking does: a run ends after an image whose UUID ends in a multiple of 32
/// (one in 32, at random), or at 64 images. Lists that differ by an image, or one that goes on where the other stops,
/// then share every run but those around the difference. The images after the last cut stay in the crash's blob.
///
/// The blob is zstd-compressed tab-separated lines (`BlobCompression`, readable with `zstd -d`): a version line
/// `casefile-image-set 1`, then one `I` line per image — name, path, arch, UUID, size in hex (the end address less the
/// load address; empty when the end is unknown) and app flag — with the escapes of ``CrashDetailCodec``. Its id is the
/// lowercase hex SHA-256 of that text, uncompressed.
public struct CrashImageSet: Sendable, Hashable {
    /// The lowercase hex SHA-256 of the set's text.
    public var id: String
    /// The set's text, compressed.
    public var blob: [UInt8]

    /// Creates a set from its id and compressed text.
    public init(id: String, blob: [UInt8]) {
        self.id = id
        self.blob = blob
    }

    /// The first line of a set's text: its format and version.
    public static let header = "casefile-image-set 1"

    /// A crash lists its system images in sets only when it has at least this many: a report with a handful of
    /// images (an in-app exception, a KSCrash report of one thread) keeps them in its own blob.
    static let minimumCount = 16
    /// The most images in one set.
    static let maximumCount = 64

    /// The sets a crash's `images` are cut into, and for each image the position of its set among them (`nil` for an
    /// image its crash's blob lists itself).
    static func sets(of images: [BinaryImage]) throws(ArchiveError) -> (sets: [CrashImageSet], setOfImage: [Int?]) {
        var setOfImage = [Int?](repeating: nil, count: images.count)
        var sets: [CrashImageSet] = []
        // Images are read where they lie: iterating the list would copy each one (and retain its four strings).
        try images.withUnsafeBufferPointer { images throws(ArchiveError) in
            let shared = images.indices.filter {
                isShared(path: images[$0].path, hasUUID: images[$0].uuid != nil, isApp: images[$0].isApp)
            }
            guard shared.count >= minimumCount else { return }
            var out = BlobLineWriter(capacity: maximumCount * 110)
            var members: [Int] = []
            for index in shared {
                if members.isEmpty { out.line(header) }
                members.append(index)
                out.begin("I")
                out.field(images[index].name)
                out.field(images[index].path)
                out.field(images[index].arch)
                out.field(images[index].uuid)
                out.hex(images[index].endAddress.map { $0 &- images[index].loadAddress })
                out.flag(images[index].isApp)
                out.end()
                guard endsASet(uuid: images[index].uuid) || members.count == maximumCount else { continue }
                sets.append(try make(text: out.text))
                for member in members { setOfImage[member] = sets.count - 1 }
                members.removeAll(keepingCapacity: true)
                out.removeAll()
            }
        }
        return (sets, setOfImage)
    }

    /// Whether a set ends after the image with this UUID: its last two hex digits make a multiple of 32 — the last is
    /// 0 and the one before it even.
    private static func endsASet(uuid: String?) -> Bool {
        guard let uuid else { return false }
        return uuid.withUTF8Bytes { digits in
            guard digits.count >= 2, digits[digits.count - 1] == UInt8(ascii: "0") else { return false }
            return "02468ace".utf8.contains(digits[digits.count - 2])
        }
    }

    /// Whether an image goes in a set: an image of the system (with a path and a UUID), not the app's executable or
    /// anything in the app's bundle, whose path names the install's own container. Its fields are asked one by one:
    /// handing the image over would copy it (and retain its four strings) for each of a crash's 300-odd images.
    static func isShared(path: String?, hasUUID: Bool, isApp: Bool) -> Bool {
        guard !isApp, hasUUID, let path else { return false }
        // Most system images' paths say so in their first bytes.
        if path.withUTF8Bytes({ $0.starts(with: "/System/".utf8) || $0.starts(with: "/usr/".utf8) }) { return true }
        return !path.containsBytes("/Bundle/Application/") && !path.containsBytes("/mobile/Applications/")
    }

    /// The set whose text is `text`: compressed once per process and id, then taken from memory, since the crashes of
    /// a run list the same sets again and again (185 sets for the 534 crashes of the benchmark's 1,000 inputs).
    static func make(text: UnsafeRawBufferPointer) throws(ArchiveError) -> CrashImageSet {
        let id = hash(text)
        if let blob = compressed.withLock({ $0[id] }) { return CrashImageSet(id: id, blob: blob) }
        let blob = try BlobCompression.compress(text)
        compressed.withLock { sets in
            // A set is about 700 bytes compressed; past this many (about 3 MB), forget them and start again.
            if sets.count >= 4096 { sets.removeAll() }
            sets[id] = blob
        }
        return CrashImageSet(id: id, blob: blob)
    }

    /// The lowercase hex SHA-256 of `text`.
    private static func hash(_ text: UnsafeRawBufferPointer) -> String {
        var hasher = SHA256()
        hasher.update(bufferPointer: text)
        return ContentHash.hex(hasher.finalize())
    }

    /// The sets compressed so far in this process, by id.
    private static let compressed = Mutex<[String: [UInt8]]>([:])

    /// An image of a set: everything but its load address, and its size.
    struct Member {
        var name: String
        var path: String?
        var arch: String?
        var uuid: String?
        var size: UInt64?
        var isApp: Bool

        /// The image loaded at `loadAddress`.
        func image(loadedAt loadAddress: UInt64) -> BinaryImage {
            BinaryImage(
                name: name, path: path, arch: arch, normalizedUUID: uuid, loadAddress: loadAddress,
                endAddress: size.map { loadAddress &+ $0 }, isApp: isApp)
        }
    }

    /// The set's images, in order, after checking that the text is the one its id names.
    func members() throws(ArchiveError) -> [Member] {
        let text = try BlobCompression.decompress(blob)
        guard text.withUnsafeBytes(Self.hash) == id else {
            throw ArchiveError(code: .corrupt, input: "image set \(id)", reason: "its text does not hash to its id")
        }
        var lines = text.split(separator: 0x0A)[...]
        guard let first = lines.popFirst(), String(decoding: first, as: UTF8.self) == Self.header else {
            throw ArchiveError(code: .corrupt, input: "image set \(id)", reason: "not an image set of version 1")
        }
        return lines.compactMap { line in
            let fields = CrashDetailCodec.fields(of: line)
            guard fields.first == "I", fields.count >= 7 else { return nil }
            return Member(
                name: fields[1] ?? "???", path: fields[2], arch: fields[3], uuid: fields[4],
                size: fields[5].flatMap { UInt64($0, radix: 16) }, isApp: fields[6] == "1")
        }
    }
}
