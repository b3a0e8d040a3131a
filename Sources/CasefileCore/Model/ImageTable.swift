/// A crash's binary images, indexed for the per-frame questions: which image loads at this address, which one
/// contains it, which one has this name. Built once per crash; a crash asks it for each of its thousand-odd frames
/// against 300-odd images. Each answer is the one a search of the list in order would give: the first match.
struct ImageTable {
    private let images: [BinaryImage]
    private let byLoadAddress: [UInt64: Int]
    private let byName: [String: Int]
    /// Positions in `images`, sorted by load address; `nil` when ranges overlap (a malformed list), and
    /// containment falls back to the search in list order.
    private let sorted: [Int]?

    init(_ images: [BinaryImage]) {
        self.images = images
        var byLoadAddress: [UInt64: Int] = [:]
        var byName: [String: Int] = [:]
        byLoadAddress.reserveCapacity(images.count)
        byName.reserveCapacity(images.count)
        for (position, image) in images.enumerated() {
            if byLoadAddress[image.loadAddress] == nil { byLoadAddress[image.loadAddress] = position }
            if byName[image.name] == nil { byName[image.name] = position }
        }
        self.byLoadAddress = byLoadAddress
        self.byName = byName
        let order = images.indices.sorted { images[$0].loadAddress < images[$1].loadAddress }
        // With no overlap, at most one image contains an address: the nearest load address at or below it.
        let disjoint = zip(order, order.dropFirst()).allSatisfy { earlier, later in
            images[later].loadAddress > images[earlier].loadAddress
                && (images[earlier].endAddress.map { $0 < images[later].loadAddress } ?? true)
        }
        sorted = disjoint ? order : nil
    }

    /// The first image loaded at `address`.
    func image(loadedAt address: UInt64) -> BinaryImage? {
        byLoadAddress[address].map { images[$0] }
    }

    /// The first image named `name`.
    func image(named name: String) -> BinaryImage? {
        byName[name].map { images[$0] }
    }

    /// The first image whose range holds `address`.
    func image(containing address: UInt64) -> BinaryImage? {
        guard let sorted else { return images.first { $0.contains(address) } }
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if images[sorted[middle]].loadAddress <= address { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let image = images[sorted[low - 1]]
        return image.contains(address) ? image : nil
    }
}
