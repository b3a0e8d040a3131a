import Testing

@testable import CasefileCore

/// The fields of a blob's line: numbers in lowercase hexadecimal without a prefix, as many digits as the value needs.
@Suite struct BlobLineWriterTests {
    @Test(arguments: [
        (0 as UInt64, "0"),
        (0x7, "7"),
        (0xf, "f"),
        (0x10, "10"),
        (0xab, "ab"),
        (0x100, "100"),
        (0x1fffff, "1fffff"),
        (0x1_80a0_0030, "180a00030"),
        (0x1_0000_0000, "100000000"),
        (0x8000_0000_0000_0000, "8000000000000000"),
        (UInt64.max, "ffffffffffffffff"),
    ])
    func hexField(value: UInt64, digits: String) {
        var writer = BlobLineWriter(capacity: 0)
        writer.begin("X")
        writer.hex(value)
        writer.hex(nil)
        writer.end()
        #expect(String(decoding: writer.text, as: UTF8.self) == "X\t\(digits)\t\n")
    }

    /// Every byte's two digits, as the hex fields of the values 0x100 to 0x1ff give them after their leading `1`.
    @Test func everyByteHasItsTwoDigits() {
        var writer = BlobLineWriter(capacity: 0)
        for byte in 0..<256 { writer.hex(UInt64(0x100 + byte)) }
        let fields = String(decoding: writer.text, as: UTF8.self).split(separator: "\t")
        let hex = Array("0123456789abcdef")
        #expect(fields.count == 256)
        for (byte, field) in fields.enumerated() {
            #expect(field == "1" + String(hex[byte / 16]) + String(hex[byte % 16]))
        }
    }
}
