// The words of the tool, in the learner's language.
//
// `Language` is the language a command speaks (`--lang`, `WORKBOOK_LANG`, the locale).
// `Strings` (with `Strings+Korean` and `Help+Korean`) is everything the learner's commands print.
// `LessonText`, `LessonTranslator` and `DetailLines` show a test's failure message in the
// learner's language; `TextWrap` wraps long lines to the terminal's width.
//
// Uses Foundation and WorkbookCurriculum, and the names of what it words from the other rooms
// (`CommandName`, `RunLimits`, `RunAccounting`, `TamperFindings`); their logic never reaches here.
