import Foundation
import SimulatedWorld

// Small pieces of failure messages that several chapters write the same way.

/// A priority as a learner would write it in Swift, for example `.userInitiated`.
public func describe(_ priority: TaskPriority) -> String {
    switch priority {
    case .userInitiated: ".userInitiated"
    case .medium: ".medium"
    case .utility: ".utility"
    case .background: ".background"
    default: "priority \(priority.rawValue)"
    }
}

/// How a call ended with `error`, for example `it threw URLError(.cancelled)`.
public func describeThrown(_ error: any Error) -> String {
    if let error = error as? URLError {
        return "it threw URLError(\(error.code == .cancelled ? ".cancelled" : "code \(error.code.rawValue)"))"
    }
    return "it threw \(error)"
}

/// The ids of the requests `service` started, quoted and in order: `["a", "b"]`.
public func startedIds(_ service: ThumbnailService) -> String {
    "[" + service.startedRequests.map { "\"\($0.id)\"" }.joined(separator: ", ") + "]"
}
