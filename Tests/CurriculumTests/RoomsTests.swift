import Foundation
import Testing

/// The package root, found from this file's location.
private let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The modules organised into rooms (README.md, "The rooms of the code").
private let roomedModules = ["Sources/WorkbookCLI", "Sources/SimulatedWorld", "Sources/WorkbookTesting"]

/// The house by rooms: each module's files live in folders by concern, each folder says what
/// lives there in a Swift file named after it, and no folder grows past what a newcomer can scan.
@Suite("The rooms of the code")
struct RoomsTests {
    static let mostFilesPerFolder = 15

    private func entries(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent(path).path)) ?? [])
            .filter { !$0.hasPrefix(".") }.sorted()
    }

    private func isFolder(_ path: String) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(
            atPath: packageRoot.appendingPathComponent(path).path, isDirectory: &folder)
            && folder.boolValue
    }

    @Test("Each module keeps its sources in rooms, and each room opens with a comment on what lives there")
    func roomsHaveOpeningComments() throws {
        for module in roomedModules {
            let rooms = entries(module).filter { isFolder("\(module)/\($0)") }
            #expect(!rooms.isEmpty, "\(module) has no rooms")
            let loose = entries(module).filter { !isFolder("\(module)/\($0)") }
            #expect(loose.isEmpty, "\(module) holds files outside its rooms: \(loose)")
            for room in rooms {
                let path = "\(module)/\(room)/\(room).swift"
                let text = try? String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
                let lines = (text ?? "").split(separator: "\n", omittingEmptySubsequences: false)
                    .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                #expect(
                    !lines.isEmpty && lines.allSatisfy { $0.hasPrefix("//") },
                    "\(path) should hold only a comment: what lives in \(room)/ and what it may use")
            }
        }
    }

    @Test("No room holds more than 15 files")
    func roomsStaySmall() {
        for module in roomedModules {
            for room in entries(module) where isFolder("\(module)/\(room)") {
                let files = entries("\(module)/\(room)")
                #expect(
                    files.count <= Self.mostFilesPerFolder,
                    "\(module)/\(room) holds \(files.count) files; split it by concern (README.md, \"The rooms of the code\")"
                )
            }
        }
    }

    @Test("The workbook's own code and the solutions guard shared state with Locked or NSLock, never Mutex")
    func noMutexInTheWorkbooksCode() throws {
        // On Linux, Thread Sanitizer can't see the futex `Mutex` waits on and reports races that
        // aren't there, 1 run in several: the gates' race check, which runs the solutions, would
        // fail by chance (chapter 13's did, 6 runs in 40). The chapters may teach `Mutex`, and a
        // right fix in Variants/ may use it; the modules the race check runs don't.
        let use = try Regex(#"\bMutex\s*[<(]"#)
        var checked = 0
        for folder in ["Sources", "Solutions"] {
            let root = packageRoot.appendingPathComponent(folder)
            let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
            for file in files where file.hasSuffix(".swift") && !file.contains("/Variants/") {
                checked += 1
                let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") && line.contains(use) {
                    Issue.record("\(folder)/\(file):\(number + 1) uses Mutex; use Locked (SimulatedWorld) or NSLock")
                }
            }
        }
        #expect(checked > 0, "no Swift files under Sources/")
    }

    @Test("Every exit test in the workbook's tests waits for its child off the cooperative pool")
    func exitTestsWaitOffThePool() throws {
        // Swift Testing reads an exit test's results with blocking reads on the caller's
        // executor: outside `offThePool`, a few exit tests at once hold every pool thread, and
        // the process's other tests stand still until their children end (see OffThePool.swift).
        let exitTest = try Regex(#"#(expect|require)\(\s*processExitsWith:"#)
        let tests = packageRoot.appendingPathComponent("Tests")
        let files = FileManager.default.enumerator(atPath: tests.path)?.compactMap { $0 as? String } ?? []
        var seen = 0
        for file in files where file.hasSuffix(".swift") {
            let lines = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() where line.contains(exitTest) && line.contains("await #") {
                seen += 1
                // A SharedChild's launch is called inside `offThePool` by SharedChild itself.
                let previous = number > 0 ? lines[number - 1] : ""
                let opening =
                    line.contains("offThePool {") || previous.contains("offThePool {")
                    || (previous.contains("SharedChild<") && previous.contains("{ log,"))
                if !opening {
                    Issue.record("Tests/\(file):\(number + 1) runs an exit test outside `offThePool { … }`")
                }
            }
        }
        #expect(seen > 0, "no exit test found under Tests/")
    }
}
