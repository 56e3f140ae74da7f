import Foundation

/// The class table `grade` writes, in Markdown and CSV: one row per student, and the lessons
/// most students fail.
public struct ClassTable: Equatable, Sendable {
    public struct Row: Equatable, Sendable {
        public var student: String
        /// Nil when the student could not be graded.
        public var chaptersDone: Int?
        public var chapterCount: Int
        /// The first chapter not done (its folder), nil when all are done or not graded.
        public var currentChapter: String?
        /// "path (edited)", one per finding.
        public var tamperFindings: [String]
        public var notes: [String]
        /// The lessons of the chapters the student is working on (status `failing`).
        public var failingLessons: [LessonKey]
    }

    /// A lesson, by chapter and its first line.
    public struct LessonKey: Hashable, Sendable {
        public var chapter: Int
        public var folder: String
        public var lesson: String
    }

    /// A lesson and how many students fail it.
    public struct LessonCount: Equatable, Sendable {
        public var lesson: LessonKey
        public var students: Int
    }

    public var title: String
    public var rows: [Row]
    /// The lessons failed by most students first; at most ``lessonLimit``.
    public var lessons: [LessonCount]

    public static let lessonLimit = 10

    /// The table of `graded`, in their order.
    public init(title: String, chapterCount: Int, graded: [ClassGrading.Graded]) {
        self.title = title
        rows = graded.map { Row(graded: $0, chapterCount: chapterCount) }
        var counts: [LessonKey: Int] = [:]
        for row in rows {
            for lesson in Set(row.failingLessons) { counts[lesson, default: 0] += 1 }
        }
        lessons = counts.map { LessonCount(lesson: $0.key, students: $0.value) }
            .sorted { a, b in
                (a.students, -a.lesson.chapter, b.lesson.lesson) > (b.students, -b.lesson.chapter, a.lesson.lesson)
            }
            .prefix(Self.lessonLimit).map { $0 }
    }

    public func markdown() -> String {
        var text = "# \(title): class table\n\n"
        text += "| Student | Chapters done | Current chapter | Tamper findings | Notes |\n"
        text += "| --- | --- | --- | --- | --- |\n"
        for row in rows {
            let cells = [
                row.student, row.doneText, row.currentChapter ?? (row.chaptersDone == nil ? "—" : "all done"),
                row.tamperFindings.isEmpty ? "none" : row.tamperFindings.joined(separator: "; "),
                row.notes.joined(separator: "; "),
            ]
            text += "| " + cells.map(WorkbookReport.cell).joined(separator: " | ") + " |\n"
        }
        text += "\n## The lessons most students fail\n\n"
        if lessons.isEmpty {
            text += "No student is stuck on a failing test in a chapter they have started.\n"
        } else {
            text += "Counted in the chapters each student has started and not finished.\n\n"
            text += "| Students | Chapter | Lesson |\n| --- | --- | --- |\n"
            for count in lessons {
                text += "| \(count.students) | \(count.lesson.folder) | \(WorkbookReport.cell(count.lesson.lesson)) |\n"
            }
        }
        return text
    }

    /// The students, one row each (RFC 4180).
    public func csv() -> String {
        var text = "student,chapters_done,chapter_count,current_chapter,tamper_findings,notes\n"
        for row in rows {
            text +=
                [
                    row.student, row.chaptersDone.map(String.init) ?? "", String(row.chapterCount),
                    row.currentChapter ?? "", row.tamperFindings.joined(separator: "; "),
                    row.notes.joined(separator: "; "),
                ].map(Self.field).joined(separator: ",") + "\n"
        }
        return text
    }

    /// The lessons most students fail (RFC 4180).
    public func lessonsCSV() -> String {
        "students,chapter,lesson\n"
            + lessons.map { count in
                [String(count.students), count.lesson.folder, count.lesson.lesson].map(Self.field)
                    .joined(separator: ",") + "\n"
            }.joined()
    }

    /// "1 tamper finding", "2 tamper findings": a count and its noun, in the right number.
    public static func counted(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
    }

    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

extension ClassTable.Row {
    init(graded: ClassGrading.Graded, chapterCount: Int) {
        student = graded.student.name
        notes = graded.notes
        guard let report = graded.report else {
            chaptersDone = nil
            self.chapterCount = chapterCount
            currentChapter = nil
            tamperFindings = []
            failingLessons = []
            return
        }
        chaptersDone = report.summary.chaptersDone
        self.chapterCount = report.summary.chapterCount
        currentChapter = report.summary.currentChapter
        tamperFindings = report.tamperFindings.map { "\($0.path) (\($0.change))" }
        failingLessons = report.chapters.filter { $0.status == "failing" }.flatMap { chapter in
            chapter.failingLessons.map { lesson in
                ClassTable.LessonKey(
                    chapter: chapter.number, folder: chapter.folder,
                    lesson: lesson.lesson.split(whereSeparator: \.isNewline).first.map(String.init) ?? lesson.lesson)
            }
        }
    }

    var doneText: String { chaptersDone.map { "\($0)/\(chapterCount)" } ?? "not graded" }
}
