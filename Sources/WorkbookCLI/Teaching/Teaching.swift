// The teacher's tools.
//
// `StudentEdition` writes the workbook without its solutions, with `StudentReadme` and the CI
// workflow of `StudentWorkflow`. `WorkbookReport` (and `JUnitReport`) is `report`: one learner
// run as JSON, JUnit or Markdown. `ClassGrading` and `ClassTable` are `grade`: each student's
// exercises against the teacher's tests, and the class table.
//
// May use Learner (a report is one learner run), Building, Processes and Checkout. Its output
// is in English.
