// The simulated screens and UI, in the roles of UIKit's classes, without UIKit.
//
// `ScreenHost` presents and dismisses screens; `ListView` and `ListCell` scroll rows in and out
// of sight; `SimulatedScreen` counts redraws; `ProgressBar` is a UI class from before Swift
// concurrency; `SignInPrompt` is a sign-in sheet; `ScreenRegistry` is the list of live screens
// that screens sign up with.
//
// May use Controls, and the models of Services (`Thumbnail`) and Networking
// (credentials).
