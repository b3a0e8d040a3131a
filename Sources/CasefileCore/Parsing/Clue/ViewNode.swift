/// The part of a recorded view that triage needs: class, frame, visibility, text — nothing else is kept.
struct ViewNode: Sendable, Equatable {
    var className: String
    var x: Double
    var y: Double
    var width: Double
    var height: Double
    var hidden: Bool
    var interactive: Bool
    var text: String?
    var placeholder: String?
    var children: [ViewNode]

    /// The class of Clue's own recording indicator, which is not part of the app.
    static let recordingIndicator = "CLURecordIndicatorView"

    /// Builds a node from a Clue view record; `nil` when the record has no class.
    init?(_ value: JSONValue, depth: Int = 0) {
        guard depth < 200, let className = value["class"]?.string else { return nil }
        let properties = value["properties"]
        let frame = properties?["frame"]
        self.init(
            className: className, x: frame?["x"]?.double ?? 0, y: frame?["y"]?.double ?? 0,
            width: frame?["width"]?.double ?? 0, height: frame?["height"]?.double ?? 0,
            hidden: properties?["hidden"]?.bool ?? false,
            interactive: properties?["userInteractionEnabled"]?.bool ?? true,
            recordedText: properties?["text"]?.string, placeholder: properties?["placeholder"]?.string,
            children: (value["subviews"]?.array ?? []).compactMap { ViewNode($0, depth: depth + 1) })
    }

    /// A node of what a record holds; ``ClueViewLineDecoder`` reads it from the bytes, the initializer above from a
    /// tree. An empty text or placeholder is none, and a text field's text is redacted.
    init(
        className: String, x: Double, y: Double, width: Double, height: Double, hidden: Bool, interactive: Bool,
        recordedText: String?, placeholder: String?, children: [ViewNode]
    ) {
        self.className = className
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.hidden = hidden
        self.interactive = interactive
        let rawText = recordedText.flatMap { $0.isEmpty ? nil : $0 }
        // Text fields show what the user typed, passwords included: never keep it (see isTextInput).
        text = className.containsBytes("TextField") ? rawText.map(Redactor.standard.typedText) : rawText
        self.placeholder = placeholder.flatMap { $0.isEmpty ? nil : $0 }
        self.children = children
    }

    /// The deepest view that would receive a touch at a point in the superview's coordinates, with UIKit's rules:
    /// hidden views and views with user interaction disabled are skipped with their subviews, and a subview
    /// is only hit inside its parent's frame. The path runs from this view down to the one hit.
    func hitTest(x pointX: Double, y pointY: Double) -> [ViewNode]? {
        var path: [ViewNode] = []
        guard hit(x: pointX, y: pointY, path: &path) else { return nil }
        path.reverse()
        return path
    }

    /// Whether a point hits this view; if so, appends the view hit and the views above it up to this one to `path`.
    private func hit(x pointX: Double, y pointY: Double, path: inout [ViewNode]) -> Bool {
        guard !hidden, interactive, pointX >= x, pointX < x + width, pointY >= y, pointY < y + height else {
            return false
        }
        // The frontmost subview first: the last one. Read in place, not copied one by one.
        children.withUnsafeBufferPointer { subviews in
            var index = subviews.endIndex
            while index > subviews.startIndex {
                index -= 1
                if subviews[index].hit(x: pointX - x, y: pointY - y, path: &path) { return }
            }
        }
        path.append(self)
        return true
    }

    /// Whether the view is a text field, whose text is what the user typed (and is redacted).
    var isTextInput: Bool {
        className.containsBytes("TextField")
    }

    /// The first text a user would read on this view: a text field's placeholder, its own text, else a
    /// descendant's (a button's title label, a cell's label).
    var displayText: String? {
        if isTextInput { return placeholder ?? text }
        if let text { return text }
        for child in children where !child.hidden {
            if let found = child.displayText { return found }
        }
        return placeholder
    }

    /// What an alert says, as one line: its first two visible texts (title and message), joined by a dash.
    var alertText: String {
        visibleTexts(limit: 2).joined(separator: " — ")
    }

    /// Visible texts in depth-first order, outside the recording indicator.
    func visibleTexts(limit: Int) -> [String] {
        var texts: [String] = []
        func walk(_ node: ViewNode) {
            guard texts.count < limit, !node.hidden, node.className != Self.recordingIndicator else { return }
            if let text = node.isTextInput ? node.placeholder : node.text { texts.append(text) }
            node.children.forEach(walk)
        }
        walk(self)
        return texts
    }
}
