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
        var current: Shown?
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
        // Most lines are read straight from their bytes; the rest as trees, to the same snapshot.
        let lines = JSONLines(file: file, bytes: bytes)
        warnings += lines.scan(decoding: ClueViewLineDecoder.decode, tree: snapshot) { line, snapshot in
            guard let timestamp = snapshot.timestamp else {
                warnings.append(
                    Diagnostic(file: file, line: line, message: "no numeric \"timestamp\"; snapshot skipped"))
                return
            }
            guard let root = snapshot.view else {
                warnings.append(
                    Diagnostic(file: file, line: line, message: "no \"view\" with a \"class\"; snapshot skipped"))
                return
            }
            resolveTouches(before: timestamp, on: current?.root)
            output.snapshotCount += 1
            output.lastTimestamp = timestamp
            let (kind, flat) = change(from: current, to: root)
            if let kind {
                output.events.append(TimelineEvent(timestamp: timestamp, file: file, line: line, kind: kind))
            }
            current = Shown(root: root, flat: flat)
        }
        resolveTouches(before: nil, on: current?.root)
        return output
    }

    /// The snapshot a line's tree holds, as ``ClueViewLineDecoder`` reads it from the bytes.
    static func snapshot(_ value: JSONValue) -> ClueViewLineDecoder.Snapshot {
        ClueViewLineDecoder.Snapshot(
            timestamp: value["timestamp"]?.double, view: value["view"].flatMap { ViewNode($0) })
    }

    /// The snapshot the next one is compared with, and its views flattened when a comparison needed them: each
    /// snapshot is then flattened once, not once as the new one and again as the old.
    private struct Shown {
        var root: ViewNode
        var flat: [Flat]?
    }

    /// What a user would notice between two snapshots (`nil` when nothing visible changed), and the new snapshot's
    /// views flattened when they were compared.
    private static func change(from old: Shown?, to new: ViewNode) -> (kind: TimelineEvent.Kind?, flat: [Flat]?) {
        let state = screenState(new)
        guard let old, old.root.className == new.className else {
            return (.screen(ScreenChange(fromClass: old?.root.className, toClass: new.className, state: state)), nil)
        }
        let before = old.flat ?? flatten(old.root)
        let after = flatten(new)
        let beforeByKey = Dictionary(before.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let afterKeys = Set(after.map(\.key))
        var items: [ViewChange] = []
        // A view added, removed, shown or hidden takes its subviews with it: name only the outermost one.
        var covered: Set<String> = []
        for now in after {
            guard let was = beforeByKey[now.key] else {
                covered.insert(now.key)
                if now.visible, !covered.contains(now.parent) {
                    items.append(ViewChange(kind: .added, className: now.className, text: now.label))
                }
                continue
            }
            if was.text != now.text, now.visible, was.visible {
                items.append(
                    ViewChange(kind: .textChanged, className: now.className, text: now.text, oldText: was.text))
            }
            if was.visible != now.visible {
                covered.insert(now.key)
                if !covered.contains(now.parent) {
                    items.append(
                        ViewChange(kind: now.visible ? .shown : .hidden, className: now.className, text: now.label))
                }
            }
            if was.interactive != now.interactive, now.visible, now.isControl {
                items.append(
                    ViewChange(kind: now.interactive ? .enabled : .disabled, className: now.className, text: now.label))
            }
        }
        for was in before where !afterKeys.contains(was.key) {
            covered.insert(was.key)
            if was.visible, !covered.contains(was.parent) {
                items.append(ViewChange(kind: .removed, className: was.className, text: was.label))
            }
        }
        return (items.isEmpty ? nil : .viewUpdate(ViewUpdate(items: items, state: state)), after)
    }

    /// What the screen shows: root class, navigation title, first texts, a visible spinner or alert.
    static func screenState(_ root: ViewNode) -> ScreenState {
        var title: String?
        var spinner = false
        var alert: String?
        func walk(_ node: ViewNode, inNavigationBar: Bool) {
            guard !node.hidden, node.className != ViewNode.recordingIndicator else { return }
            let inBar = inNavigationBar || node.className.containsBytes("NavigationBar")
            if inBar, title == nil, let text = node.text { title = text }
            if ViewChange.isSpinner(node.className) { spinner = true }
            if alert == nil, ViewChange.isAlert(node.className) {
                alert = node.visibleTexts(limit: 2).joined(separator: " — ")
            }
            for child in node.children { walk(child, inNavigationBar: inBar) }
        }
        walk(root, inNavigationBar: false)
        return ScreenState(
            rootClass: root.className, title: title, labels: root.visibleTexts(limit: 4), spinnerVisible: spinner,
            alert: alert.flatMap { $0.isEmpty ? nil : $0 })
    }

    private struct Flat {
        /// The path of `Class#n` components (n counts siblings of the same class), stable when siblings are added.
        var key: String
        var parent: String
        var className: String
        var text: String?
        var label: String?
        var visible: Bool
        var interactive: Bool

        /// Whether enabling or disabling the view is worth a line: a view with no text of its own (a button, a
        /// switch, a cell), as labels are never interactive.
        var isControl: Bool {
            text == nil
        }
    }

    private static func flatten(_ root: ViewNode) -> [Flat] {
        var result: [Flat] = []
        func walk(_ node: ViewNode, parent: String, key: String, visible: Bool) {
            guard node.className != ViewNode.recordingIndicator else { return }
            let isVisible = visible && !node.hidden
            let label =
                ViewChange.isAlert(node.className)
                ? node.visibleTexts(limit: 2).joined(separator: " — ") : node.displayText
            result.append(
                Flat(
                    key: key, parent: parent, className: node.className, text: node.text,
                    label: label.flatMap { $0.isEmpty ? nil : $0 }, visible: isVisible, interactive: node.interactive))
            var seen: [String: Int] = [:]
            for child in node.children {
                let index = seen[child.className, default: 0]
                seen[child.className] = index + 1
                walk(child, parent: key, key: "\(key)/\(child.className)#\(index)", visible: isVisible)
            }
        }
        walk(root, parent: "", key: root.className, visible: true)
        return result
    }
}
