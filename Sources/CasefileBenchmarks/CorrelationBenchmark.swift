import CasefileCore
import Foundation

/// Correlation figures: timeline events correlated per second on one core, and a `.clue` recording of 10,000
/// events and 200 view snapshots written for `Scripts/benchmark.sh` to time `casefile triage` on.
enum CorrelationBenchmark {
    /// A timeline shaped like a busy recording: per second, a tap on a button, the spinner shown, a response
    /// (every fifth one a 500), the spinner hidden, and log lines.
    static func timeline(events count: Int) -> Timeline {
        var events: [TimelineEvent] = []
        let button = TouchTarget(className: "UIButton", label: "Load more", path: ["UIView", "UIButton"])
        let busy = ScreenState(rootClass: "UIView", labels: ["Feed"], spinnerVisible: true)
        let idle = ScreenState(rootClass: "UIView", labels: ["Feed"], spinnerVisible: false)
        var second = 0.0
        while events.count < count {
            let point = [TouchPoint(tapCount: 1, x: 100, y: 500)]
            events.append(
                TimelineEvent(
                    timestamp: second, file: "i", line: nil,
                    kind: .touch(TouchEvent(phase: .began, rawPhase: "Began", touches: point, target: button))))
            events.append(
                TimelineEvent(
                    timestamp: second + 0.1, file: "i", line: nil,
                    kind: .touch(TouchEvent(phase: .ended, rawPhase: "Ended", touches: point, target: button))))
            events.append(
                TimelineEvent(
                    timestamp: second + 0.12, file: "v", line: nil,
                    kind: .viewUpdate(
                        ViewUpdate(items: [ViewChange(kind: .shown, className: "UIActivityIndicatorView")], state: busy)
                    )))
            let status = Int(second) % 5 == 4 ? 500 : 200
            events.append(
                TimelineEvent(
                    timestamp: second + 0.5, file: "n", line: nil,
                    kind: .network(
                        NetworkExchange(
                            url: "https://api.example/v1/feed/\(Int(second))?page=2", statusCode: status,
                            responseAt: second + 0.5))))
            events.append(
                TimelineEvent(
                    timestamp: second + 0.52, file: "v", line: nil,
                    kind: .viewUpdate(
                        ViewUpdate(
                            items: [ViewChange(kind: .hidden, className: "UIActivityIndicatorView")], state: idle))))
            events.append(
                TimelineEvent(
                    timestamp: second + 0.53, file: "l", line: nil,
                    kind: .log(LogLine(clock: "", level: status == 500 ? .error : .info, message: "feed \(status)"))))
            second += 1
        }
        return Timeline(Array(events.prefix(count)))
    }

    /// Prints timeline events correlated per second, one core.
    static func eventsPerSecond() {
        let timeline = timeline(events: 10_000)
        let correlator = Correlator()
        var runs = 0
        var chains = 0
        let start = Date()
        while Date().timeIntervalSince(start) < 2 {
            chains = correlator.correlation(of: timeline).chains.count
            runs += 1
        }
        let seconds = Date().timeIntervalSince(start)
        print(
            String(
                format: "correlation: %.0f timeline events/s (10,000 events, %d chains, one core)",
                Double(timeline.events.count * runs) / seconds, chains))
    }

    /// Writes a `.clue` folder of 10,000 events (touches, responses) and 200 view snapshots of a 40-view tree.
    static func writeRecording(to folder: URL) throws {
        let modules = folder.appendingPathComponent("Modules")
        let info = folder.appendingPathComponent("Info")
        try FileManager.default.createDirectory(at: modules, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: info, withIntermediateDirectories: true)
        try Data(#"{"systemName":"iOS","model":"iPhone","systemVersion":"17.4"}"#.utf8 + [10])
            .write(to: info.appendingPathComponent("info_device.json"))
        func tree(_ snapshot: Int) -> String {
            let cells = (0..<38).map { row in
                #"{"class":"FeedCell","properties":{"frame":{"x":0,"y":\#(row * 44),"width":375,"height":44},"hidden":false,"userInteractionEnabled":true},"subviews":[{"class":"UILabel","properties":{"frame":{"x":16,"y":10,"width":300,"height":20},"text":"Item \#(row + snapshot)","userInteractionEnabled":false},"subviews":[]}]}"#
            }
            let spinner =
                #"{"class":"UIActivityIndicatorView","properties":{"frame":{"x":177,"y":600,"width":20,"height":20},"hidden":\#(snapshot % 2 == 0)},"subviews":[]}"#
            return #"{"class":"FeedView","properties":{"frame":{"x":0,"y":0,"width":375,"height":667}},"subviews":["#
                + (cells + [spinner]).joined(separator: ",") + "]}"
        }
        var views = ""
        for snapshot in 0..<200 {
            views += #"{"timestamp":\#(Double(snapshot) * 0.9),"view":\#(tree(snapshot))}"# + "\n"
        }
        try Data(views.utf8).write(to: modules.appendingPathComponent("module_view.json"))
        var touches = ""
        var network = ""
        for index in 0..<2_500 {
            let time = Double(index) * 0.072
            let point = #"[{"tapCount":1,"locationInWindow":{"x":100,"y":\#(index % 600)}}]"#
            touches += #"{"type":"Began","timestamp":\#(time),"touches":\#(point)}"# + "\n"
            touches += #"{"type":"Ended","timestamp":\#(time + 0.05),"touches":\#(point)}"# + "\n"
            let status = index % 5 == 4 ? 500 : 200
            network +=
                #"{"timestamp":\#(time + 0.06),"label":"DidReceiveResponse","properties":[{"class":"NSHTTPURLResponse","URL":"https:\/\/api.example\/v1\/feed\/\#(index)","MIMEType":"application\/json","expectedContentLength":2,"statusCode":\#(status),"localizedStringForStatusCode":"x","allHeaderFields":{}}]}"#
                + "\n"
            network +=
                #"{"timestamp":\#(time + 0.06),"label":"DidReceiveData","properties":[{"HTTPBody":"{}"}]}"# + "\n"
        }
        try Data(touches.utf8).write(to: modules.appendingPathComponent("module_interaction.json"))
        try Data(network.utf8).write(to: modules.appendingPathComponent("module_network.json"))
    }
}
