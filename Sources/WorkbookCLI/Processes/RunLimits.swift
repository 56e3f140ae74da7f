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

    /// The options, for help texts.
    public static let optionsHelp = """
        --time-limit SECONDS   stop a test run that takes longer (default \(defaultTimeLimit)); it names the test
                               that was still running
        --memory-limit GB      stop a test process that takes more memory (default \(Int(defaultMemoryLimit)), Linux)
        """

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
                throw UsageError(
                    "\(name): missing value (for example \(example))", korean: "\(name): 값이 빠졌습니다 (예: \(example))")
            }
            given = true
            if name == "--time-limit" {
                guard let seconds = Int(value), seconds > 0 else {
                    throw UsageError(
                        "--time-limit: give a whole number of seconds above 0, not '\(value)'",
                        korean: "--time-limit: 0보다 큰 정수 초를 주세요. 받은 값: '\(value)'")
                }
                limits.timeLimit = seconds
            } else {
                guard let gigabytes = Double(value), gigabytes > 0, gigabytes.isFinite else {
                    throw UsageError(
                        "--memory-limit: give a number of gigabytes above 0, not '\(value)'",
                        korean: "--memory-limit: 0보다 큰 기가바이트 수를 주세요. 받은 값: '\(value)'")
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
            throw UsageError(
                "--time-limit and --memory-limit apply to the commands that run tests: list, check, watch, report and grade",
                korean:
                    "--time-limit과 --memory-limit은 테스트를 실행하는 명령에만 씁니다: list, check, watch, report, grade"
            )
        }
    }
}
