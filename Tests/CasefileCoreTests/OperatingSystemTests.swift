import CasefileCore
import Testing

/// The `OS Version:` line of Apple's text reports and the `OS:` field of in-app reports, as real reports spell them.
@Suite struct OperatingSystemTests {
    @Test(
        arguments: [
            ("iPhone OS 15.5 (19F77)", "iPhone OS", "15.5", "19F77"),
            ("iOS 8.0.2 (12A405)", "iOS", "8.0.2", "12A405"),
            // iOS 11's reports write the word `Build`.
            ("iPhone OS 11.4.1 (Build 15G77)", "iPhone OS", "11.4.1", "15G77"),
            // Two spaces inside the name, and spaces around the line: the name's words are kept, one space apart.
            ("  Mac OS X  10.15.7 (19H2) ", "Mac OS X", "10.15.7", "19H2"),
            // No build.
            ("iOS 17.1", "iOS", "17.1", nil),
        ] as [(String, String, String, String?)])
    func readsNameVersionAndBuild(_ text: String, _ name: String, _ version: String, _ build: String?) {
        #expect(OperatingSystem(appleText: text) == OperatingSystem(name: name, version: version, build: build))
    }

    @Test func readsANameWithoutAVersionOrAVersionWithoutAName() {
        // The last word names no version when it does not start with a digit.
        #expect(OperatingSystem(appleText: "visionOS beta") == OperatingSystem(name: "visionOS beta"))
        #expect(OperatingSystem(appleText: "16.4 (20E247)") == OperatingSystem(version: "16.4", build: "20E247"))
        #expect(OperatingSystem(appleText: "") == OperatingSystem())
    }
}
