import Foundation
import WorkbookCurriculum

/// `workbook report`: one learner run of every chapter, as JSON, JUnit or Markdown.
extension Session {
    func report(_ options: ReportOptions) throws -> Int32 {
        let report: WorkbookReport
        if let from = options.from {
            let url = URL(fileURLWithPath: from, relativeTo: workingDirectory)
            let data: Data
            do { data = try Data(contentsOf: url) } catch {
                err("workbook: report: can't read \(from): \(error.localizedDescription)\n")
                return 1
            }
            do { report = try WorkbookReport.read(data) } catch let error as UsageError {
                err("workbook: report: \(from): \(error.message)\n")
                return 1
            } catch {
                err("workbook: report: \(from) is not a workbook report: \(error)\n")
                return 1
            }
        } else {
            report = try makeReport()
        }
        let text: String
        switch options.format {
        case .json: text = try report.json()
        case .junit: text = JUnitReport.render(report)
        case .markdown: text = report.markdown()
        }
        if let output = options.output {
            let url = URL(fileURLWithPath: output, relativeTo: workingDirectory)
            do { try Data(text.utf8).write(to: url) } catch {
                err("workbook: report: can't write \(output): \(error.localizedDescription)\n")
                return 1
            }
            err("Wrote the \(options.format.rawValue) report to \(output).\n")
        } else {
            out(text)
        }
        if options.failIfTampered, report.summary.tampered {
            err(
                "Files the results depend on were changed:\n"
                    + report.tamperFindings.map { "  • \($0.message)\n" }.joined())
            return 1
        }
        return 0
    }

    /// One run of every chapter, reported as it is: no last-known statuses, and nothing recorded.
    func makeReport() throws -> WorkbookReport {
        let run = try LearnerRun.perform(
            for: curriculum.chapters, in: layout, limits: limits, say: say, progress: progress)
        let statuses = run.statuses(of: curriculum.chapters, curriculum: curriculum, tamper: try tamperReport())
        return WorkbookReport.make(
            curriculum: curriculum, statuses: statuses, run: run, tamper: try tamperFindings(),
            workbook: .of(layout, title: curriculum.title), toolchain: Toolchain.version(in: layout.root))
    }
}

extension WorkbookReport.WorkbookInfo {
    /// The checkout at `layout`: its commit and the hash of its record of the tests.
    static func of(_ layout: PackageLayout, title: String, record: URL? = nil) -> Self {
        let recordData = FileManager.default.contents(atPath: (record ?? layout.url(PackageLayout.hashesPath)).path)
        return Self(
            title: title, commit: GitHead.commit(at: layout.root),
            testHashes: recordData.map { SHA256.hex(Array($0)) })
    }
}

/// The toolchain's version, as `swift --version` says it.
enum Toolchain {
    static func version(in directory: URL) -> String? {
        guard let result = Subprocess.capture(["swift", "--version"], in: directory), result.status == 0 else {
            return nil
        }
        let lines = String(decoding: result.output, as: UTF8.self).split(whereSeparator: \.isNewline)
        return (lines.first { $0.contains("Swift version") } ?? lines.first).map(String.init)
    }
}

/// A checkout's current commit, read from its `.git` files: never by running git, whose
/// configuration in a checkout someone else made could run commands.
public enum GitHead {
    public static func commit(at root: URL) -> String? {
        var gitDirectory = root.appendingPathComponent(".git")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: gitDirectory.path, isDirectory: &isDirectory) else { return nil }
        if !isDirectory.boolValue {
            // A worktree or submodule: `.git` is a file that says "gitdir: <path>".
            guard let text = read(gitDirectory), text.hasPrefix("gitdir: ") else { return nil }
            gitDirectory = URL(fileURLWithPath: String(text.dropFirst("gitdir: ".count)), relativeTo: root)
        }
        guard let head = read(gitDirectory.appendingPathComponent("HEAD")) else { return nil }
        guard head.hasPrefix("ref: ") else { return isCommit(head) ? head : nil }
        let reference = String(head.dropFirst("ref: ".count))
        var places = [gitDirectory]
        if let common = read(gitDirectory.appendingPathComponent("commondir")) {
            places.append(URL(fileURLWithPath: common, relativeTo: gitDirectory))
        }
        for place in places {
            if let commit = read(place.appendingPathComponent(reference)), isCommit(commit) { return commit }
            let packed = read(place.appendingPathComponent("packed-refs")) ?? ""
            for line in packed.split(whereSeparator: \.isNewline) {
                let fields = line.split(separator: " ")
                if fields.count == 2, fields[1] == reference, isCommit(String(fields[0])) { return String(fields[0]) }
            }
        }
        return nil
    }

    static func read(_ url: URL) -> String? {
        (try? String(contentsOf: url, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func isCommit(_ text: String) -> Bool {
        (text.count == 40 || text.count == 64) && text.allSatisfy(\.isHexDigit)
    }
}
