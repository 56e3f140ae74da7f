import Foundation
import WorkbookCurriculum

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `workbook grade <dir>…`: the class table.
extension Session {
    func grade(_ options: GradeOptions, userID: uid_t = getuid()) throws -> Int32 {
        if let refusal = ClassGrading.refusal(userID: userID, allowRoot: options.allowRoot) {
            err(TextWrap.wrap(refusal, width: width) + "\n")
            return 1
        }
        let base = URL(fileURLWithPath: workingDirectory.path, isDirectory: true)
        let grading: ClassGrading
        do {
            grading = try ClassGrading(
                teacher: layout, curriculum: curriculum, limits: limits,
                workspace: options.workspace.map { URL(fileURLWithPath: $0, relativeTo: base).standardizedFileURL })
        } catch let refusal as ClassGrading.Refusal {
            err("workbook: \(refusal.description)\n")
            return 1
        }
        let students = ClassGrading.students(in: options.directories.map { URL(fileURLWithPath: $0, relativeTo: base) })
        let output = URL(
            fileURLWithPath: options.output ?? layout.url(PackageLayout.stateFolder + "/grades").path, relativeTo: base
        ).standardizedFileURL
        let reports = output.appendingPathComponent("students")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        let toolchain = Toolchain.version(in: layout.root)
        say(
            "Grading \(ClassTable.counted(students.count, "checkout")) against this workbook's tests "
                + "(\(curriculum.chapters.count) chapters), each in the grading copy \(workspaceName(grading)). "
                + "The first build compiles everything (a minute or two); later ones only the exercises that differ. "
                + "Each student's tests may run \(limits.timeLimit) s (--time-limit).")
        var graded: [ClassGrading.Graded] = []
        for (index, student) in students.enumerated() {
            let start = Date()
            err("[\(index + 1)/\(students.count)] \(student.name): building and testing…\n")
            let result = try grading.grade(student, toolchain: toolchain, progress: progress)
            graded.append(result)
            if let report = result.report {
                try? Data(try report.json().utf8).write(to: reports.appendingPathComponent(student.name + ".json"))
            }
            let row = ClassTable.Row(graded: result, chapterCount: curriculum.chapters.count)
            var line = "[\(index + 1)/\(students.count)] \(student.name): \(row.doneText) done"
            if !row.tamperFindings.isEmpty {
                line += ", " + ClassTable.counted(row.tamperFindings.count, "tamper finding")
            }
            if !row.notes.isEmpty { line += "; " + row.notes.joined(separator: "; ") }
            err(line + " (\(Int(Date().timeIntervalSince(start).rounded())) s)\n")
        }
        let table = ClassTable(title: curriculum.title, chapterCount: curriculum.chapters.count, graded: graded)
        let markdown = table.markdown()
        try Data(markdown.utf8).write(to: output.appendingPathComponent("class.md"))
        try Data(table.csv().utf8).write(to: output.appendingPathComponent("class.csv"))
        try Data(table.lessonsCSV().utf8).write(to: output.appendingPathComponent("lessons.csv"))
        out(markdown)
        say(
            "Wrote \(output.path)/class.md, class.csv, lessons.csv and each student's JSON report in students/.")
        return 0
    }
}

extension Session {
    /// The grading copy as the teacher would name it: relative to the checkout when it is inside.
    fileprivate func workspaceName(_ grading: ClassGrading) -> String {
        let path = grading.workspace.root.standardizedFileURL.path
        let root = layout.root.standardizedFileURL.path
        return path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
    }
}
