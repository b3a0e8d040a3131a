/// What a view's class and text say about its role: a control a user taps to act, a text input, an error.
enum ViewRoles {
    /// Class-name parts of views a tap acts on: buttons, cells, switches, segmented controls, tab and bar items.
    private static let controlParts = [
        "Button", "Cell", "Control", "Switch", "Segment", "TabBar", "BarItem", "Slider", "Stepper",
    ]

    /// Whether a tap on the class plausibly starts an action.
    static func isControl(_ className: String) -> Bool {
        !isTextInput(className) && controlParts.contains { className.containsBytes($0) }
    }

    /// Whether the class takes typing: a tap on it focuses a field, it does not send a request.
    static func isTextInput(_ className: String) -> Bool {
        className.containsBytes("TextField") || className.containsBytes("TextView")
            || className.containsBytes("SearchBar")
    }

    /// Words on screen that read as a failure.
    private static let errorWords = [
        "error", "fail", "wrong", "unable", "couldn't", "could not", "can't", "cannot", "try again", "oops",
        "problem", "unavailable", "denied", "invalid", "offline", "no internet", "not connected", "declined",
    ]

    /// Whether the text (or class name) reads as a failure: `Payment failed`, `PaymentErrorView`.
    static func readsAsError(_ text: String) -> Bool {
        let lower = text.lowercased()
        return errorWords.contains { lower.containsBytes($0) }
    }

    /// Words on a control that say work started: `Processing…`, `Loading`, `Sending`.
    static func readsAsBusy(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasSuffix("…") || lower.hasSuffix("...")
            || ["loading", "processing", "sending", "saving", "please wait"].contains { lower.containsBytes($0) }
    }

    /// The lowercase words of at least three letters in a label or a URL path.
    static func words(_ text: String) -> [String] {
        text.lowercased().split { !$0.isLetter }.map(String.init).filter { $0.count >= 3 && $0 != "api" }
    }

    /// Whether a control's label and a request's path share a word stem (`Pay now` and `/v1/payments`).
    static func labelFits(_ label: String, path: String) -> Bool {
        let pathWords = words(path)
        return words(label).contains { word in
            pathWords.contains { $0.hasPrefix(word) || word.hasPrefix($0) }
        }
    }
}
