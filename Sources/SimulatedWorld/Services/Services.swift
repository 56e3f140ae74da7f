// The app's simulated services and stores, each driven by the test.
//
// `ThumbnailService` (and its callback form), `ImageHost` and `RiskDesk` (requests held until
// the test decides), `FeedService` (a main-actor client whose requests the test answers),
// `TracedBackend` (trace ids and priorities, with `RequestTrace`), `ExportStudio`,
// `BackgroundJobs`, `DiskCache`, `ThumbnailAlbum` (a store that is not safe from two tasks at
// once), the photo editor's world (`Photo`, `PhotoEditing`), a live-score feed (`ScoreFeed`)
// and a store's change log that notes the actor of each change (`StockJournal`).
//
// May use Controls.
