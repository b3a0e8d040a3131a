import CasefileArchive
import CasefileCore
import Testing

/// Values below are read by hand from the sample files that Scripts/make-samples.py writes.
@Suite struct ClueReportParserTests {
    func report(_ name: String) throws -> Report {
        let output = try Triage().reports(at: Samples.sample(name))
        try #require(output.reports.count == 1)
        return output.reports[0]
    }

    func exchanges(_ report: Report) -> [(event: TimelineEvent, exchange: NetworkExchange)] {
        report.timeline.events.compactMap { event in
            guard case .network(let exchange) = event.kind else { return nil }
            return (event, exchange)
        }
    }

    func touches(_ report: Report) -> [(event: TimelineEvent, touch: TouchEvent)] {
        report.timeline.events.compactMap { event in
            guard case .touch(let touch) = event.kind else { return nil }
            return (event, touch)
        }
    }

    @Test func readsTheDeviceFile() throws {
        let device = try #require(try report("checkout-500.clue.zip").device)
        #expect(device.name == "QA iPhone 7")
        #expect(device.model == "iPhone")
        #expect(device.operatingSystem == "iOS 10.3.1")
        #expect(device.identifierForVendor == "A053F005-986D-421E-A8D6-5CF048789FB8")
        #expect(device.batteryLevel == nil)  // -1: battery monitoring off
        #expect(device.batteryState == .unknown)
    }

    @Test func readsBatteryFiguresWhenRecorded() throws {
        let device = try #require(try report("clean-session.zip").device)
        #expect(device.model == "iPad")
        #expect(device.batteryLevel == 0.85000002384185791)
        #expect(device.batteryState == .charging)
    }

