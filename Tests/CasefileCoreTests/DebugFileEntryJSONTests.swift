import CasefileCore
import Foundation
import Testing

/// The index stores what a scan learned of each file of the symbol folders as JSON (`Encodable`'s form) and reads it
/// back at the start of every run that symbolicates: read without `JSONDecoder`, it must give what `JSONDecoder`
/// gives, and leave to it any text it does not read exactly.
@Suite struct DebugFileEntryJSONTests {
    @Test func readsEveryEntryOfTheSampleSymbolsAsJSONDecoderDoes() throws {
        // Thin and fat Mach-O binaries and dSYMs (symbol tables, function starts, text sections) and a Breakpad file.
        let files = DebugFileIndex(
            scanning: [Samples.repository.appendingPathComponent("SampleReports/Symbols")]
        ).files
        let entries = files.values.flatMap(\.entries)
        #expect(Set(entries.map(\.kind)) == [.machO, .breakpad])
        #expect(entries.contains { $0.slice.functionStarts != nil })
        #expect(entries.contains { $0.slice.hasDWARF })
        for file in files.values {
            let json = try IndexJSON.text(file.entries)
            let decoded = try JSONDecoder().decode([DebugFileIndex.Entry].self, from: Data(json.utf8))
            #expect(DebugFileIndex.Entry.entries(fromJSON: json) == decoded)
            #expect(decoded == file.entries)
        }
    }

    @Test func readsAnEntryWrittenByHand() throws {
        let json = """
            [{"imageName":"ShopApp","kind":"breakpad","path":"/s/ShopApp.sym","slice":{"arch":"arm64",\
            "fileOffset":0,"fileType":0,"hasDWARF":false,"size":4096,"textSection":[16384,20480],\
            "textVMAddress":0,"uuid":null}}]
            """
        let entry = try #require(DebugFileIndex.Entry.entries(fromJSON: json)?.first)
        #expect(entry.kind == .breakpad)
        #expect(entry.path == "/s/ShopApp.sym")
        #expect(entry.imageName == "ShopApp")
        #expect(entry.slice.arch == "arm64")
        #expect(entry.slice.size == 4096)
        #expect(entry.slice.textSection == 16384..<20480)
        #expect(entry.slice.textVMAddress == 0)
        #expect(entry.slice.uuid == nil)
        #expect(entry.slice.symbolTable == nil)
        #expect(DebugFileIndex.Entry.entries(fromJSON: "[]") == [])
    }

    private static let slice = #""arch":"arm64","fileOffset":0,"fileType":6,"size":10"#

    @Test(arguments: [
        // An unknown key, an unknown kind, a number out of a field's range, a range the wrong way round or of one
        // bound, a required field missing, a trailing comma.
        #"[{"imageName":"A","kind":"machO","path":"/a","slice":{\#(slice),"hasDWARF":true},"extra":0}]"#,
        #"[{"imageName":"A","kind":"elf","path":"/a","slice":{\#(slice),"hasDWARF":true}}]"#,
        #"[{"imageName":"A","kind":"machO","path":"/a","slice":{\#(slice),"hasDWARF":true,"#
            + #""functionStarts":{"offset":4294967296,"size":1}}}]"#,
        #"[{"imageName":"A","kind":"machO","path":"/a","slice":{\#(slice),"hasDWARF":true,"textSection":[5,3]}}]"#,
        #"[{"imageName":"A","kind":"machO","path":"/a","slice":{\#(slice),"hasDWARF":true,"textSection":[5]}}]"#,
        #"[{"imageName":"A","kind":"machO","path":"/a","slice":{\#(slice)}}]"#,
        #"[{"imageName":"A","kind":"machO","path":"/a","slice":{\#(slice),"hasDWARF":true}},]"#,
    ])
    func leavesAnyOtherTextToJSONDecoder(_ json: String) {
        #expect(DebugFileIndex.Entry.entries(fromJSON: json) == nil)
    }
}
