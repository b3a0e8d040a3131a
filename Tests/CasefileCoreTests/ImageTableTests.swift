import Testing

@testable import CasefileCore

/// Every answer of the image table is the one a search of the list in order gives: the first image that matches.
@Suite struct ImageTableTests {
    /// Images of a few hundred bytes each, from `(load, size)` pairs, named by position; `nil` size: no end known.
    private static func images(_ ranges: [(UInt64, UInt64?)]) -> [BinaryImage] {
        ranges.enumerated().map { position, range in
            BinaryImage(
                name: "image\(position % 3)", loadAddress: range.0, endAddress: range.1.map { range.0 + $0 - 1 })
        }
    }

    private static let lists: [[BinaryImage]] = [
        // Disjoint, out of order, one without an end.
        images([(0x3000, 0x100), (0x1000, 0x100), (0x2000, nil), (0x5000, 0x800)]),
        // Two images at one load address: the first listed is the answer.
        images([(0x1000, 0x100), (0x2000, 0x100), (0x1000, 0x200)]),
        // Overlapping ranges.
        images([(0x1000, 0x1000), (0x1800, 0x100), (0x4000, 0x10)]),
        // Adjacent: one ends the byte before the next loads.
        images([(0x2000, 0x1000), (0x1000, 0x1000)]),
        [],
    ]

    /// Addresses on and around every edge of every image of every list.
    private static let addresses: [UInt64] = {
        var addresses: Set<UInt64> = [0, 1, UInt64.max]
        for list in lists {
            for image in list {
                for edge in [image.loadAddress, image.endAddress ?? image.loadAddress] {
                    addresses.formUnion([edge &- 1, edge, edge &+ 1])
                }
            }
        }
        return addresses.sorted()
    }()

    @Test(arguments: lists.indices)
    func answersAsTheSearchInListOrder(list: Int) {
        let images = Self.lists[list]
        let table = ImageTable(images)
        for address in Self.addresses {
            #expect(
                table.position(loadedAt: address) == images.firstIndex { $0.loadAddress == address },
                "loaded at \(address), list \(list)")
            #expect(
                table.position(containing: address) == images.firstIndex { $0.contains(address) },
                "containing \(address), list \(list)")
        }
        // Enough questions for the table to answer some after the search of the list answered the first ones.
        let names = ["image0", "image1", "image2", "other"]
        for question in 0..<(ImageTable.searchedNameQuestions + 2 * names.count) {
            let name = names[question % names.count]
            #expect(
                table.position(named: name) == images.firstIndex { $0.name == name },
                "named \(name), question \(question), list \(list)")
        }
    }
}
