// The simulated devices and SDKs an app talks to through callbacks and delegates.
//
// `SocialLoginSDK`, `ContactPicker` (a picker and its delegate), `BikeComputer` (a Bluetooth
// device), `CameraRoll` (the photo library) and `SlowRenderer` (a renderer on a queue of its own).
//
// May use Controls and the models of Services (`Thumbnail`).
