import CasefileCore
import Testing

/// A view update's one-line summary (the timeline table, `timeline_events.summary`) names its first four changes.
@Suite struct ViewUpdateSummaryTests {
    let changes = [
        ViewChange(kind: .disabled, className: "UIButton", text: "Pay now"),
        ViewChange(kind: .textChanged, className: "UIButtonLabel", text: "Processing", oldText: "Pay now"),
        ViewChange(kind: .shown, className: "UIActivityIndicatorView"),
        ViewChange(kind: .added, className: "UILabel", text: "Hold on"),
        ViewChange(kind: .removed, className: "UILabel", text: "Total"),
        ViewChange(kind: .hidden, className: "UIImageView"),
    ]

    func summary(of changes: [ViewChange]) -> String {
        let state = ScreenState(rootClass: "UIView", labels: ["Hold on"], spinnerVisible: true)
        return TimelineEvent(
            timestamp: 12.5, file: "Modules/module_view.json", line: 5,
            kind: .viewUpdate(ViewUpdate(items: changes, state: state))
        ).summary
    }

    @Test func namesTheFirstFourChangesAndSaysWhenThereAreMore() {
        let four = [
            #"UIButton "Pay now" disabled"#, #"UIButtonLabel "Pay now" → "Processing""#,
            "UIActivityIndicatorView shown", #"UILabel "Hold on" added"#,
        ].joined(separator: "; ")
        #expect(summary(of: changes) == four + "; …")
        #expect(summary(of: Array(changes.prefix(4))) == four)
        #expect(summary(of: Array(changes.prefix(1))) == #"UIButton "Pay now" disabled"#)
    }
}
