import Foundation

/// The hard limits of one learner test run (`list`, `check`, `watch`): an exercise that
/// loops or allocates for ever is stopped and reported, never waited for.
public struct RunLimits: Equatable, Sendable {
    /// Seconds the tests may run, counted from the moment the test process starts (the
    /// build before it has no limit). Far above a normal run of every chapter (a few seconds).
    public var timeLimit: Int
    /// Gigabytes of memory each process of the run may take (Linux; other systems do not
    /// enforce the limit). A normal run needs well under one; so does the compiler.
    public var memoryLimit: Double

    public static let defaultTimeLimit = 60
    public static let defaultMemoryLimit = 2.0

    public init(timeLimit: Int = RunLimits.defaultTimeLimit, memoryLimit: Double = RunLimits.defaultMemoryLimit) {
        self.timeLimit = timeLimit
        self.memoryLimit = memoryLimit
    }

    /// The memory limit in words: "2 GB", "0.5 GB".
    public var memoryLimitText: String {
        memoryLimit == memoryLimit.rounded() ? "\(Int(memoryLimit)) GB" : "\(memoryLimit) GB"
    }

    /// The memory limit in kilobytes, as `ulimit -d` takes it.
    public var memoryLimitKilobytes: Int { Int(memoryLimit * 1024 * 1024) }

    /// The commands that run tests, and so take the options.
    public static let commands: Set<CommandName> = [.list, .check, .watch, .report, .grade]

    /// Takes `--time-limit` and `--memory-limit` (with their values, or as `--x=value`) out
    /// of `arguments`. Returns the limits, the other arguments, and whether any was given.
    public static func extract(from arguments: [String]) throws(UsageError) -> (
        limits: RunLimits, rest: [String], given: Bool
    ) {
        var limits = RunLimits()
        var rest: [String] = []
        var given = false
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            guard let name = parts.first, name == "--time-limit" || name == "--memory-limit" else {
                rest.append(argument)
                index += 1
                continue
            }
            let value: String
            if parts.count == 2 {
                value = parts[1]
                index += 1
            } else if index + 1 < arguments.count {
                value = arguments[index + 1]
                index += 2
            } else {
                let example = "\(name) \(name == "--time-limit" ? "60" : "2")"
                throw UsageError(id: "usage.limitMissing", ["option": name, "example": example])
            }
            given = true
            if name == "--time-limit" {
                guard let seconds = Int(value), seconds > 0 else {
                    throw UsageError(id: "usage.timeLimit", ["value": value])
                }
                limits.timeLimit = seconds
            } else {
                guard let gigabytes = Double(value), gigabytes > 0, gigabytes.isFinite else {
                    throw UsageError(id: "usage.memoryLimit", ["value": value])
                }
                limits.memoryLimit = gigabytes
            }
        }
        return (limits, rest, given)
    }
}

extension RunLimits {
    /// Refuses the limit options on a command that runs no tests.
    static func check(_ given: Bool, for command: Command) throws(UsageError) {
        guard given else { return }
        switch command {
        case .list, .check, .watch, .report, .grade, .help: return
        default:
            throw UsageError(id: "usage.limitsOnlyForRuns")
        }
    }
}
