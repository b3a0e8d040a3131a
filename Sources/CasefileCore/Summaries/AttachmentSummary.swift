/// The Markdown of what files attached beside a report add: the app's version from a debug menu, the features its
/// requests named, feature toggles, libraries, and which registered data snapshots were recorded or are missing.
enum AttachmentSummary {
    /// The section's lines; none when nothing was attached.
    static func render(_ attachments: ReportAttachments) -> [String] {
        guard !attachments.isEmpty else { return [] }
        var lines = ["Read from " + attachments.files.map(Markdown.code).joined(separator: ", ") + "."]
        var facts: [String] = []
        if attachments.appVersion != nil || attachments.appBuild != nil {
            let version = [attachments.appVersion, attachments.appBuild.map { "(\($0))" }].compactMap { $0 }
            facts.append("- App version: " + Markdown.text(version.joined(separator: " ")))
        }
        if !attachments.featureNames.isEmpty {
            facts.append(
                "- Features named by requests (`X-FEATURE-NAME`): "
                    + attachments.featureNames.map(Markdown.code).joined(separator: ", "))
        }
        if !attachments.toggles.isEmpty {
            facts.append(
                "- Feature toggles: "
                    + attachments.toggles.map { "\(Markdown.code($0.name)) = \(Markdown.code($0.value.compactText))" }
                    .joined(separator: ", "))
        }
        for store in [ReportAttachments.StoredValue.Store.keychain, .userDefaults] {
            let values = attachments.storedValues.filter { $0.store == store }
            guard !values.isEmpty else { continue }
            facts.append(
                "- \(store == .keychain ? "Keychain" : "UserDefaults"): "
                    + values.map {
                        "\(Markdown.code($0.key)) = \(Markdown.code($0.value.string ?? $0.value.compactText))"
                    }
                    .joined(separator: ", "))
        }
        if !attachments.libraries.isEmpty {
            facts.append(
                "- Libraries (`Podfile.lock`): "
                    + attachments.libraries.map { Markdown.text("\($0.name) \($0.version)") }.joined(separator: ", "))
        }
        if !facts.isEmpty { lines += [""] + facts }
        if let snapshots = attachments.snapshots {
            lines += [""] + self.snapshots(snapshots)
        }
        return lines
    }

    /// The registry check as a table, then the payloads no module registers.
    private static func snapshots(_ snapshots: DataSnapshots) -> [String] {
        var lines = [
            "Data snapshots in \(Markdown.code(snapshots.folder.isEmpty ? "/" : snapshots.folder)): "
                + "\(snapshots.payloads.count) payload\(snapshots.payloads.count == 1 ? "" : "s")."
        ]
        if !snapshots.modules.isEmpty {
            lines += ["", "| Module | Operation | Recorded |", "|---|---|---|"]
            for module in snapshots.modules {
                for operation in module.recorded + module.missing {
                    let payloads = snapshots.payloads.filter { $0.operation == operation }
                    let recorded =
                        payloads.isEmpty
                        ? "**missing**"
                        : payloads.map {
                            "\(Markdown.code($0.identifier)) \(Markdown.bytes($0.size)) "
                                + Markdown.code(Markdown.truncate($0.shape, 80))
                        }.joined(separator: "; ")
                    lines.append(
                        "| \(Markdown.cell(module.name)) | \(Markdown.code(operation)) | \(Markdown.cell(recorded)) |")
                }
            }
        }
        if !snapshots.unregistered.isEmpty {
            lines += [
                "",
                "Recorded but registered by no module: "
                    + snapshots.unregistered.map(Markdown.code).joined(separator: ", "),
            ]
        }
        return lines
    }
}
