/// Reads `Modules/module_view.json` as a stream of snapshots, keeping only the current one: it turns root class
/// changes into ``ScreenChange``s, visible differences into ``ViewUpdate``s, and hit-tests touches on the way.
enum ClueViewReader {
    struct Output {
        var events: [TimelineEvent] = []
        var snapshotCount = 0
        var lastTimestamp: Double?
    }

    /// Reads the snapshots; fills in `touches[i].event.target` from the latest snapshot at or before each touch.
    static func read(
        _ bytes: [UInt8], file: String, touches: inout [ClueInteractionReader.Record], warnings: inout [Diagnostic]
    ) -> Output {
        var output = Output()
        var current: ViewNode?
        let order = touches.indices.sorted { touches[$0].timestamp < touches[$1].timestamp }
        var next = 0
        func resolveTouches(before limit: Double?, on snapshot: ViewNode?) {
            while next < order.count, limit.map({ touches[order[next]].timestamp < $0 }) ?? true {
                if let snapshot, let point = touches[order[next]].event.touches.first,
                    let path = snapshot.hitTest(x: point.x, y: point.y), let target = path.last
                {
                    // The root view's "text" would only be the first label on screen: name it by class alone.
                    let label = path.count > 1 ? target.displayText : nil
                    touches[order[next]].event.target = TouchTarget(
                        className: target.className, label: label, path: path.map(\.className))
                }
                next += 1
            }
        }
        warnings += JSONLines(file: file, bytes: bytes).scan { record in
            guard let timestamp = record.value["timestamp"]?.double else {
                warnings.append(
                    Diagnostic(file: file, line: record.line, message: "no numeric \"timestamp\"; snapshot skipped"))
                return
            }
            guard let view = record.value["view"], let root = ViewNode(view) else {
                warnings.append(
                    Diagnostic(file: file, line: record.line, message: "no \"view\" with a \"class\"; snapshot skipped")
                )
                return
            }
            resolveTouches(before: timestamp, on: current)
            output.snapshotCount += 1
            output.lastTimestamp = timestamp
            if let kind = change(from: current, to: root) {
                output.events.append(TimelineEvent(timestamp: timestamp, file: file, line: record.line, kind: kind))
            }
            current = root
        }
        resolveTouches(before: nil, on: current)
        return output
    }

    /// What a user would notice between two snapshots, or `nil` when nothing visible changed.
    static func change(from old: ViewNode?, to new: ViewNode) -> TimelineEvent.Kind? {
        guard let old, old.className == new.className else {
            let texts = new.visibleTexts(limit: 4)
            return .screen(ScreenChange(fromClass: old?.className, toClass: new.className, texts: texts))
        }
        let before = flatten(old)
        let after = flatten(new)
        var changes: [String] = []
        if before.map(\.path) == after.map(\.path) {
            // A view shown or hidden takes its subviews with it: name only the outermost one.
            var toggled: Set<String> = []
            for (was, now) in zip(before, after) {
                if was.text != now.text {
                    changes.append("\(now.className) \(quoted(was.text)) → \(quoted(now.text))")
                }
                if was.visible != now.visible {
                    toggled.insert(now.path)
                    if !toggled.contains(now.parent) {
                        changes.append("\(now.name) \(now.visible ? "shown" : "hidden")")
                    }
                }
                if was.interactive != now.interactive, now.visible, now.text == nil {
                    changes.append("\(now.name) \(now.interactive ? "enabled" : "disabled")")
                }
            }
        } else {
            let oldTexts = Set(before.filter(\.visible).compactMap(\.text))
            let newTexts = Set(after.filter(\.visible).compactMap(\.text))
            for text in after.filter(\.visible).compactMap(\.text) where !oldTexts.contains(text) {
                changes.append("\"\(text)\" appeared")
            }
            for text in before.filter(\.visible).compactMap(\.text) where !newTexts.contains(text) {
                changes.append("\"\(text)\" disappeared")
            }
        }
        return changes.isEmpty ? nil : .viewUpdate(ViewUpdate(changes: changes))
    }

    private struct Flat {
        var path: String
        var parent: String
        var className: String
        var text: String?
        var label: String?
        var visible: Bool
        var interactive: Bool

        /// The class, with the text a user reads on the view when it has no text of its own.
        var name: String {
            guard text == nil, let label else { return className }
            return "\(className) \"\(label)\""
        }
    }

    private static func flatten(_ root: ViewNode) -> [Flat] {
        var result: [Flat] = []
        func walk(_ node: ViewNode, parent: String, index: Int, visible: Bool) {
            guard node.className != ViewNode.recordingIndicator else { return }
            let isVisible = visible && !node.hidden
            let flat = Flat(
                path: "\(parent)/\(index):\(node.className)", parent: parent, className: node.className,
                text: node.text, label: node.displayText,
                visible: isVisible, interactive: node.interactive)
            result.append(flat)
            for (index, child) in node.children.enumerated() {
                walk(child, parent: flat.path, index: index, visible: isVisible)
            }
        }
        walk(root, parent: "", index: 0, visible: true)
        return result
    }

    private static func quoted(_ text: String?) -> String {
        text.map { "\"\($0)\"" } ?? "(no text)"
    }
}
