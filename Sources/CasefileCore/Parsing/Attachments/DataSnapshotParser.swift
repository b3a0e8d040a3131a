import CasefileArchive
import Foundation

/// Reads a data-snapshot folder: recorded payloads named `<Operation>-<identifier>` beside a module registry
/// (`registry.json` or `modules.json`: module name → the operations it expects), and says which registered
/// operations were recorded and which are missing (see SampleReports/README.md).
enum DataSnapshotParser {
    /// The snapshot folder and its payloads, with each payload's time (the file's modification date) when known.
    struct Folder {
        var snapshots: DataSnapshots
        var times: [String: AttachmentTime]
        var warnings: [Diagnostic]
    }

    /// Whether `path` names a module registry.
    static func isRegistry(_ path: String) -> Bool {
        let name = (path.split(separator: "/").last ?? "").lowercased()
        return name.hasSuffix(".json") && (name.contains("registry") || name == "modules.json")
    }

    /// The folder a registry file sits in (`""` at the input's root).
    static func folder(of registry: String) -> String {
        registry.split(separator: "/").dropLast().joined(separator: "/")
    }

    /// The folder of the registry at `registry`, with the payloads among `entries` that sit in it or below it.
    static func read(registry: ArchiveEntry, entries: [ArchiveEntry]) -> Folder {
        let folder = Self.folder(of: registry.path)
        var warnings: [Diagnostic] = []
        var registered: [(module: String, operations: [String])] = []
        if let bytes = registry.bytes, let value = try? JSONParser.parse(bytes, mode: .tolerant) {
            registered = modules(value)
        }
        if registered.isEmpty {
            warnings.append(
                Diagnostic(
                    file: registry.path,
                    message:
                        "module registry not read: expected {\"Module\": [\"Operation\", …]}; payloads listed without it"
                ))
        }
        var payloads: [SnapshotPayload] = []
        var times: [String: AttachmentTime] = [:]
        for entry in entries
        where entry.path != registry.path && entry.path.hasPrefix(folder.isEmpty ? "" : folder + "/") {
            guard let bytes = entry.bytes else { continue }
            let name = String(entry.path.split(separator: "/").last ?? "")
            let stem = name.lastIndex(of: ".").map { String(name[..<$0]) } ?? name
            let dash = stem.firstIndex(of: "-")
            let shape = (try? JSONParser.parse(bytes, mode: .tolerant)).map { JSONShape.describe($0) } ?? "not JSON"
            payloads.append(
                SnapshotPayload(
                    operation: dash.map { String(stem[..<$0]) } ?? stem,
                    identifier: dash.map { String(stem[stem.index(after: $0)...]) } ?? "", file: entry.path,
                    size: bytes.count, shape: shape))
            if let modified = entry.modified {
                times[entry.path] = .absolute(modified.timeIntervalSince1970)
            }
        }
        payloads.sort { $0.file < $1.file }
        let recorded = Set(payloads.map(\.operation))
        let known = Set(registered.flatMap(\.operations))
        var unregistered: [String] = []
        for payload in payloads where !known.contains(payload.operation) && !unregistered.contains(payload.operation) {
            unregistered.append(payload.operation)
        }
        return Folder(
            snapshots: DataSnapshots(
                folder: folder, payloads: payloads,
                modules: registered.map { module in
                    DataSnapshots.Module(
                        name: module.module, recorded: module.operations.filter(recorded.contains),
                        missing: module.operations.filter { !recorded.contains($0) })
                },
                unregistered: registered.isEmpty ? [] : unregistered),
            times: times, warnings: warnings)
    }

    /// `{"Checkout": ["CreateOrder", "PayOrder"]}`, the same under `"modules"`, or
    /// `[{"name": "Checkout", "operations": [...]}]`.
    private static func modules(_ value: JSONValue) -> [(module: String, operations: [String])] {
        if let nested = value["modules"] { return modules(nested) }
        if let items = value.array {
            return items.compactMap { item in
                guard let name = (item["name"] ?? item["module"])?.string,
                    let operations = (item["operations"] ?? item["identifiers"])?.array
                else { return nil }
                return (name, operations.compactMap(\.string))
            }
        }
        return value.object?.members.compactMap { member in
            member.value.array.map { (member.key, $0.compactMap(\.string)) }
        } ?? []
    }
}
