import Foundation

/// Rebuilds the test product after an edit without starting SwiftPM, when only the contents of
/// files changed since SwiftPM last planned the build.
///
/// SwiftPM plans a build into an llbuild manifest, `.build/debug.yaml`: each step's command line,
/// inputs and outputs. Planning the whole package again costs about a second with 20 chapters,
/// even when the only change is an edit to one exercise. So after each build SwiftPM makes for
/// the tool, the tool records (``record(product:in:sourcesBefore:)``) the manifest itself,
/// the package's structure (`Package.swift` and the names of the files in every target folder),
/// and the signature of every file the test product's steps read or write. On the next check, if
/// the manifest and the structure are as recorded, ``run(product:in:environment:memoryLimitKilobytes:)``
/// runs again, in order, the steps whose inputs changed or whose outputs are missing, with the
/// manifest's own command lines. The compiler's own incremental build does the rest. Outputs
/// SwiftPM made since are taken as they are.
///
/// Anything it can't be sure of falls back to SwiftPM, which then records again: a file added or
/// removed, an edited `Package.swift`, a different plan SwiftPM wrote since (say, for
/// `swift test --traits Solutions` in the same folder), a step only SwiftPM can run (test discovery, when the tests themselves
/// changed), or many changed files. `WORKBOOK_QUICK_BUILD=off` turns it off.
public enum QuickBuild {
    /// What a quick build did.
    public enum Outcome: Sendable, Equatable {
        /// The test product is up to date; `log` holds what the steps printed.
        case built(log: String)
        /// A step failed (a compiler error, say); `log` holds what the steps printed.
        case failed(log: String)
        /// A quick build can't be trusted here: SwiftPM must build.
        case unavailable(reason: String)
    }

    /// The record, in the build folder (a clean build removes it with everything else).
    static let recordPath = "\(PackageLayout.learnerScratchPath)/workbook-quick-build.json"
    /// The manifest as it was recorded. SwiftPM writes `debug.yaml` again on every start (even
    /// `swift run`), with the same bytes while the plan is the same: so the bytes are compared.
    static let recordedManifestPath = "\(PackageLayout.learnerScratchPath)/workbook-quick-build.yaml"
    static let manifestPath = "\(PackageLayout.learnerScratchPath)/debug.yaml"
    /// The folders whose file names make the package's structure.
    static let structureFolders = ["Sources", "Tests", "Chapters"]
    /// More changed source files than this, and SwiftPM's parallel build is faster.
    static let maximumChangedSources = 8

    /// Whether quick builds are allowed in this environment.
    public static func isEnabled(environment: [String: String]) -> Bool {
        #if os(Linux)
            return environment["WORKBOOK_QUICK_BUILD"] != "off"
        #else
            return false
        #endif
    }

    /// The signatures of the files in the target folders now: take them before SwiftPM builds,
    /// so that a file saved during the build is not recorded as built.
    public static func sourcesNow(in layout: PackageLayout) -> [String: FileSignature] {
        var signatures: [String: FileSignature] = [:]
        for folder in structureFolders {
            for path in FileTree.files(in: folder, root: layout.root) {
                let absolute = layout.url(path).path
                signatures[absolute] = FileSignature(of: absolute)
            }
        }
        return signatures
    }

    /// Records the build SwiftPM just made of `product`, with the sources' signatures taken before it.
    public static func record(product: String, in layout: PackageLayout, sourcesBefore: [String: FileSignature]) {
        guard let manifestData = try? Data(contentsOf: layout.url(manifestPath)),
            let manifest = try? BuildManifest.parse(String(decoding: manifestData, as: UTF8.self)),
            let plan = manifest.plan(for: product)
        else { return forget(in: layout) }
        var files: [String: FileSignature] = [:]
        for path in plan.files {
            let signature = plan.producedFiles.contains(path) ? FileSignature(of: path) : sourcesBefore[path]
            files[path] = signature ?? FileSignature(of: path)
        }
        let record = Record(structure: structure(of: layout), files: files)
        guard let data = try? JSONEncoder().encode(record),
            (try? manifestData.write(to: layout.url(recordedManifestPath), options: .atomic)) != nil
        else { return }
        try? data.write(to: layout.url(recordPath), options: .atomic)
    }

