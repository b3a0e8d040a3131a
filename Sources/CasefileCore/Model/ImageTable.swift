/// A crash's binary images, indexed for the per-frame questions: which image loads at this address, which one
/// contains it. Built once per crash; a crash asks it for each of its thousand-odd frames against 300-odd images.
struct ImageTable {
    private let byLoadAddress: [UInt64: Int]
    /// Positions in `images`, sorted by load address.
    private let sorted: [Int]
    private let images: [BinaryImage]

    init(_ images: [BinaryImage]) {
        self.images = images
        var byLoadAddress: [UInt64: Int] = [:]
        byLoadAddress.reserveCapacity(images.count)
        for (position, image) in images.enumerated() where byLoadAddress[image.loadAddress] == nil {
            byLoadAddress[image.loadAddress] = position
        }
        self.byLoadAddress = byLoadAddress
        sorted = images.indices.sorted { images[$0].loadAddress < images[$1].loadAddress }
    }

    /// The first image loaded at `address`.
    func image(loadedAt address: UInt64) -> BinaryImage? {
        byLoadAddress[address].map { images[$0] }
    }

    /// The image whose range holds `address`: the one with the highest load address at or below it, when its
    /// range reaches that far (images do not overlap).
    func image(containing address: UInt64) -> BinaryImage? {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if images[sorted[middle]].loadAddress <= address { low = middle + 1 } else { high = middle }
        }
        // Several images may share a load address (a malformed list): check each at or below, nearest first.
        var position = low - 1
        while position >= 0 {
            let image = images[sorted[position]]
            if image.contains(address) { return image }
            if position > 0, images[sorted[position - 1]].loadAddress != image.loadAddress { break }
            position -= 1
        }
        return nil
    }
}
