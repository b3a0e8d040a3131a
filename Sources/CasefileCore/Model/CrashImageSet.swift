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
    ///
    /// A run that begins as a set made earlier in the process began, with the same images field for field, is that set:
    /// its text would be the same, and is neither written nor hashed again. The crashes of a run list the same sets
    /// again and again (185 sets for the 534 crashes of the benchmark's 1,000 inputs).
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
            // The positions in `shared` of the run being written: from `start` up to `position`.
            var start = 0
            var position = 0
            func close(_ set: CrashImageSet) {
                sets.append(set)
                for member in shared[start..<position] { setOfImage[member] = sets.count - 1 }
                start = position
            }
            while position < shared.count {
                if position == start, let known = known(at: start, of: shared, in: images) {
                    position += known.members.count
                    close(known.set)
                    continue
                }
                let index = shared[position]
                if position == start { out.line(header) }
                out.begin("I")
                out.field(images[index].name)
                out.field(images[index].path)
                out.field(images[index].arch)
                out.field(images[index].uuid)
                out.hex(images[index].setSize)
                out.flag(images[index].isApp)
                out.end()
                position += 1
                guard endsASet(uuid: images[index].uuid) || position - start == maximumCount else { continue }
                let set = try make(text: out.text)
                remember(Known(set: set, members: shared[start..<position].map { Member(images[$0]) }))
                close(set)
                out.removeAll()
            }
        }
        return (sets, setOfImage)
    }

    /// A set made earlier in this process and the images it was made of.
    private struct Known {
        var set: CrashImageSet
        var members: [Member]
    }

    /// The sets made so far in this process, by the UUID of their first image. A set keeps about 700 bytes compressed
    /// and, for its 32 images on average, about 270 bytes of fields each (a path and a UUID too long for a small
    /// string): past ``knownLimit`` sets, about 10 MB, they are forgotten and learned again.
    private static let knownSets = Mutex<(byFirstUUID: [String: [Known]], count: Int)>(([:], 0))
    /// The most sets ``knownSets`` keeps; a run of 1,000 benchmark inputs makes 185.
    private static let knownLimit = 1024

    /// The set made earlier whose images are, field for field, the images at `shared[start...]` that begin it. The end
    /// of a run depends only on its images' UUIDs (and its length), so those images end a run here as they did there.
    private static func known(
        at start: Int, of shared: [Int], in images: UnsafeBufferPointer<BinaryImage>
    ) -> Known? {
        guard let uuid = images[shared[start]].uuid,
            let candidates = knownSets.withLock({ $0.byFirstUUID[uuid] })
        else { return nil }
        return candidates.first { candidate in
            candidate.members.count <= shared.count - start
                && candidate.members.indices.allSatisfy { offset in
                    candidate.members[offset].describes(images[shared[start + offset]])
                }
        }
    }

    /// Keeps `known` for the crashes after this one.
    private static func remember(_ known: Known) {
        guard let uuid = known.members.first?.uuid else { return }
        knownSets.withLock { sets in
            if sets.count >= knownLimit { sets = ([:], 0) }
            sets.byFirstUUID[uuid, default: []].append(known)
            sets.count += 1
        }
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
        if path.withUTF8Bytes({ ByteScan.hasPrefix($0, "/System/") || ByteScan.hasPrefix($0, "/usr/") }) { return true }
        return !path.containsBytes("/Bundle/Application/") && !path.containsBytes("/mobile/Applications/")
    }

    /// The set whose text is `text`.
    static func make(text: UnsafeRawBufferPointer) throws(ArchiveError) -> CrashImageSet {
        CrashImageSet(id: hash(text), blob: try BlobCompression.compress(text))
    }

    /// The lowercase hex SHA-256 of `text`.
    private static func hash(_ text: UnsafeRawBufferPointer) -> String {
        var hasher = SHA256()
        hasher.update(bufferPointer: text)
        return ContentHash.hex(hasher.finalize())
    }

    /// An image of a set: everything but its load address, and its size.
    struct Member {
        var name: String
        var path: String?
        var arch: String?
        var uuid: String?
        var size: UInt64?
        var isApp: Bool
        /// Whether the member's texts are all ASCII, as a system image's nearly always are.
        private let isASCII: Bool

        init(name: String, path: String?, arch: String?, uuid: String?, size: UInt64?, isApp: Bool) {
            self.name = name
            self.path = path
            self.arch = arch
            self.uuid = uuid
            self.size = size
            self.isApp = isApp
            isASCII = Self.isASCII(name) && Self.isASCII(path) && Self.isASCII(arch) && Self.isASCII(uuid)
        }

        private static func isASCII(_ text: String?) -> Bool {
            text?.utf8.allSatisfy { $0 < 0x80 } ?? true
        }

        /// Whether `image` is this member, wherever it is loaded: its line in a set's text would be this member's.
        /// Field by field, not `Member(image) == self`: a crash's 300-odd images would each be copied.
        ///
        /// Byte for byte, not only by `==`, which takes canonically equivalent texts as equal: a path with a
        /// precomposed `é` would take the set of one with `e` and a combining accent, and decode as that one. `==`
        /// compares an ASCII text's bytes, and the only other texts equivalent to an ASCII one are longer in UTF-8
        /// (a Kelvin sign for a `K`): for an ASCII member equal lengths complete `==`, and others compare bytes.
        func describes(_ image: BinaryImage) -> Bool {
            guard
                image.uuid == uuid && image.name == name && image.path == path && image.arch == arch
                    && image.isApp == isApp && image.setSize == size
            else { return false }
            if isASCII {
                return image.name.utf8.count == name.utf8.count && image.path?.utf8.count == path?.utf8.count
                    && image.arch?.utf8.count == arch?.utf8.count && image.uuid?.utf8.count == uuid?.utf8.count
            }
            return Self.sameBytes(image.name, name) && Self.sameBytes(image.path, path)
                && Self.sameBytes(image.arch, arch) && Self.sameBytes(image.uuid, uuid)
        }

        private static func sameBytes(_ one: String?, _ other: String?) -> Bool {
            guard let one, let other else { return one == nil && other == nil }
            return one.utf8.elementsEqual(other.utf8)
        }

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

extension CrashImageSet.Member {
    /// The member `image` is: its fields, and its size for its end address. In an extension, so the member-wise
    /// initializer stays.
    init(_ image: BinaryImage) {
        self.init(
            name: image.name, path: image.path, arch: image.arch, uuid: image.uuid,
            size: image.setSize, isApp: image.isApp)
    }
}

extension BinaryImage {
    /// The size a set's line gives the image: its end address less its load address, `nil` when the end is unknown.
    fileprivate var setSize: UInt64? {
        endAddress.map { $0 &- loadAddress }
    }
}