    /// Makes the next build compile again the chapter modules with a file saved in the same
    /// second as the version last built; returns those files (relative to the root).
    ///
    /// The Swift driver's incremental build compares a file's modification time with the one it
    /// recorded to a whole second (measured with Swift 6.3.1 on Linux): a file saved again within
    /// that second looks unchanged to it, so it keeps the object of the earlier version, though
    /// SwiftPM and a quick build both see the change and run the driver. A learner who saves,
    /// sees the verdict and saves again within a second (or `watch`, which re-checks at once)
    /// would be told about code that is no longer there. Such a file's module has its objects and
    /// incremental records removed (``RunFingerprint/invalidateBuild(of:chapters:in:scratchPath:)``),
    /// and the driver compiles all of it. The versions last built are the record's, made after
    /// each build, SwiftPM's or a quick one.
    @discardableResult
    public static func invalidateEditsWithinTheSecond(in layout: PackageLayout) -> [String] {
        guard let data = try? Data(contentsOf: layout.url(recordPath)),
            let record = try? JSONDecoder().decode(Record.self, from: data),
            let curriculum = try? layout.loadCurriculum()
        else { return [] }
        let root = layout.root.standardizedFileURL.path + "/"
        // The chapters' exercise and test files only: what a learner saves, and all that
        // `invalidateBuild` acts on (the record also holds every build output).
        let folders = RunFingerprint.folders(of: curriculum.chapters).map { root + $0 + "/" }
        var edited: [String] = []
        for (path, recorded) in record.files where folders.contains(where: path.hasPrefix) {
            // Another inode alone (a copy that kept the file's time, as a student edition's does)
            // is not a save: a save changes the time to the nanosecond, or the size.
            guard let recorded, let now = FileSignature(of: path), now.seconds == recorded.seconds,
                now.nanoseconds != recorded.nanoseconds || now.size != recorded.size
            else { continue }
            edited.append(String(path.dropFirst(root.count)))
        }
        edited.sort()
        RunFingerprint.invalidateBuild(
            of: edited, chapters: curriculum.chapters, in: layout, scratchPath: PackageLayout.learnerScratchPath)
        return edited
    }

    /// Removes the record: the next build is SwiftPM's.
    public static func forget(in layout: PackageLayout) {
        try? FileManager.default.removeItem(at: layout.url(recordPath))
        try? FileManager.default.removeItem(at: layout.url(recordedManifestPath))
    }

