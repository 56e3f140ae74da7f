// The controls tests hold the simulated world with.
//
// `Gate` holds async work until the test opens it, and `HeldRequests` holds requests at one
// gate per key until the test decides; `ManualClock` is time that moves only when
// the test says so; `ObservedCount` is a count a test can await instead of sleeping; `Locked`
// is a value behind a lock; `ScheduledCallbacks` counts completion handlers still to run;
// `MainQueue` and `MainActorProbe` tell where work ran and whether the main actor was free.
//
// Uses only the standard library, Foundation, Dispatch and Synchronization. Every other room of
// SimulatedWorld may use it.
