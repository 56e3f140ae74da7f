// The words of the tool, in the learner's language.
//
// Every word a learner reads is data: one catalog per language in `Catalogs/` (`en.json`,
// `ko.json`), keyed by message id with named parameters, read by `Catalog` (which also picks
// plurals, Korean particles and the wording of durations). `Language` is the language a command
// speaks (`--lang`, `WORKBOOK_LANG`, the locale); `Strings` is what the learner's commands print,
// from the catalog. `LessonText`, `LessonTranslator` and `DetailLines` show a test's failure
// message in the learner's language; `TextWrap` wraps long lines to the terminal's width.
//
// Uses Foundation and WorkbookCurriculum, and the names of what it words from the other rooms
// (`CommandName`, `ChapterStatus`, `TamperFindings`); their logic never reaches here.
