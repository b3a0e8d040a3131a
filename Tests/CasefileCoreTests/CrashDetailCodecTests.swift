import CasefileCore
import Testing

@Suite struct CrashDetailCodecTests {
    /// Fields holding the codec's separators and escapes — tab, newline, carriage return, backslash — an empty string,
    /// non-ASCII text and nil come back exactly as they went in.
    @Test func keepsEveryFieldThroughTheBlob() throws {
        var crash = Crash(format: .appleText)
        crash.images = [
            BinaryImage(
                name: "My\tApp", path: "/var/Ünïcode/My\tApp.app/My\tApp", arch: "arm64",
                uuid: "8f3c2a1b-4d5e-4f60-9a7b-1c2d3e4f5a6b", loadAddress: 0x1_0000_0000, endAddress: 0x1_0000_ffff,
                isApp: true),
            BinaryImage(name: "libsystem_kernel.dylib", loadAddress: 0x1_8000_0000),
        ]
        crash.threads = [
            CrashThread(
                index: 0, name: "", queue: "com.apple.main-thread\\queue", crashed: true,
                frames: [
                    Frame(
                        image: "My\tApp", address: 0x1_0000_1234, imageLoadAddress: 0x1_0000_0000,
                        imageOffset: 0x1234, symbol: "closure #1 in\nView.body\r.getter \\ é", symbolOffset: 12,
                        file: "View.swift", line: 41, inlined: true),
                    Frame(image: "libsystem_kernel.dylib", address: 0x1_8000_0010),
                    Frame(address: 0x42),
                ]),
            CrashThread(index: 1),
        ]
        let decoded = try CrashDetailCodec.decode(try CrashDetailCodec.encode(crash))
        #expect(decoded.images == crash.images)
        #expect(decoded.threads == crash.threads)
    }
}