    /// Brings `product` up to date without SwiftPM, if the record allows it.
    public static func run(
        product: String, in layout: PackageLayout, environment: [String: String], memoryLimitKilobytes: Int?
    ) throws(Interrupted) -> Outcome {
        guard let data = try? Data(contentsOf: layout.url(recordPath)),
            var record = try? JSONDecoder().decode(Record.self, from: data)
        else { return .unavailable(reason: "no record of an earlier build") }
        guard let manifestData = try? Data(contentsOf: layout.url(manifestPath)),
            manifestData == (try? Data(contentsOf: layout.url(recordedManifestPath)))
        else { return .unavailable(reason: "SwiftPM planned a different build since") }
        guard structure(of: layout) == record.structure else {
            return .unavailable(reason: "Package.swift or the list of files changed")
        }
        guard let manifest = try? BuildManifest.parse(String(decoding: manifestData, as: UTF8.self)),
            let plan = manifest.plan(for: product)
        else { return .unavailable(reason: "the build plan could not be read") }

        // The sources as they are now: recorded as built only if the build succeeds.
        var now: [String: FileSignature?] = [:]
        for path in plan.files where !plan.producedFiles.contains(path) { now[path] = FileSignature(of: path) }
        let changedSources = now.filter { path, signature in signature != record.files[path] }
        if changedSources.count > maximumChangedSources {
            return .unavailable(reason: "\(changedSources.count) files changed")
        }

        // WORKBOOK_QUICK_BUILD=explain says why each step runs, for whoever maintains this.
        let explain = environment["WORKBOOK_QUICK_BUILD"] == "explain"
        var log = ""
        var changed = Set(changedSources.keys)
        for step in plan.steps {
            let command = manifest.commands[step]
            // A step runs when an input changed, or an output is missing. An output that is
            // there but differs from the record, with the step's inputs as recorded, was made
            // by SwiftPM since (`swift run` builds the tool's own modules, `swift test` the
            // test product): it is adopted, not made again. Making it again would change it
            // under SwiftPM, which would make it again in turn, and each build would redo the
            // other's work (a relink of the test product on every check).
            let missing = command.outputs.first { BuildManifest.isFile($0) && FileSignature(of: $0) == nil }
            let changedInput = command.inputs.first(where: changed.contains)
            guard changedInput != nil || missing != nil else {
                for output in command.outputs where BuildManifest.isFile(output) {
                    record.files[output] = FileSignature(of: output)
                }
                continue
            }
            if explain {
                let why = changedInput.map { "input \($0)" } ?? missing.map { "missing output \($0)" } ?? "?"
                FileHandle.standardError.write(Data("quick build: \(command.name): \(why)\n".utf8))
            }
            switch command.tool {
            case "phony":
                changed.formUnion(command.outputs)
            case "write-auxiliary-file":
                // Its contents follow from the structure and the configuration, both as recorded.
                continue
            case "shell":
                guard let arguments = command.arguments, !arguments.isEmpty else {
                    return .unavailable(reason: "a step has no command line")
                }
                let outcome = try LimitedRun.run(
                    commandLine(arguments), in: layout.root, environment: environment, timeLimit: nil,
                    clockStart: nil, memoryLimitKilobytes: memoryLimitKilobytes)
                log += outcome.output
                if outcome.status != 0 || outcome.signal != nil { return .failed(log: log) }
                for output in command.outputs {
                    if !BuildManifest.isFile(output) {
                        changed.insert(output)
                        continue
                    }
                    let signature = FileSignature(of: output)
                    if signature != record.files[output] { changed.insert(output) }
                    record.files[output] = signature
                }
            default:
                return .unavailable(reason: "a step only SwiftPM can run (\(command.tool)) is out of date")
            }
        }
        for (path, signature) in now { record.files[path] = signature }
        if let data = try? JSONEncoder().encode(record) {
            try? data.write(to: layout.url(recordPath), options: .atomic)
        }
        return .built(log: log)
    }

    /// A step's command line as the tool runs it: without `-parseable-output`, which SwiftPM
    /// passes the compiler to read its messages as JSON. The tool reads the compiler's errors
    /// as text, as SwiftPM prints them (``BuildFailure``).
    static func commandLine(_ arguments: [String]) -> [String] {
        arguments.filter { $0 != "-parseable-output" }
    }

    /// `Package.swift`'s contents and the names of the files in the target folders, as a digest.
    static func structure(of layout: PackageLayout) -> String {
        var text = (try? String(contentsOf: layout.url("Package.swift"), encoding: .utf8)) ?? ""
        for folder in structureFolders {
            text += "\n" + FileTree.files(in: folder, root: layout.root).joined(separator: "\n")
        }
        return SHA256.hex(SHA256.digest(Array(text.utf8)))
    }

    struct Record: Codable {
        var structure: String
        var files: [String: FileSignature?]
    }
}

/// When a file was last changed, its size and its inode: what tells a build that it changed.
public struct FileSignature: Codable, Equatable, Sendable {
    var seconds: Int
    var nanoseconds: Int
    var size: Int64
    var inode: UInt64

    /// The file's signature, or nil if there is no such file.
    public init?(of path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if os(Linux)
            seconds = Int(info.st_mtim.tv_sec)
            nanoseconds = Int(info.st_mtim.tv_nsec)
        #else
            seconds = Int(info.st_mtimespec.tv_sec)
            nanoseconds = Int(info.st_mtimespec.tv_nsec)
        #endif
        size = Int64(info.st_size)
        inode = UInt64(info.st_ino)
    }
}
