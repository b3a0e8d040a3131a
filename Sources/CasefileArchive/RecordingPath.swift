/// Where a Clue recording's files sit (clue-format.md §2.4): in a folder's `Info/` (named `info_*` or `module_*`) or
/// `Modules/`, the folder being at the input's root, under one folder, or nested.
package enum RecordingPath {
    /// Whether the path `components` (split at `/`) name a file of a recording.
    package static func isRecordingFile(_ components: [String]) -> Bool {
        let count = components.count
        guard count >= 2, let name = components.last else { return false }
        let folder = components[count - 2]
        return folder == "Modules" || folder == "Info" && (name.hasPrefix("info_") || name.hasPrefix("module_"))
    }
}
