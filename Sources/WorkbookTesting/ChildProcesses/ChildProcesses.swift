// Scenarios that may crash or block every thread, run in a child process (an exit test).
//
// `CrashLog` keeps what the child wrote to standard error and `CrashDiagnosis` explains a trap in
// the learner's terms; `PoolWatchdog` ends a child whose cooperative thread pool is stuck, and
// says why.
//
// Uses Lessons and SimulatedWorld's controls.
