// The learner's run: what `list`, `check`, `watch`, `hint` and `reset` do.
//
// `LearnerRun` builds the learner's tests (the exercises, no solutions) and runs them under the
// limits (`LearnerRun+Limits`, `LearnerCommands`); `ChapterStatus` and `LastKnownStatus` turn the
// outcome into where the learner stands; `CheckReport`, `ProgressReport` and `RaceReport` are what
// `check`, `list` and `check --race` print. `HintState` remembers the hints seen, `ChangeWatcher`
// notices a save for `watch`, and `ExerciseReset` puts an exercise back as it was.
//
// May use Building, Processes, Checkout and Text. Teaching uses it: a report is one learner run.