    @Test func readsTouchesAndHitTestsThemAgainstTheLatestSnapshot() throws {
        let touches = touches(try report("checkout-500.clue.zip"))
        #expect(touches.count == 7)
        let payDown = try #require(touches.first { $0.event.timestamp == 12.383333416999998 })
        #expect(payDown.touch.phase == .began)
        #expect(payDown.touch.touches == [TouchPoint(tapCount: 1, x: 187.5, y: 566)])
        // The button's label has user interaction off, so UIKit (and Casefile) hit the button itself.
        #expect(
            payDown.touch.target == TouchTarget(className: "UIButton", label: "Pay now", path: ["UIView", "UIButton"]))
        let cardField = try #require(touches.first { $0.event.timestamp == 4.116666875 })
        #expect(cardField.touch.target?.className == "UITextField")
        #expect(cardField.touch.target?.label == "Card number")
        let drag = try #require(touches.first { $0.touch.phase == .moved })
        #expect(drag.touch.touches.count == 3)
        #expect(drag.touch.touches.last == TouchPoint(tapCount: 1, x: 200.5, y: 371))
    }

    @Test func assemblesTheFailedPaymentRequest() throws {
        let all = exchanges(try report("checkout-500.clue.zip"))
        #expect(all.count == 2)
        let shipping = all[0].exchange
        #expect(shipping.url == "https://api.shop.example/v1/shipping-options?cart=8812")
        #expect(shipping.statusCode == 200)
        #expect(shipping.expectedContentLength == nil)
        #expect(shipping.bodyPreview == #"{"options":[{"id":"std","label":"Standard – 3-5 days","price":0}]}"#)
        #expect(shipping.failure == nil)
        let payment = all[1]
        #expect(payment.event.timestamp == 13.150000333000002)
        #expect(payment.exchange.url == "https://api.shop.example/v1/orders")
        #expect(payment.exchange.method == nil)  // Clue never records the request
        #expect(payment.exchange.statusCode == 500)
        #expect(payment.exchange.statusText == "internal server error")
        #expect(payment.exchange.expectedContentLength == 63)
        #expect(payment.exchange.receivedBytes == 63)
        #expect(payment.exchange.failure == .http(500))
        #expect(payment.exchange.responseHeaders.first { $0.name == "Set-Cookie" }?.value == "[redacted]")
        #expect(payment.exchange.responseHeaders.first { $0.name == "Content-Length" }?.value == "63")
    }

    @Test func takesTheMethodFromARedirectsNewRequest() throws {
        let all = exchanges(try report("clean-session.zip"))
        #expect(all.count == 3)
        #expect(all[0].exchange.statusCode == 301)
        #expect(all[0].exchange.redirectLocation == "https://api.shop.example/v1/products?page=1")
        #expect(all[1].exchange.url == "https://api.shop.example/v1/products?page=1")
        #expect(all[1].exchange.method == "GET")
        #expect(all[1].exchange.redirectedFrom == "http://api.shop.example/v1/products?page=1")
        #expect(all.allSatisfy { $0.exchange.failure == nil })
    }

    @Test func readsATransportErrorWithoutAResponse() throws {
        let all = exchanges(try report("offline-1009.clue.zip"))
        let offline = try #require(all.first)
        #expect(all.count == 1)
        #expect(offline.event.timestamp == 2.250000125)
        #expect(offline.exchange.url == "https://api.shop.example/v1/orders?status=open")
        #expect(offline.exchange.statusCode == nil)
        let error = try #require(offline.exchange.error)
        #expect(error.domain == "NSURLErrorDomain")
        #expect(error.code == -1009)
        #expect(error.description == "The Internet connection appears to be offline.")
        #expect(offline.exchange.failure == .transport(error))
    }

    @Test func readsBothReportsOfANestedZip() throws {
        let output = try Triage().reports(at: Samples.sample("two-reports.zip"))
        #expect(Set(output.reports.map(\.source.root)) == ["timeout.clue.zip", "search-404.clue.zip"])
        let timeout = try #require(output.reports.first { $0.source.root == "timeout.clue.zip" })
        let timedOut = try #require(exchanges(timeout).first)
        #expect(timedOut.event.timestamp == 20.5)
        #expect(timedOut.exchange.error?.isTimeout == true)
        #expect(timeout.device?.identifierForVendor == nil)  // V1 writes "" for nil
        let search = try #require(output.reports.first { $0.source.root == "search-404.clue.zip" })
        let image = try #require(exchanges(search).first?.exchange)
        #expect(image.failure == .http(404))
        #expect(image.undecodableChunks == 1)
        #expect(image.receivedBytes == 0)
    }

    @Test func turnsSnapshotsIntoScreensAndVisibleChanges() throws {
        let report = try report("checkout-500.clue.zip")
        #expect(report.viewSnapshotCount == 6)
        let screens = report.timeline.events.compactMap { event -> (Double, ScreenChange)? in
            guard case .screen(let screen) = event.kind else { return nil }
            return (event.timestamp, screen)
        }
        #expect(screens.map(\.0) == [0, 13.166666750000001])
        #expect(screens[0].1.toClass == "UIView")
        #expect(screens[1].1.fromClass == "UIView")
        #expect(screens[1].1.toClass == "ShopApp.PaymentErrorView")
        #expect(screens[1].1.texts.first == "Payment failed")
        let updates = report.timeline.events.compactMap { event -> (Double, ViewUpdate)? in
            guard case .viewUpdate(let update) = event.kind else { return nil }
            return (event.timestamp, update)
        }
        // 4.13 and 6.75 change only the text field's editing state, 12.40 only a colour: nothing a user reads.
        #expect(updates.map(\.0) == [12.500000125])
        #expect(updates[0].1.changes.contains("UIButtonLabel \"Pay now\" → \"Processing…\""))
        #expect(updates[0].1.changes.contains("UIActivityIndicatorView shown"))
        #expect(!updates[0].1.changes.contains { $0.hasPrefix("UIImageView") })
    }

    @Test func neverKeepsWhatWasTypedIntoATextField() throws {
        let report = try report("checkout-500.clue.zip")
        let text = report.timeline.events.map(\.summary).joined(separator: "\n")
        #expect(!text.contains("4111"))
    }

    @Test func readsTheVideoLengthAndTheRecordingLength() throws {
        let report = try report("checkout-500.clue.zip")
        #expect(report.video?.duration == 16.5)
        #expect(report.duration == 16.5)  // the video outlasts the last event at 13.17 s
        #expect(report.warnings.isEmpty)
    }

    @Test func warnsAboutATruncatedVideoAndKeepsTheRest() throws {
        let report = try report("offline-1009.clue.zip")
        #expect(report.video?.duration == nil)
        #expect(report.duration == 2.266666792)
        #expect(
            report.warnings.map(\.description) == [
                "Modules/module_video.mp4: video has no readable movie header (truncated?); duration unknown"
            ])
    }

    @Test func keepsCustomModulesAndInfoFiles() throws {
        let report = try report("offline-1009.clue.zip")
        let logs = report.timeline.events.compactMap { event -> CustomEvent? in
            guard case .custom(let custom) = event.kind else { return nil }
            return custom
        }
        #expect(logs.map(\.module) == ["logs", "logs"])
        #expect(logs[1].record["message"]?.string == "Orders refresh failed: offline")
        #expect(report.extraInfo["info_location"]?["city"]?.string == "Lisbon")
    }

    @Test func readsTheExceptionFileWithItsMisspelledKey() throws {
        let report = try report("checkout-exception.clue.zip")
        let exception = try #require(report.exception)
        #expect(exception.name == "NSInvalidArgumentException")
        #expect(
            exception.reason
                == "*** -[__NSPlaceholderArray initWithObjects:count:]: attempt to insert nil object from objects[0]")
        #expect(exception.returnAddresses == [6_447_063_948, 6_436_392_912, 6_447_063_508])
        #expect(exception.callStackSymbols.count == 3)
        #expect(exception.callStackSymbols[1].contains("objc_exception_throw + 56"))
        #expect(exception.userInfo == nil)
        let last = try #require(report.timeline.events.last)
        guard case .exception = last.kind else {
            Issue.record("the exception does not end the timeline")
            return
        }
        #expect(last.timeIsRecorded == false)
        #expect(last.timestamp == 12.500000125)
    }

    @Test func skipsBadLinesWithAWarningAndKeepsTheRest() throws {
        let report = try report("E2A7C3D4-1B2F-4A5E-9C8D-7F6E5D4C3B2A.clue")
        #expect(
            report.warnings.map(\.description) == [
                "Modules/module_interaction.json:1: no numeric \"timestamp\"; record skipped",
                "Modules/module_view.json:2: invalid JSON (unterminated string at column 91); line skipped",
            ])
        // Line 1 and the unterminated last line (4) are whole snapshots; line 3 is blank.
        #expect(report.viewSnapshotCount == 2)
        #expect(touches(report).map(\.event.timestamp) == [2.050000083])
        #expect(exchanges(report).isEmpty)  // module_network.json is 0 bytes: nothing happened
    }

    @Test func givesTheSameReportTheSameIdentityZippedOrNot() throws {
        let folder = try Triage().reports(at: Samples.checkoutFolder).reports[0]
        let zipped = try report("checkout-500.clue.zip")
        #expect(folder.id == zipped.id)
        #expect(folder.source.clueUUID == "5B0F1C2E-9D4A-4C61-8E07-3A1F6B2C9D10")
        #expect(zipped.source.clueUUID == nil)
    }

    @Test func findsAReportUnderTheFoldersTheFinderAdds() throws {
        let output = try Triage().reports(at: Samples.sample("clean-session.zip"))
        #expect(output.reports.map(\.source.root) == ["\(Samples.cleanUUID).clue"])
        #expect(output.reports[0].source.clueUUID == Samples.cleanUUID)
        #expect(output.notes.isEmpty)  // __MACOSX, ._ and .DS_Store are litter, not entries to report
    }

    @Test(arguments: [
        ("Malformed/empty-report.clue.zip", "empty report: the archive holds no files"),
        (
            "Malformed/placeholders-only.clue.zip",
            "empty report: only placeholder files (.DS_Store, __MACOSX) and no report data"
        ),
    ])
    func refusesReportsWithNothingInThem(_ name: String, _ reason: String) throws {
        let error = try #require(throws: InputError.self) { try Triage().reports(at: Samples.sample(name)) }
        #expect(error.reason == reason)
    }

    @Test func splitsRecordsOnNewlineBytesOnly() throws {
        // U+2028 may stand unescaped inside a string; Swift's newline set would cut the record there.
        let label = "Line\u{2028}separator"
        let line = #"{"timestamp":1,"level":"info","message":"\#(label)"}"# + "\n"
        let package = CluePackage(
            input: "memory", root: "",
            files: [
                "Modules/module_logs.json": .init(
                    path: "Modules/module_logs.json", size: 0, contents: .bytes(Array(line.utf8)))
            ])
        let report = ClueReportParser().parse(package)
        guard case .custom(let custom) = report.timeline.events.first?.kind else {
            Issue.record("no custom event")
            return
        }
        #expect(custom.record["message"]?.string == label)
    }
}
