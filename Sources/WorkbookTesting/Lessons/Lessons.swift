// How a test speaks to the learner.
//
// `Lesson` is one bug a chapter teaches; `.exposesBug` and `.mayExposeBug` mark the tests that
// fail on the unfixed exercise because of it; `LessonDetail` and `FailureWording` word what a test
// observed; `WorkbookMode` tells learner mode from the exercise check.
//
// Uses Swift Testing, Foundation and SimulatedWorld's controls. Every other room of
// WorkbookTesting may use it.
