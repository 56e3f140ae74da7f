/// A tiny, fast pseudo-random generator with a 64-bit seed (SplitMix64, by Sebastiano Vigna).
///
/// The same seed gives the same numbers on every platform and toolchain, so a failing
/// sequence of operations can be replayed from its printed seed. Use ``below(_:)`` and
/// ``pick(_:)`` rather than the standard library's `random(in:using:)`, whose way of turning
/// bits into a range is not promised to stay the same.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's whole state.
    public private(set) var state: UInt64

    /// A generator that starts from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound` must be positive).
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "below(_:) needs a positive bound")
        return Int(next() % UInt64(bound))
    }

    /// One element of `choices` (which must not be empty).
    public mutating func pick<Element>(_ choices: [Element]) -> Element {
        choices[below(choices.count)]
    }
}

/// The seeds every model check runs in CI: fixed, so the verdict never depends on chance.
public let fixedSeeds: [UInt64] = [1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987, 1597]

/// Every sequence of `length` operations drawn from `operations`, in a fixed order (the first
/// operation changes slowest): `operations.count` to the power `length` of them. A suite walks
/// a small state space whole with these, then samples longer sequences from ``fixedSeeds``.
public func everySequence<Operation>(of length: Int, from operations: [Operation]) -> [[Operation]] {
    (0..<length).reduce([[]]) { sequences, _ in
        sequences.flatMap { sequence in operations.map { sequence + [$0] } }
    }
}

/// Where a sequence of operations first made the type and its model disagree.
public struct ModelMismatch<Observation: Sendable & Equatable>: Sendable, Equatable {
    /// The step, counted from 1, where the observations first differ.
    public let step: Int
    /// What the model observed there (`nil`: the model saw no such step).
    public let expected: Observation?
    /// What the type observed there (`nil`: the type gave no observation for that step).
    public let actual: Observation?
}

/// Operation sequences against a model: a stateful type checked against a tiny reference
/// model of its contract, on short sequences of operations generated from a seed.
///
/// A failing sequence is shrunk to a shortest one that still fails (delta debugging: drop
/// chunks of operations, then single operations, then simplify what is left), and the
/// report prints the seed and the shrunk sequence, step by step, with both observations.
///
/// Both sides run a whole sequence from a fresh start and return one observation per
/// operation, for example what each `value(for:)` returned, or "threw".
public struct ModelCheck<Operation: Sendable & CustomStringConvertible, Observation: Sendable & Equatable>: Sendable {
    /// Names the type and scenario in reproducers, for example "ThumbnailCache".
    public let name: String
    /// The lesson a disagreement teaches.
    public let lesson: Lesson
    /// How many operations a generated sequence has.
    public let length: Int
    /// Makes one operation from the generator.
    public let generate: @Sendable (inout SplitMix64) -> Operation
    /// Simpler operations to try in place of one while shrinking (smaller key, smaller
    /// amount); none by default.
    public let simplify: @Sendable (Operation) -> [Operation]
    /// Runs the sequence on a fresh instance of the real type.
    public let real: @Sendable ([Operation]) async -> [Observation]
    /// Runs the sequence on the reference model.
    public let model: @Sendable ([Operation]) -> [Observation]

    /// A check of `real` against `model` on sequences of `length` operations.
    public init(
        _ name: String, lesson: Lesson, length: Int = 8,
        generate: @escaping @Sendable (inout SplitMix64) -> Operation,
        simplify: @escaping @Sendable (Operation) -> [Operation] = { _ in [] },
        real: @escaping @Sendable ([Operation]) async -> [Observation],
        model: @escaping @Sendable ([Operation]) -> [Observation]
    ) {
        self.name = name
        self.lesson = lesson
        self.length = length
        self.generate = generate
        self.simplify = simplify
        self.real = real
        self.model = model
    }

    /// The sequence `seed` generates: the same every time.
    public func sequence(seed: UInt64) -> [Operation] {
        var generator = SplitMix64(seed: seed)
        return (0..<length).map { _ in generate(&generator) }
    }

    /// Runs `operations` on both sides; returns where they first disagree, or `nil`.
    public func mismatch(_ operations: [Operation]) async -> ModelMismatch<Observation>? {
        let observed = await real(operations)
        ProgressPulse.beat()
        return Self.firstDifference(model(operations), observed)
    }

    /// Where `actual` first differs from `expected`, or `nil`.
    static func firstDifference(_ expected: [Observation], _ actual: [Observation]) -> ModelMismatch<Observation>? {
        for step in 0..<max(expected.count, actual.count) {
            let want = step < expected.count ? expected[step] : nil
            let got = step < actual.count ? actual[step] : nil
            if want != got { return ModelMismatch(step: step + 1, expected: want, actual: got) }
        }
        return nil
    }

