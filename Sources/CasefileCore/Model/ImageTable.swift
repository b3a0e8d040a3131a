/// A crash's binary images, indexed for the per-frame questions: which image loads at this address, which one
/// contains it, which one has this name. Built once per crash; a crash asks it for each of its thousand-odd frames
/// against 300-odd images. Each answer is the one a search of the list in order would give: the first match.
///
/// Answers are positions in ``images``, so a frame reads the one field it needs instead of copying the whole image
/// (four strings) per frame.
struct ImageTable {
    /// The images, in the crash's order.
    let images: [BinaryImage]
    /// Load addresses to positions, made only for a list whose ranges overlap: otherwise ``sorted`` answers.
    private let byLoadAddress: [UInt64: Int]
    /// Searched, then indexed after ``searchedNameQuestions`` questions: names are asked only for frames without an
    /// address inside an image, and hashing 300-odd names per crash for nothing cost more than the questions it
    /// answered.
    private let byName: NameIndex
    /// Positions in `images`, sorted by load address; `nil` when ranges overlap (a malformed list), and
    /// containment falls back to the search in list order.
    private let sorted: [Int]?
    /// The load addresses in ``sorted``'s order, searched apart from the images.
    private let sortedLoads: [UInt64]

    init(_ images: [BinaryImage]) {
        self.images = images
        // The addresses apart from the images: sorting by `images[i].loadAddress` copied an image (and retained its
        // four strings) for each comparison.
        let loads = images.map(\.loadAddress)
        let order = loads.indices.sorted { loads[$0] < loads[$1] }
        // With no overlap, at most one image contains an address: the nearest load address at or below it.
        let disjoint = zip(order, order.dropFirst()).allSatisfy { earlier, later in
            loads[later] > loads[earlier] && (images[earlier].endAddress.map { $0 < loads[later] } ?? true)
        }
        sorted = disjoint ? order : nil
        sortedLoads = disjoint ? order.map { loads[$0] } : []
        var byLoadAddress: [UInt64: Int] = [:]
        if !disjoint {
            byLoadAddress.reserveCapacity(images.count)
            for position in loads.indices where byLoadAddress[loads[position]] == nil {
                byLoadAddress[loads[position]] = position
            }
        }
        self.byLoadAddress = byLoadAddress
        byName = NameIndex(images)
    }

    /// The position of the first image loaded at `address`.
    func position(loadedAt address: UInt64) -> Int? {
        // Disjoint ranges load at distinct addresses: the nearest at or below is the only candidate.
        guard let sorted else { return byLoadAddress[address] }
        guard let found = nearest(atOrBelow: address), sortedLoads[found] == address else { return nil }
        return sorted[found]
    }

    /// The position of the first image named `name`.
    func position(named name: String) -> Int? {
        byName.position(of: name)
    }

    /// The position of the first image whose range holds `address`.
    func position(containing address: UInt64) -> Int? {
        guard let sorted else { return images.firstIndex { $0.contains(address) } }
        guard let found = nearest(atOrBelow: address) else { return nil }
        return images[sorted[found]].contains(address) ? sorted[found] : nil
    }

    /// The index in ``sortedLoads`` of the greatest load address at or below `address`.
    private func nearest(atOrBelow address: UInt64) -> Int? {
        var low = 0
        var high = sortedLoads.count
        while low < high {
            let middle = (low + high) / 2
            if sortedLoads[middle] <= address { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? low - 1 : nil
    }

    /// Questions by name answered by searching the list before a table of names is made.
    static let searchedNameQuestions = 16

    /// Image names to the first position holding each. The first few questions search the list; the table is made
    /// only for a crash that asks more. A report whose frames all lie inside images asks none, and one odd frame
    /// outside them made the table of 300-odd names for one question: a tenth of parsing a `.crash` report.
    private final class NameIndex {
        private let images: [BinaryImage]
        private var questions = 0
        private var positions: [String: Int]?

        init(_ images: [BinaryImage]) {
            self.images = images
        }

        func position(of name: String) -> Int? {
            if let positions { return positions[name] }
            questions += 1
            if questions <= ImageTable.searchedNameQuestions {
                for position in images.indices where images[position].name == name { return position }
                return nil
            }
            var made: [String: Int] = [:]
            made.reserveCapacity(images.count)
            for position in images.indices where made[images[position].name] == nil {
                made[images[position].name] = position
            }
            positions = made
            return made[name]
        }
    }
}
