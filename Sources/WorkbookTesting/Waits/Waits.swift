// Waiting for something that might never happen, and paying for it only when it doesn't.
//
// Bounded waits (`withinHangLimit`, with a progress count that restarts the limit); `HangTally`,
// which counts the waits that gave up during an exploration run; `ContinuationLeaks`, the
// runtime's report of a continuation destroyed unresumed, which ends a wait early.
//
// Uses Lessons and SimulatedWorld's controls.
