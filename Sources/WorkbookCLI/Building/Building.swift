// Building the learner's tests.
//
// `QuickBuild` (with `BuildManifest`, SwiftPM's llbuild manifest) rebuilds after an edit without
// starting SwiftPM when it can be sure that is safe; `BuildProgress` shows a build as it runs;
// `BuildFailure` and `BuildDiagnostics` put a failed build in the learner's terms.
//
// May use Processes (to run the build), Checkout and Text.
