import Foundation
import WorkbookCLI

// `swift run workbook [command]`: everything lives in WorkbookCLI, where it is tested.
exit(Workbook.forCommandLine().run(Array(CommandLine.arguments.dropFirst())))
