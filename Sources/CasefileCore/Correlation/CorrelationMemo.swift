/// What correlating one timeline asks again and again — a URL's template, a class's role, a text's words —
/// computed once per distinct value. Lives for one ``Correlator/correlation(of:duration:)`` call.
final class CorrelationMemo {
    /// For each timeline position, whether the event can follow a failure: a crash, an error log, a request.
    let mayFollow: [Bool]
    /// The positions where ``mayFollow`` holds, in order.
    let followers: [Int]
    private var templates: [String: String] = [:]
    private var eventTemplates: [Int: String] = [:]
    private var roles: [String: (control: Bool, textInput: Bool)] = [:]
    private var words: [String: [String]] = [:]
    private var errorTexts: [String: Bool] = [:]
    private var busyTexts: [String: Bool] = [:]

    /// A memo for `events`.
    init(_ events: [TimelineEvent]) {
        let mayFollow = events.map { event in
            switch event.kind {
            case .exception, .network: true
            case .log(let line): line.level.isError
            default: false
            }
        }
        self.mayFollow = mayFollow
        followers = mayFollow.indices.filter { mayFollow[$0] }
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
