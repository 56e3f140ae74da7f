// Part II's compile checks: a chapter's sources compiled in Swift 6 mode by the toolchain's own
// compiler, each diagnostic turned into a lesson.
//
// `Swift6Check` runs the compile (`SwiftCompiler`) on the files `ChapterSources` finds and reads
// `CompilerDiagnostic`s back, keeping what a compile printed for later processes with the same
// inputs (`CompileResultStore`); `EscapeHatch` finds where learner code switches a check off.
//
// Uses Lessons and SimulatedWorld's controls.