    /// Whether `operations` disagree with the model, and whether a wait of theirs hung.
    private func failsCounting(_ operations: [Operation]) async -> (fails: Bool, hung: Bool) {
        let (found, hung) = await HangTally.counting { () async -> ModelMismatch<Observation>? in
            await mismatch(operations)
        }
        return (found != nil, hung)
    }

    /// A shortest sequence found that still fails, from the failing `operations`.
    ///
    /// A candidate whose run hung costs the hang limit; after ``maxHungCandidates`` of them the
    /// shrinking stops with the shortest sequence found so far.
    public func shrink(_ operations: [Operation]) async -> [Operation] {
        var current = operations
        var changed = true
        var hungCandidates = 0
        // Whether `candidate` still fails; false once too many candidates have hung.
        func stillFails(_ candidate: [Operation]) async -> Bool {
            guard hungCandidates < Self.maxHungCandidates else { return false }
            let (fails, hung) = await failsCounting(candidate)
            if hung { hungCandidates += 1 }
            return fails
        }
        while changed {
            changed = false
            // Drop chunks, halving their size down to single operations.
            var chunk = max(current.count / 2, 1)
            while chunk >= 1 {
                var start = 0
                while start < current.count {
                    var candidate = current
                    candidate.removeSubrange(start..<min(start + chunk, current.count))
                    if await stillFails(candidate) {
                        current = candidate
                        changed = true
                    } else {
                        start += chunk
                    }
                }
                chunk /= 2
            }
            // Then simplify single operations.
            for index in current.indices {
                for simpler in simplify(current[index]) {
                    var candidate = current
                    candidate[index] = simpler
                    if await stillFails(candidate) {
                        current = candidate
                        changed = true
                        break
                    }
                }
            }
        }
        return current
    }

    /// Checks the sequence of every seed in `seeds`; each failing one is shrunk and
    /// reported with its seed.
    ///
    /// A failing sequence whose run hung is reported as it is, not shrunk, and the seeds after
    /// it are skipped (``HangTally``): each of their runs would wait out the hang limit too.
    public func explore(seeds: [UInt64] = fixedSeeds) async -> ExplorationReport {
        var findings: [ExplorationFinding] = []
        var runs = 0
        for seed in seeds {
            let operations = sequence(seed: seed)
            runs += 1
            let (fails, hung) = await failsCounting(operations)
            guard fails else { continue }
            let shrunk = hung ? operations : await shrink(operations)
            if let finding = await finding(for: shrunk, seed: seed, originalLength: operations.count) {
                findings.append(finding)
            }
            if hung {
                return ExplorationReport(
                    instrument: "operation sequences", scenario: name, runs: runs, findings: findings,
                    stoppedAfterHang: true)
            }
        }
        return ExplorationReport(
            instrument: "operation sequences", scenario: name, runs: runs, findings: findings)
    }

    /// How many shrinking candidates may hang before the shrinking stops.
    static var maxHungCandidates: Int { 2 }

    /// Replays `operations` (for example a reproducer's shrunk sequence) and reports the
    /// disagreement, if any.
    public func replay(_ operations: [Operation]) async -> ExplorationReport {
        let finding = await finding(for: operations, seed: nil, originalLength: operations.count)
        return ExplorationReport(
            instrument: "operation sequences", scenario: name, runs: 1, findings: finding.map { [$0] } ?? [])
    }

    private func finding(for operations: [Operation], seed: UInt64?, originalLength: Int) async
        -> ExplorationFinding?
    {
        let expected = model(operations)
        let actual = await real(operations)
        guard let mismatch = Self.firstDifference(expected, actual) else { return nil }
        let steps = operations.enumerated().map { index, operation in
            let want = index < expected.count ? "\(expected[index])" : "nothing"
            // Past the difference, a real run that stopped there has no observation to show.
            let got =
                index < actual.count
                ? "\(actual[index])"
                : index + 1 > mismatch.step ? "(not reached: the run stopped at the difference)" : "nothing"
            let mark = index + 1 == mismatch.step ? "   <- differs" : ""
            // " → contract: " and " | " never occur in an operation or a state, so a translation
            // can tell the four parts apart.
            return "  \(index + 1). \(operation) → contract: \(want) | \(name): \(got)\(mark)"
        }
        let origin =
            seed.map { "seed \($0), a sequence of \(originalLength) operations shrunk to \(operations.count)" }
            ?? "a sequence of \(operations.count) operations"
        let reproducer = "Reproducer: \(origin):\n" + steps.joined(separator: "\n")
        let observed =
            "step \(mismatch.step) of the sequence below gave \(mismatch.actual.map { "\($0)" } ?? "nothing") where the contract gives \(mismatch.expected.map { "\($0)" } ?? "nothing")"
        return ExplorationFinding(Violation(lesson, observed), reproducer: reproducer)
    }
}
