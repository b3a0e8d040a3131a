/// A crash's binary images, indexed for the per-frame questions: which image loads at this address, which one
/// contains it, which one has this name. Built once per crash; a crash asks it for each of its thousand-odd frames
/// against 300-odd images. Each answer is the one a search of the list in order would give: the first match.
///
/// Answers are positions in ``images``, so a frame reads the one field it needs instead of copying the whole image
/// (four strings) per frame.
struct ImageTable {
    /// The images, in the crash's order.
    let images: [BinaryImage]
    private let byLoadAddress: [UInt64: Int]
    /// Built on the first question by name: names are asked only for frames without an address inside an image,
    /// and hashing 300-odd names per crash for nothing cost more than the questions it answered.
    private let byName: NameIndex
    /// Positions in `images`, sorted by load address; `nil` when ranges overlap (a malformed list), and
    /// containment falls back to the search in list order.
    private let sorted: [Int]?

    init(_ images: [BinaryImage]) {
        self.images = images
        var byLoadAddress: [UInt64: Int] = [:]
        byLoadAddress.reserveCapacity(images.count)
        for position in images.indices where byLoadAddress[images[position].loadAddress] == nil {
            byLoadAddress[images[position].loadAddress] = position
        }
        self.byLoadAddress = byLoadAddress
        byName = NameIndex(images)
        let order = images.indices.sorted { images[$0].loadAddress < images[$1].loadAddress }
        // With no overlap, at most one image contains an address: the nearest load address at or below it.
        let disjoint = zip(order, order.dropFirst()).allSatisfy { earlier, later in
            images[later].loadAddress > images[earlier].loadAddress
                && (images[earlier].endAddress.map { $0 < images[later].loadAddress } ?? true)
        }
        sorted = disjoint ? order : nil
    }

    /// The position of the first image loaded at `address`.
    func position(loadedAt address: UInt64) -> Int? {
        byLoadAddress[address]
    }

    /// The position of the first image named `name`.
    func position(named name: String) -> Int? {
        byName.position(of: name)
    }

    /// The position of the first image whose range holds `address`.
    func position(containing address: UInt64) -> Int? {
        guard let sorted else { return images.firstIndex { $0.contains(address) } }
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if images[sorted[middle]].loadAddress <= address { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let position = sorted[low - 1]
        return images[position].contains(address) ? position : nil
    }

    /// Image names to the first position holding each, made when first asked.
    private final class NameIndex {
        private let images: [BinaryImage]
        private lazy var positions: [String: Int] = {
            var positions: [String: Int] = [:]
            positions.reserveCapacity(images.count)
            for position in images.indices where positions[images[position].name] == nil {
                positions[images[position].name] = position
            }
            return positions
        }()

        init(_ images: [BinaryImage]) {
            self.images = images
        }

        func position(of name: String) -> Int? {
            positions[name]
        }
    }
}
