/// One visible difference between two consecutive view snapshots of the same screen.
public struct ViewChange: Sendable, Codable, Hashable {
    /// What changed.
    public enum Kind: String, Sendable, Codable, Hashable {
        /// A visible view appeared in the tree.
        case added
        /// A visible view left the tree.
        case removed
        /// A view's text changed.
        case textChanged = "text-changed"
        /// A hidden view became visible.
        case shown
        /// A visible view became hidden.
        case hidden
        /// A control started accepting touches.
        case enabled
        /// A control stopped accepting touches.
        case disabled
    }

    /// What changed.
    public var kind: Kind
    /// The view's class.
    public var className: String
    /// The text a user reads on the view (its new text for ``Kind/textChanged``; an alert's title and message).
    public var text: String?
    /// The text before, for ``Kind/textChanged``.
    public var oldText: String?

    /// Creates a change.
    public init(kind: Kind, className: String, text: String? = nil, oldText: String? = nil) {
        self.kind = kind
        self.className = className
        self.text = text
        self.oldText = oldText
    }

    /// Whether the view is an alert (`UIAlertController`'s views, or an app's own `…AlertView`).
    public var isAlert: Bool {
        ViewChange.isAlert(className)
    }

    static func isAlert(_ className: String) -> Bool {
        className.containsBytes("Alert")
    }

    /// Whether the view is a spinner (`UIActivityIndicatorView` or an app's own `…Spinner`).
    public var isSpinner: Bool {
        ViewChange.isSpinner(className)
    }

    static func isSpinner(_ className: String) -> Bool {
        className.containsBytes("ActivityIndicator") || className.containsBytes("Spinner")
    }

    /// One line: `alert added: "Payment failed"`, `UIButtonLabel "Pay now" → "Processing…"`,
    /// `UIActivityIndicatorView shown`.
    public var description: String {
        let named = text.map { "\(className) \"\($0)\"" } ?? className
        switch kind {
        case .added: return isAlert ? "alert added\(text.map { ": \"\($0)\"" } ?? "")" : "\(named) added"
        case .removed: return isAlert ? "alert dismissed\(text.map { ": \"\($0)\"" } ?? "")" : "\(named) removed"
        case .textChanged:
            return
                "\(className) \(oldText.map { "\"\($0)\"" } ?? "(no text)") → \(text.map { "\"\($0)\"" } ?? "(no text)")"
        case .shown, .hidden, .enabled, .disabled: return "\(named) \(kind.rawValue)"
        }
    }
}

/// What the screen showed at one moment, summarized from a view snapshot.
public struct ScreenState: Sendable, Codable, Hashable {
    /// The class of the root view (the top view controller's view).
    public var rootClass: String
    /// The navigation bar's title, when the snapshot has one.
    public var title: String?
    /// The first visible texts, in reading order (at most four).
    public var labels: [String]
    /// Whether a spinner is visible.
    public var spinnerVisible: Bool
    /// The text of the visible alert, when one is shown.
    public var alert: String?

    /// Creates a state.
    public init(rootClass: String, title: String? = nil, labels: [String], spinnerVisible: Bool, alert: String? = nil) {
        self.rootClass = rootClass
        self.title = title
        self.labels = labels
        self.spinnerVisible = spinnerVisible
        self.alert = alert
    }
}
