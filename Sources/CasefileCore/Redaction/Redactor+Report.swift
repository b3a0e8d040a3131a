/// One pass over a parsed report, before it is rendered, indexed or printed: every text that came from the report
/// goes through the redactor, so no writer has to remember to.
extension Redactor {
    /// The report with its secrets and personal data masked.
    public func redact(_ report: Report) -> Report {
        var report = report
        redact(&report)
        return report
    }

    /// Masks the report's secrets and personal data where it lies. A report handed over and returned is a copy whose
    /// timeline shares its events with the original: redacting them copied every event of a recording first.
    func redact(_ report: inout Report) {
        report.exception = report.exception.map(redact)
        report.crashes = report.crashes.map(redact)
        report.extraInfo = report.extraInfo.mapValues(json)
        // A long recording's events are redacted in two halves at once, each with a memo of its own.
        report.timeline.updateEvents(inHalves: report.timeline.events.count >= SideBySide.events) {
            let labels = LabelMemo(self)
            return { redact(&$0, labels: labels) }
        }
        report.attachments.toggles = report.attachments.toggles.map { toggle in
            var toggle = toggle
            toggle.value = isSecretKey(toggle.name) ? .string(mask(toggle.value.compactText)) : json(toggle.value)
            return toggle
        }
        report.attachments.storedValues = report.attachments.storedValues.map(redact)
        report.attachments.featureNames = report.attachments.featureNames.map(text)
    }

    /// The texts of a recording's views, redacted once each: every snapshot shows the same labels and titles again,
    /// and a recording of 200 snapshots redacted them 200 times (a tenth of triaging it).
    private final class LabelMemo {
        let redactor: Redactor
        var redacted: [String: String] = [:]

        init(_ redactor: Redactor) {
            self.redactor = redactor
        }

        /// ``Redactor/text(_:)``.
        func text(_ text: String) -> String {
            if let known = redacted[text] { return known }
            let made = redactor.text(text)
            redacted[text] = made
            return made
        }
    }

    /// Redacts one event in place: handing it over and back copied each event of a recording twice.
    private func redact(_ event: inout TimelineEvent, labels: LabelMemo) {
        switch event.kind {
        case .touch(var touch):
            if let label = touch.target?.label { touch.target?.label = labels.text(label) }
            event.kind = .touch(touch)
        case .network(let exchange):
            event.kind = .network(redact(exchange))
        case .screen(var change):
            change.state = redact(change.state, labels: labels)
            event.kind = .screen(change)
        case .viewUpdate(var update):
            update.state = redact(update.state, labels: labels)
            update.items = update.items.map { item in
                var item = item
                item.text = item.text.map(labels.text)
                item.oldText = item.oldText.map(labels.text)
                return item
            }
            event.kind = .viewUpdate(update)
        case .exception(let exception):
            event.kind = .exception(redact(exception))
        case .custom(var custom):
            custom.record = json(custom.record)
            event.kind = .custom(custom)
        case .log(var line):
            line.message = text(line.message)
            event.kind = .log(line)
        case .analytics(var analytics):
            analytics.parameters = analytics.parameters.map(json)
            event.kind = .analytics(analytics)
        case .push(var push):
            push.title = push.title.map(text)
            push.body = push.body.map(text)
            push.payload = push.payload.map(json)
            event.kind = .push(push)
        case .snapshot:
            break
        }
    }

    /// Headers, URL, bodies, redirect targets and the error text of one exchange.
    func redact(_ exchange: NetworkExchange) -> NetworkExchange {
        var exchange = exchange
        exchange.url = exchange.url.map(url)
        exchange.redirectLocation = exchange.redirectLocation.map(url)
        exchange.redirectedFrom = exchange.redirectedFrom.map(url)
        exchange.requestHeaders = exchange.requestHeaders.map {
            HeaderField(name: $0.name, value: header(name: $0.name, value: $0.value))
        }
        exchange.responseHeaders = exchange.responseHeaders.map {
            HeaderField(name: $0.name, value: header(name: $0.name, value: $0.value))
        }
        exchange.requestBody = exchange.requestBody.map(body)
        exchange.bodyPreview = exchange.bodyPreview.map(body)
        if var error = exchange.error {
            error.description = error.description.map(text)
            error.failingURL = error.failingURL.map(url)
            exchange.error = error
        }
        return exchange
    }

    private func redact(_ state: ScreenState, labels: LabelMemo) -> ScreenState {
        var state = state
        state.title = state.title.map(labels.text)
        state.labels = state.labels.map(labels.text)
        state.alert = state.alert.map(labels.text)
        return state
    }

    private func redact(_ exception: AppException) -> AppException {
        var exception = exception
        exception.reason = exception.reason.map(text)
        exception.userInfo = exception.userInfo.map(json)
        return exception
    }

    private func redact(_ crash: Crash) -> Crash {
        var crash = crash
        crash.exception.reason = crash.exception.reason.map(text)
        crash.exception.terminationReason = crash.exception.terminationReason.map(text)
        crash.exception.applicationSpecificInformation = crash.exception.applicationSpecificInformation.map(text)
        crash.rawFields = crash.rawFields.mapValues(text)
        return crash
    }

    /// A Keychain item's value is always masked; a UserDefaults value when its key names a secret, and scrubbed as
    /// text otherwise.
    private func redact(_ stored: ReportAttachments.StoredValue) -> ReportAttachments.StoredValue {
        var stored = stored
        if stored.store == .keychain || isSecretKey(stored.key) {
            stored.value = .string(mask(stored.value.string ?? stored.value.compactText))
        } else {
            stored.value = json(stored.value)
        }
        return stored
    }
}
