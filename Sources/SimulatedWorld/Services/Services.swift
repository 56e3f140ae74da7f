// The app's simulated services and stores, each driven by the test.
//
// `ThumbnailService` (and its callback form), `ImageHost` and `RiskDesk` (requests held until
// the test decides), `ExportStudio`, `BackgroundJobs`, `TracedBackend` (trace ids and priorities, with
// `RequestTrace`), `DiskCache`, `ThumbnailAlbum` (a store
// that is not safe from two tasks at once), and the photo editor's world (`Photo`,
// `PhotoEditing`).
//
// May use Controls.
