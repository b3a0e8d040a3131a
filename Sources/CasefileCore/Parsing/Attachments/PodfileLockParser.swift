/// Reads the libraries a CocoaPods `Podfile.lock` lists: the top-level entries of its `PODS:` section,
/// `  - Alamofire (5.8.1)` or `  - Firebase/Analytics (10.18.0):`, quoted or not (the dependencies indented under an entry are
/// requirements, not installed versions, and are skipped).
enum PodfileLockParser {
    /// The installed pods, in file order.
    static func libraries(_ text: String) -> [ReportAttachments.Library] {
        var libraries: [ReportAttachments.Library] = []
        var inPods = false
        for line in text.lineSlices(omittingEmpty: true) {
            if !line.hasPrefix(" ") {
                inPods = line == "PODS:"
                continue
            }
            guard inPods, line.hasPrefix("  - ") else { continue }
            let entry = line.dropFirst(4).filter { $0 != "\"" }
            guard let open = entry.lastIndex(of: "("), let close = entry.lastIndex(of: ")"), open < close else {
                continue
            }
            let name = entry[..<open].trimmingCharacters(in: " ")
            let version = entry[entry.index(after: open)..<close]
            guard !name.isEmpty, !version.hasPrefix("="), !version.hasPrefix("~") else { continue }
            libraries.append(ReportAttachments.Library(name: String(name), version: String(version)))
        }
        return libraries
    }
}

extension StringProtocol {
    /// Without leading and trailing `character`s.
    fileprivate func trimmingCharacters(in character: Character) -> String {
        String(drop { $0 == character }.reversed().drop { $0 == character }.reversed())
    }
}
