// Instruments that walk a small state space on their own (see EXPLORATION.md in this folder).
//
// Every cancel point, every failure point, every interleaving of held steps, and operation
// sequences against a model (seeded, shrunk); `ExplorationReport` gathers what a run broke, with
// a reproducer; `RaceRounds` sizes scenarios that race threads on purpose.
//
// Uses Lessons, Waits and SimulatedWorld's controls.
