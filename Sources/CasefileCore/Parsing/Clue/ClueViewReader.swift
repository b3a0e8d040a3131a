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
            resolveTouches(before: timestamp, on: current)
            output.snapshotCount += 1
            output.lastTimestamp = timestamp
            if let kind = change(from: current, to: root) {
                output.events.append(TimelineEvent(timestamp: timestamp, file: file, line: line, kind: kind))
            }
            current = root
        }
        resolveTouches(before: nil, on: current)
        return output
    }

    /// The snapshot a line's tree holds, as ``ClueViewLineDecoder`` reads it from the bytes.
    static func snapshot(_ value: JSONValue) -> ClueViewLineDecoder.Snapshot {
        ClueViewLineDecoder.Snapshot(
            timestamp: value["timestamp"]?.double, view: value["view"].flatMap { ViewNode($0) })
    }

    /// What a user would notice between two snapshots: a ``ScreenChange`` when the root class differs, a
    /// ``ViewUpdate`` when visible views changed, `nil` when nothing did.
    private static func change(from old: ViewNode?, to new: ViewNode) -> TimelineEvent.Kind? {
        guard let old, old.className == new.className else {
            return .screen(ScreenChange(fromClass: old?.className, toClass: new.className, state: screenState(new)))
        }
        let items = ViewDiff.changes(from: old, to: new)
        return items.isEmpty ? nil : .viewUpdate(ViewUpdate(items: items, state: screenState(new)))
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
            if alert == nil, ViewChange.isAlert(node.className) { alert = node.alertText }
            for child in node.children { walk(child, inNavigationBar: inBar) }
        }
        walk(root, inNavigationBar: false)
        return ScreenState(
            rootClass: root.className, title: title, labels: root.visibleTexts(limit: 4), spinnerVisible: spinner,
            alert: alert.flatMap { $0.isEmpty ? nil : $0 })
    }
}
