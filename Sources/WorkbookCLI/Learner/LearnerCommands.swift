import Foundation
import WorkbookCurriculum

/// The commands of one learner run: how the tests are built, and how they are run.
///
/// On Linux the tool builds only the test product, `swift build --product <name>PackageTests`:
/// the chapters' exercises and tests and what they import, but not the solution modules, which
/// learner mode never links (a plain `swift build` or `swift test` builds every target of the
/// package, and a trait can't leave a target out). It then runs the built test executable
/// itself, with Swift Testing's own options. That is one SwiftPM start-up per check instead of
/// two (`swift test` plans the whole package again before it runs anything), and no empty XCTest
/// pass. Elsewhere (macOS loads tests from a bundle), or when the package name can't be read,
/// one `swift test` builds and runs, as before.
public struct LearnerCommands: Sendable, Equatable {
    /// Builds the tests; nil when ``test`` builds them itself.
    public var build: [String]?
    /// Runs the tests of the chosen chapters (the event-stream options are added by the run).
    public var test: [String]
    /// The test product ``build`` makes, which a ``QuickBuild`` may bring up to date instead.
    public var product: String?

    public init(build: [String]?, test: [String], product: String? = nil) {
        self.build = build
        self.test = test
        self.product = product
    }

    /// The commands for `chapters` in `layout`, on this system.
    public init(for chapters: [Curriculum.Chapter], in layout: PackageLayout) {
        #if os(Linux)
            self.init(for: chapters, in: layout, runBinaryDirectly: true)
        #else
            self.init(for: chapters, in: layout, runBinaryDirectly: false)
        #endif
    }

    /// The commands for `chapters` in `layout`: the built executable run directly, or `swift test`.
    public init(for chapters: [Curriculum.Chapter], in layout: PackageLayout, runBinaryDirectly: Bool) {
        // No default trait, whatever Package.swift declares (SwiftPM refuses the flag for a
        // package that declares no traits, like a student edition).
        let traits = layout.declaresTraits ? ["--disable-default-traits"] : []
        let filters = chapters.flatMap { ["--filter", $0.testTarget] }
        guard runBinaryDirectly, let product = layout.testProductName else {
            self.init(build: nil, test: ["swift", "test"] + traits + filters)
            return
        }
        let binary = layout.url("\(PackageLayout.learnerScratchPath)/debug/\(product).xctest").path
        self.init(
            build: ["swift", "build", "--product", product] + traits,
            test: [binary, "--testing-library", "swift-testing"] + filters, product: product)
    }
}
