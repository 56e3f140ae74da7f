// The workbook checkout on disk: where things are, and whether they are as recorded.
//
// `PackageLayout` and `FileTree` say where things are in the full workbook or a student edition.
// `TestHashes` (with `SHA256`) records and compares the tests, the shared instruments and
// `Package.swift`; `RunFingerprint` is what a verdict is about, taken before and after a run;
// `TamperFindings` says in the learner's words what was edited and how to undo it.
//
// May use Processes (`git`) and Text. Every other room uses `PackageLayout`.
