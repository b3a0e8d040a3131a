/// What correlating one timeline asks again and again — a URL's template, a class's role, a text's words, what an event
/// is and what a view update shows — computed once per distinct value or event. Lives for one
/// ``Correlator/correlation(of:duration:)`` call.
final class CorrelationMemo {
    /// What can follow a failure: a crash, an error log, a request.
    enum Follower: UInt8 {
        case crash, errorLog, request
    }

    /// For each timeline position, what the event is when it can follow a failure (`nil` for anything else): the
    /// scans after each failure read this, not the event, which copied a request's whole exchange to look at it.
    let follower: [Follower?]
    /// The positions where ``follower`` is set, in order.
    let followers: [Int]
    private var templates: [String: String] = [:]
    private var eventTemplates: [Int: String] = [:]
    private var roles: [String: (control: Bool, textInput: Bool)] = [:]
    private var words: [String: [String]] = [:]
    private var errorTexts: [String: Bool] = [:]
    private var busyTexts: [String: Bool] = [:]
    /// For each timeline position, the first item of a view update that shows the app at work (``busyItem(at:in:)``):
    /// `-2` not looked at yet, `-1` none.
    private var busyItems: [Int32]
    /// For each timeline position, what a screen change or view update shows (``marks(at:in:)``), once looked at.
    private var stateMarks: [StateMarks?]

    /// A memo for `events`.
    init(_ events: [TimelineEvent]) {
        // Read in place, through the buffer: mapping the array copied each event.
        let follower = events.withUnsafeBufferPointer { events in
            events.indices.map { index -> Follower? in
                switch events[index].kind {
                case .exception: .crash
                case .network: .request
                case .log(let line): line.level.isError ? .errorLog : nil
                default: nil
                }
            }
        }
        self.follower = follower
        followers = follower.indices.filter { follower[$0] != nil }
        busyItems = Array(repeating: -2, count: events.count)
        stateMarks = Array(repeating: nil, count: events.count)
    }

    /// The positions in ``followers`` after `index`.
    func followers(after index: Int) -> ArraySlice<Int> {
        followers.sortedSuffix(after: index)
    }

    /// ``URLTemplate/path(of:)``.
    func template(_ url: String) -> String {
        if let known = templates[url] { return known }
        let template = URLTemplate.path(of: url)
        templates[url] = template
        return template
    }

    /// The template of the URL of the exchange at timeline position `event`: looked up by position, so scanning
    /// the same exchanges again after each failure hashes no URL.
    func template(event: Int, url: String) -> String {
        if let known = eventTemplates[event] { return known }
        let template = template(url)
        eventTemplates[event] = template
        return template
    }

    /// The template of the URL of the request at timeline position `event`, `nil` for an event that is not a request
    /// with a URL: like ``template(event:url:)``, with the URL read from the event only the first time.
    func template(event: Int, in events: UnsafeBufferPointer<TimelineEvent>) -> String? {
        if let known = eventTemplates[event] { return known }
        guard case .network(let exchange) = events[event].kind, let url = exchange.url else { return nil }
        return template(event: event, url: url)
    }

    /// The position among its items of the first one of the view update at timeline position `event` that shows the
    /// app at work: a spinner shown, a control disabled, a busy label (`Processing…`); `nil` for none, or for an
    /// event that is not a view update. Looked at once per event, however many taps look after it.
    func busyItem(at event: Int, in events: UnsafeBufferPointer<TimelineEvent>) -> Int? {
        if busyItems[event] == -2 {
            var found: Int32 = -1
            if case .viewUpdate(let update) = events[event].kind {
                for (position, item) in update.items.enumerated() {
                    let busy =
                        (item.isSpinner && (item.kind == .shown || item.kind == .added))
                        || item.kind == .disabled
                        || (item.kind == .textChanged && item.text.map(readsAsBusy) == true)
                    if busy {
                        found = Int32(position)
                        break
                    }
                }
            }
            busyItems[event] = found
        }
        return busyItems[event] < 0 ? nil : Int(busyItems[event])
    }

    /// What a screen change or view update shows that can make it a failure's outcome.
    struct StateMarks {
        /// Whether the event is a screen change (`false`: a view update, or neither).
        var isScreen: Bool
        /// A screen change: whether its class or first texts read as an error.
        var errorScreen: Bool
        /// A view update: the position of its first alert added or shown, `-1` for none.
        var alert: Int32
        /// A view update: the position of its first other item added, shown or changed whose text reads as an error,
        /// `-1` for none.
        var errorMessage: Int32
    }

    /// What the screen change or view update at timeline position `event` shows; looked at once per event, however
    /// many failures look after it.
    func marks(at event: Int, in events: UnsafeBufferPointer<TimelineEvent>) -> StateMarks {
        if let known = stateMarks[event] { return known }
        var marks = StateMarks(isScreen: false, errorScreen: false, alert: -1, errorMessage: -1)
        switch events[event].kind {
        case .screen(let screen):
            marks.isScreen = true
            marks.errorScreen = readsAsError(screen.toClass) || screen.texts.prefix(3).contains(where: readsAsError)
        case .viewUpdate(let update):
            for (position, item) in update.items.enumerated() {
                if item.isAlert, item.kind == .added || item.kind == .shown {
                    if marks.alert < 0 { marks.alert = Int32(position) }
                } else if marks.errorMessage < 0,
                    item.kind == .added || item.kind == .shown || item.kind == .textChanged,
                    let text = item.text, readsAsError(text)
                {
                    marks.errorMessage = Int32(position)
                }
            }
        default:
            break
        }
        stateMarks[event] = marks
        return marks
    }

    /// ``ViewRoles/isControl(_:)`` and ``ViewRoles/isTextInput(_:)``.
    func role(_ className: String) -> (control: Bool, textInput: Bool) {
        if let known = roles[className] { return known }
        let role = (ViewRoles.isControl(className), ViewRoles.isTextInput(className))
        roles[className] = role
        return role
    }

    /// ``ViewRoles/labelFits(_:path:)`` with each side's words computed once.
    func labelFits(_ label: String, path: String) -> Bool {
        let pathWords = self.words(path)
        return self.words(label).contains { word in
            pathWords.contains { $0.hasPrefix(word) || word.hasPrefix($0) }
        }
    }

    /// ``ViewRoles/readsAsError(_:)``: the screens and messages after one failure are looked at again after the next.
    func readsAsError(_ text: String) -> Bool {
        if let known = errorTexts[text] { return known }
        let reads = ViewRoles.readsAsError(text)
        errorTexts[text] = reads
        return reads
    }

    /// ``ViewRoles/readsAsBusy(_:)``: the view updates after one tap are looked at again for the next candidate.
    func readsAsBusy(_ text: String) -> Bool {
        if let known = busyTexts[text] { return known }
        let reads = ViewRoles.readsAsBusy(text)
        busyTexts[text] = reads
        return reads
    }

    private func words(_ text: String) -> [String] {
        if let known = words[text] { return known }
        let found = ViewRoles.words(text)
        words[text] = found
        return found
    }
}
