import Testing

@testable import CasefileArchive

@Suite struct EntryPathTests {
    @Test(arguments: [
        ("Info/info_device.json", "Info/info_device.json"),
        ("./Modules//module_view.json", "Modules/module_view.json"),
        ("A.clue\\Info\\info_device.json", "A.clue/Info/info_device.json"),
        // Already normal, kept as it is: dots inside names are not `.` or `..` components.
        (".hidden/..b/c..", ".hidden/..b/c.."),
        ("Crash Reports/ShopApp 2024-01-02.ips", "Crash Reports/ShopApp 2024-01-02.ips"),
        ("", ""),
        // Each way of being not quite normal.
        ("a/", "a"),
        ("a//b", "a/b"),
        ("a/./b", "a/b"),
        ("./a", "a"),
        ("a/.", "a"),
        // A colon not after a drive letter is part of the name.
        ("ab:c/d", "ab:c/d"),
    ])
    func normalizesHarmlessPaths(_ raw: String, _ expected: String) {
        #expect(EntryPath.normalize(raw) == expected)
    }

    @Test(arguments: [
        "../evil", "Info/../../evil", "/etc/passwd", "C:\\Windows\\evil", "..\\evil", "a/..", "c:/evil", "é:evil",
    ])
    func refusesPathsThatEscape(_ raw: String) {
        #expect(EntryPath.normalize(raw) == nil)
    }

    @Test func recognizesArchivesByContentNotName() {
        #expect(ArchiveSniffer.isArchive([0x50, 0x4B, 0x03, 0x04, 0x14]))
        #expect(ArchiveSniffer.isArchive([0x1F, 0x8B, 0x08]))
        #expect(!ArchiveSniffer.isArchive(Array(#"{"timestamp":0}"#.utf8)))
        #expect(!ArchiveSniffer.isArchive([]))
    }

    @Test func readsTheDurationWhateverTheChunking() {
        // ftyp, then moov with an mvhd (version 0): time scale 600, duration 9,000 → 15 s.
        var movie: [UInt8] = [0, 0, 0, 16] + Array("ftypisom".utf8) + [0, 0, 2, 0]
        let mvhd: [UInt8] = [0, 0, 0, 0] + [0, 0, 0, 0] + [0, 0, 0, 0] + [0, 0, 2, 0x58] + [0, 0, 0x23, 0x28]
        movie += [0, 0, 0, UInt8(8 + 8 + mvhd.count)] + Array("moov".utf8)
        movie += [0, 0, 0, UInt8(8 + mvhd.count)] + Array("mvhd".utf8) + mvhd
        for chunkSize in [1, 3, 7, movie.count] {
            var probe = QuickTimeProbe()
            var index = 0
            while index < movie.count {
                let end = min(index + chunkSize, movie.count)
                Array(movie[index..<end]).withUnsafeBytes { probe.feed($0) }
                index = end
            }
            #expect(probe.duration == 15)
            #expect(probe.brand == "isom")
        }
    }
}
