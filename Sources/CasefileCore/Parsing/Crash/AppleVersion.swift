/// The `Version:` field of Apple's text format, whose order flipped between iOS 14 and iOS 15 (§2.2).
public enum AppleVersion {
    /// The marketing version and build of `2.3.1 (412)` or `412 (2.3.1)`: a dotted part is the marketing version.
    public static func split(_ text: String) -> (short: String?, build: String?) {
        AppleTextCrashParser.splitVersion(text, osVersion: nil, appleOrder: false)
    }
}
