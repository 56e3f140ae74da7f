// Running child processes under limits, and reading how a run ended.
//
// `Subprocess` starts a tool and stops everything it started on Ctrl-C; `ProcessTree` finds and
// ends a child's descendants; `LimitedRun` runs a child under `RunLimits` (time and memory);
// `TestEventStream` reads Swift Testing's JSON event stream and `RunAccounting` says what a run
// that ended early means for the tests that did not finish. `ToolTemporaryFolder` is the TMPDIR
// the children get.
//
// May use Checkout and Text. It knows nothing of chapters' statuses or of what a command prints.
