// The command line: the top of the `workbook` tool.
//
// `Workbook` parses the arguments (`Command`, and the options of `verify`, `report` and `grade`)
// and runs one command in a `Session`; each `Session+…` file is one family of commands. `Help`
// is every command's `--help`.
//
// May use every other room of WorkbookCLI. The other rooms use only `Command`, `CommandName`
// and `UsageError` from here, to read their own options (`--lang`, the run limits).
