import CasefileCore
import Testing

/// The four spellings of a UUID that reports and debug files use, each written out by hand for the same UUID.
@Suite struct UUIDTextTests {
    private static let normal = "0123abcd-4567-89ef-0a1b-2c3d4e5f6a7b"

    @Test(arguments: [
        "0123abcd-4567-89ef-0a1b-2c3d4e5f6a7b",  // dashed lowercase, as .ips writes it
        "0123ABCD-4567-89EF-0A1B-2C3D4E5F6A7B",  // dashed uppercase, as .crash headers write it
        "0123abcd456789ef0a1b2c3d4e5f6a7b",  // 32 hex digits, as binary image lines write it
        "<0123abcd456789ef0a1b2c3d4e5f6a7b>",  // in angle brackets, as binary image lines write it
        "0123abcd4-567-89ef-0a1b-2c3d4e5f6a7b",  // 36 characters, a dash out of place
    ])
    func spellingsNormalizeToDashedLowercase(_ text: String) {
        #expect(UUIDText.normalize(text) == Self.normal)
        #expect(Array(text.utf8).withUnsafeBufferPointer { UUIDText.normalize(utf8: $0) } == Self.normal)
    }

    @Test(arguments: [
        "",
        "0123abcd-4567-89ef-0a1b-2c3d4e5f6a7",  // 31 digits
        "0123abcd-4567-89ef-0a1b-2c3d4e5f6a7b0",  // 33 digits (Breakpad's age is not a digit of the UUID)
        "0123abcd-4567-89ef-0a1b-2c3d4e5f6a7g",  // 36 characters, one not hex
        "0123abcd-4567-89ef-0a1b-2c3d4e5f6a7\u{00E9}",  // 36 characters, one not ASCII
    ])
    func refusesWhatIsNotThirtyTwoHexDigits(_ text: String) {
        #expect(UUIDText.normalize(text) == nil)
        #expect(Array(text.utf8).withUnsafeBufferPointer { UUIDText.normalize(utf8: $0) } == nil)
    }
}
