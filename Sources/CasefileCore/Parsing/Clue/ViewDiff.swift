/// What a user would notice between two snapshots of one screen, found by walking the two view trees side by side.
///
/// A view of the new tree is the view of the old tree with the same class at the same place among its parent's
/// subviews of that class (the second `UILabel` of the same parent), its parent matched the same way: adding a view
/// of another class in front of two labels leaves the labels matched. The lines, in order:
/// - walking the new tree depth first: a view added; a text changed on a view visible before and after; a view shown
///   or hidden; a control (a view without text of its own) enabled or disabled while visible;
/// - then walking the old tree: a view removed.
///
/// A view added, removed, shown or hidden takes its subviews with it: only the outermost one is named. Views under the
/// recording indicator are left out.
enum ViewDiff {
    /// The changes from `old` to `new`, two snapshots of the same screen (their roots of one class).
    static func changes(from old: ViewNode, to new: ViewNode) -> [ViewChange] {
        guard new.className != ViewNode.recordingIndicator else { return [] }
        var changes: [ViewChange] = []
        compare(old, new, visible: (!old.hidden, !new.hidden), parentCovered: false, into: &changes)
        removals(old, new, visible: (!old.hidden, !new.hidden), parentCovered: false, into: &changes)
        return changes
    }

    /// Whether a view was and is visible: itself and every view above it not hidden.
    private typealias Visibility = (was: Bool, now: Bool)

    /// The lines of the new tree's walk for a view found in both trees, and for its subviews.
    private static func compare(
        _ was: ViewNode, _ now: ViewNode, visible: Visibility, parentCovered: Bool, into changes: inout [ViewChange]
    ) {
        if was.text != now.text, visible.was, visible.now {
            changes.append(ViewChange(kind: .textChanged, className: now.className, text: now.text, oldText: was.text))
        }
        // Shown or hidden, the view covers its subviews' lines of the same kind.
        let covered = visible.was != visible.now
        if covered, !parentCovered {
            changes.append(ViewChange(kind: visible.now ? .shown : .hidden, className: now.className, text: label(now)))
        }
        if was.interactive != now.interactive, visible.now, now.text == nil {
            changes.append(
                ViewChange(kind: now.interactive ? .enabled : .disabled, className: now.className, text: label(now)))
        }
        forEachSubview(of: now, in: was) { child, old in
            guard let old else {
                return whole(.added, child, parentVisible: visible.now, parentCovered: covered, into: &changes)
            }
            compare(
                old, child, visible: (visible.was && !old.hidden, visible.now && !child.hidden), parentCovered: covered,
                into: &changes)
        }
    }

    /// The lines of the old tree's walk (views removed) under a view found in both trees.
    private static func removals(
        _ was: ViewNode, _ now: ViewNode, visible: Visibility, parentCovered: Bool, into changes: inout [ViewChange]
    ) {
        let covered = visible.was != visible.now
        forEachSubview(of: was, in: now) { child, new in
            guard let new else {
                return whole(.removed, child, parentVisible: visible.was, parentCovered: covered, into: &changes)
            }
            removals(
                child, new, visible: (visible.was && !child.hidden, visible.now && !new.hidden), parentCovered: covered,
                into: &changes)
        }
    }

    /// A view added or removed with its subviews: named when visible, and not under a view that is itself added,
    /// removed, shown or hidden.
    private static func whole(
        _ kind: ViewChange.Kind, _ view: ViewNode, parentVisible: Bool, parentCovered: Bool,
        into changes: inout [ViewChange]
    ) {
        guard parentVisible, !view.hidden, !parentCovered else { return }
        changes.append(ViewChange(kind: kind, className: view.className, text: label(view)))
    }

    /// Calls `body` with each subview of `view` but the recording indicator, in order, and the same view among the
    /// subviews of `other` (`nil` when it has none). The subviews are read in place, not copied one by one.
    private static func forEachSubview(
        of view: ViewNode, in other: ViewNode, _ body: (_ subview: ViewNode, _ counterpart: ViewNode?) -> Void
    ) {
        let places = Counterparts(of: view.children, in: other.children)
        view.children.withUnsafeBufferPointer { subviews in
            other.children.withUnsafeBufferPointer { others in
                for index in subviews.indices where subviews[index].className != ViewNode.recordingIndicator {
                    body(subviews[index], places[index].map { others[$0] })
                }
            }
        }
    }

    /// What a line names a view by: an alert's first two texts, another view's first text.
    private static func label(_ node: ViewNode) -> String? {
        let label = ViewChange.isAlert(node.className) ? node.alertText : node.displayText
        return label.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// For each subview of one snapshot, the place of the same view among the other snapshot's subviews of the same
    /// parent: the one of the same class, as many views of that class before it.
    private enum Counterparts {
        /// The two lists have the same classes in the same order (the common case): each view is at its own place.
        case samePlaces(count: Int)
        /// The place of each view's counterpart, `nil` for a view the other list does not have.
        case places([Int?])

        init(of views: [ViewNode], in others: [ViewNode]) {
            if views.count == others.count, views.indices.allSatisfy({ views[$0].className == others[$0].className }) {
                self = .samePlaces(count: views.count)
                return
            }
            var placesByClass: [String: [Int]] = [:]
            for (place, other) in others.enumerated() { placesByClass[other.className, default: []].append(place) }
            var seen: [String: Int] = [:]
            self = .places(
                views.map { view in
                    let index = seen[view.className, default: 0]
                    seen[view.className] = index + 1
                    guard let places = placesByClass[view.className], index < places.count else { return nil }
                    return places[index]
                })
        }

        subscript(index: Int) -> Int? {
            switch self {
            case .samePlaces(let count): index < count ? index : nil
            case .places(let places): places[index]
            }
        }
    }
}
