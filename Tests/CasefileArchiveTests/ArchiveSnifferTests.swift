import Testing

@testable import CasefileArchive

/// The first bytes of each format, as its specification writes them (zip: APPNOTE 4.3.7 and 4.3.16; gzip: RFC 1952;
/// xz: the .xz file format 2.1.1.1; zstd: RFC 8878 3.1.1; 7z: 7zFormat.txt; rar 4: "Rar!" 1A 07; lzma-alone: the
/// properties byte 0x5D then a dictionary size; cpio: cpio(5); tar: "ustar" at offset 257 of the first header).
@Suite struct ArchiveSnifferTests {
    @Test(
        arguments: [
            ("zip", [0x50, 0x4B, 0x03, 0x04, 0x14, 0x00], 4),
            ("empty zip", [0x50, 0x4B, 0x05, 0x06, 0x00], 4),
            ("spanned zip", [0x50, 0x4B, 0x07, 0x08, 0x50, 0x4B], 4),
            ("gzip", [0x1F, 0x8B, 0x08, 0x00], 2),
            ("bzip2", Array("BZh9".utf8), 3),
            ("xz", [0xFD] + Array("7zXZ".utf8) + [0x00, 0x00, 0x04], 6),
            ("zstd", [0x28, 0xB5, 0x2F, 0xFD, 0x24], 4),
            ("7z", Array("7z".utf8) + [0xBC, 0xAF, 0x27, 0x1C, 0x00], 6),
            ("rar", Array("Rar!".utf8) + [0x1A, 0x07, 0x00], 6),
            ("lzma", [0x5D, 0x00, 0x00, 0x80, 0x00], 3),
            ("cpio newc", Array("070701000000".utf8), 6),
            ("cpio crc", Array("070702000000".utf8), 6),
            ("cpio odc", Array("070707000000".utf8), 6),
            ("binary cpio, little-endian", [0xC7, 0x71, 0x00], 2),
            ("binary cpio, big-endian", [0x71, 0xC7, 0x00], 2),
        ] as [(String, [UInt8], Int)])
    func recognizesEachFormatByItsFirstBytes(_ format: String, _ bytes: [UInt8], _ magic: Int) {
        #expect(ArchiveSniffer.isArchive(bytes), "\(format)")
        // The same bytes handed over piece by piece (no contiguous storage), as a caller's lazy view would.
        #expect(ArchiveSniffer.isArchive(bytes.lazy.map { $0 }), "\(format), not contiguous")
        // The magic (its length in the specification) one byte short is not the format.
        #expect(!ArchiveSniffer.isArchive(bytes.prefix(magic - 1)), "\(format), cut short")
    }

    @Test func recognizesTarByTheMagicAtOffset257() {
        // A tar header: the name field first, the magic at 257; the first bytes are a file name, not a signature.
        var header = [UInt8](repeating: 0, count: 512)
        header.replaceSubrange(0..<9, with: Array("crash.ips".utf8))
        header.replaceSubrange(257..<263, with: Array("ustar\0".utf8))
        #expect(ArchiveSniffer.isArchive(header))
        #expect(ArchiveSniffer.isArchive(header.lazy.map { $0 }))
        // The magic cut off by the end of the bytes, or one byte early: not tar.
        #expect(!ArchiveSniffer.isArchive(header.prefix(261)))
        var early = [UInt8](repeating: 0, count: 512)
        early.replaceSubrange(256..<261, with: Array("ustar".utf8))
        #expect(!ArchiveSniffer.isArchive(early))
    }

    @Test func leavesTextAndReportsAlone() {
        for text in [#"{"timestamp":0}"#, "Incident Identifier: 6D6A", "PK but text", "70701 is not cpio", ""] {
            #expect(!ArchiveSniffer.isArchive(Array(text.utf8)), "\(text)")
        }
        // A slice in the middle of a buffer is read from its own start.
        let buffer = Array("text first ".utf8) + [0x1F, 0x8B, 0x08]
        #expect(ArchiveSniffer.isArchive(buffer[11...]))
        #expect(!ArchiveSniffer.isArchive(buffer[..<11]))
    }
}
