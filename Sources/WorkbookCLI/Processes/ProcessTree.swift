import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The processes below one child, so that all of them can be ended together.
///
/// SwiftPM starts the test process in a process group of its own, and the test process
/// starts exit-test children, so signalling the child's group is not enough: a killed
/// `swift-test` would leave the test process running, orphaned. Instead the whole tree is
/// frozen (SIGSTOP, so that nothing in it can start or orphan another process), walked
/// again until nothing new appears, and then killed, together with the process groups its
/// members lead.
public enum ProcessTree {
    /// One process, as the process table shows it.
    public struct Member: Equatable, Sendable {
        public var pid: pid_t
        public var parent: pid_t
        public var group: pid_t
        /// When it started (clock ticks since boot on Linux; 0 where unknown), to tell a
        /// process from a later one that got the same pid.
        public var start: UInt64
        /// Already dead, waiting to be reaped: it can start nothing.
        public var isZombie: Bool

        public init(pid: pid_t, parent: pid_t, group: pid_t, start: UInt64, isZombie: Bool) {
            self.pid = pid
            self.parent = parent
            self.group = group
            self.start = start
            self.isZombie = isZombie
        }
    }

    /// Every process on the machine, by pid.
    public static func table() -> [pid_t: Member] {
        var members: [pid_t: Member] = [:]
        #if os(Linux)
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [:] }
            for entry in entries {
                guard let pid = pid_t(entry),
                    let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                    let member = parseStat(stat, pid: pid)
                else { continue }
                members[pid] = member
            }
        #else
            // ps is everywhere the workbook runs; its start time is not needed to stop a tree.
            guard
                let (status, output) = Subprocess.capture(
                    ["ps", "-axo", "pid=,ppid=,pgid=,stat="], in: URL(fileURLWithPath: "/")),
                status == 0
            else { return [:] }
            for line in String(decoding: output, as: UTF8.self).split(separator: "\n") {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard fields.count >= 4, let pid = pid_t(fields[0]), let parent = pid_t(fields[1]),
                    let group = pid_t(fields[2])
                else { continue }
                members[pid] = Member(
                    pid: pid, parent: parent, group: group, start: 0, isZombie: fields[3].hasPrefix("Z"))
            }
        #endif
        return members
    }

    /// Reads one line of `/proc/<pid>/stat`. The command name, in parentheses, may hold
    /// spaces and parentheses itself, so the fields are counted from the last `)`.
    public static func parseStat(_ text: String, pid: pid_t) -> Member? {
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ", omittingEmptySubsequences: true)
        // fields[0] is field 3 of proc(5): state; then ppid, pgrp, …; starttime is field 22.
        guard fields.count > 19, let parent = pid_t(fields[1]), let group = pid_t(fields[2]),
            let start = UInt64(fields[19])
        else { return nil }
        return Member(pid: pid, parent: parent, group: group, start: start, isZombie: fields[0] == "Z")
    }

    /// `root` (if it is still there) and every process below it, parents before children.
    public static func members(of root: pid_t, in table: [pid_t: Member]) -> [Member] {
        var children: [pid_t: [Member]] = [:]
        for member in table.values { children[member.parent, default: []].append(member) }
        var found: [Member] = table[root].map { [$0] } ?? []
        var queue = [root]
        var seen: Set<pid_t> = [root]
        while let pid = queue.popLast() {
            for child in children[pid] ?? [] where seen.insert(child.pid).inserted {
                found.append(child)
                queue.append(child.pid)
            }
        }
        return found
    }

    /// The tree below `root` as it is now: what to end later, even if `root` goes first
    /// and its children are handed to another parent.
    public static func snapshot(below root: pid_t) -> [Member] {
        members(of: root, in: table())
    }

    /// Ends `root`, every process below it, and every process of `earlier` (a snapshot)
    /// that is still the same process, with whatever is below those. Never this process,
    /// its own process group, or pid 1.
    public static func end(root: pid_t, earlier: [Member] = []) {
        let me = getpid()
        let myGroup = getpgrp()
        var stopped: [pid_t: Member] = [:]
        for _ in 0..<100 {
            let now = table()
            var targets = members(of: root, in: now)
            for member in earlier where now[member.pid]?.start == member.start {
                targets += members(of: member.pid, in: now)
            }
            let fresh = targets.filter { member in
                stopped[member.pid] == nil && !member.isZombie && member.pid != me && member.pid > 1
            }
            if fresh.isEmpty { break }
            for member in fresh {
                kill(member.pid, SIGSTOP)
                stopped[member.pid] = member
            }
        }
        for pid in stopped.keys { kill(pid, SIGKILL) }
        // A process started in the instant before its parent stopped is in its parent's
        // group; groups led by a member of the tree were made by the tree.
        let groups = Set(stopped.values.map(\.group)).filter { group in
            group > 1 && group != myGroup && stopped[group] != nil
        }
        for group in groups { kill(-group, SIGKILL) }
    }

    /// Whether `pid` still runs (a zombie does not).
    public static func isRunning(_ pid: pid_t) -> Bool {
        #if os(Linux)
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let member = parseStat(stat, pid: pid)
            else { return false }
            return !member.isZombie
        #else
            return kill(pid, 0) == 0
        #endif
    }
}
