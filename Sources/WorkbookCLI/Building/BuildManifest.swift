import Foundation

/// The llbuild manifest SwiftPM writes for a build (`.build/debug.yaml`), read for ``QuickBuild``.
///
/// Only the parts a rebuild needs: the targets (name → nodes) and the commands (tool, inputs,
/// outputs, command line). SwiftPM writes the file in a regular shape: a section name at the
/// start of a line, two spaces before a target or command name, four before a command's keys,
/// and each list as a JSON array on one line.
struct BuildManifest {
    struct Command {
        var name: String
        var tool = ""
        var inputs: [String] = []
        var outputs: [String] = []
        /// The command line of a `shell` step, as the manifest writes it (a JSON list, or one
        /// JSON string for `/bin/sh -c`). Read only for the steps a build runs: decoding every
        /// step's command line took a quarter of a check's own time.
        var argumentsText: String?

        /// The command line of a `shell` step, or nil if it has none or it can't be read.
        var arguments: [String]? {
            guard let text = argumentsText else { return nil }
            if let arguments = BuildManifest.decodeList(text) { return arguments }
            return BuildManifest.decodeString(text).map { ["/bin/sh", "-c", $0] }
        }
    }

    /// The steps that make a target, in an order that runs each after the steps it reads from.
    struct Plan {
        /// Indexes into ``BuildManifest/commands``.
        var steps: [Int]
        /// Every file the steps read or write (not `<virtual>` nodes, nor folders).
        var files: Set<String>
        /// The files a step writes.
        var producedFiles: Set<String>
    }

    struct Malformed: Error {
        var line: Int
    }

    var targets: [String: [String]] = [:]
    var commands: [Command] = []

    static func parse(_ text: String) throws(Malformed) -> BuildManifest {
        var manifest = BuildManifest()
        var section = ""
        var current: Command?
        func finish() {
            if let command = current { manifest.commands.append(command) }
            current = nil
        }
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(raw)
            if line.isEmpty { continue }
            if !line.hasPrefix(" ") {
                finish()
                section = String(line.prefix { $0 != ":" })
                continue
            }
            switch section {
            case "targets":
                guard let colon = line.range(of: "\": ["),
                    let name = decodeString(String(line[..<colon.lowerBound]) + "\"")
                else { throw Malformed(line: index + 1) }
                guard let nodes = decodeList(String(line[line.index(before: colon.upperBound)...])) else {
                    throw Malformed(line: index + 1)
                }
                manifest.targets[name] = nodes
            case "commands":
                if line.hasPrefix("    ") {
                    guard current != nil, let colon = line.range(of: ": ") else { throw Malformed(line: index + 1) }
                    let key = line[..<colon.lowerBound].trimmingCharacters(in: .whitespaces)
                    let value = String(line[colon.upperBound...])
                    switch key {
                    case "tool": current?.tool = value
                    case "inputs": current?.inputs = try list(value, index)
                    case "outputs": current?.outputs = try list(value, index)
                    case "args": current?.argumentsText = value
                    default: break
                    }
                } else {
                    finish()
                    guard line.hasSuffix(":"),
                        let name = decodeString(String(line.dropLast()).trimmingCharacters(in: .whitespaces))
                    else { throw Malformed(line: index + 1) }
                    current = Command(name: name)
                }
            default:
                continue
            }
        }
        finish()
        return manifest
    }

    /// The steps that make the test product `product` (the target named `<product>-…`), or nil.
    func plan(for product: String) -> Plan? {
        guard let goal = targets.first(where: { $0.key.hasPrefix(product + "-") && $0.key.hasSuffix(".test") })?.value
        else { return nil }
        var producer: [String: Int] = [:]
        for (index, command) in commands.enumerated() {
            for output in command.outputs { producer[output] = index }
        }
        var steps: [Int] = []
        var visited = Set<Int>()
        // Depth first, iteratively: a step is listed after every step that makes its inputs.
        var stack: [(node: String, expanded: Bool)] = goal.reversed().map { ($0, false) }
        while let (node, expanded) = stack.popLast() {
            guard let index = producer[node] else { continue }
            if expanded {
                if visited.insert(index).inserted { steps.append(index) }
                continue
            }
            if visited.contains(index) { continue }
            stack.append((node, true))
            for input in commands[index].inputs.reversed() where producer[input].map({ !visited.contains($0) }) ?? true
            {
                stack.append((input, false))
            }
        }
        let produced = Set(steps.flatMap { commands[$0].outputs.filter(Self.isFile) })
        let files = produced.union(steps.flatMap { commands[$0].inputs.filter(Self.isFile) })
        return Plan(steps: steps, files: files, producedFiles: produced)
    }

    /// Whether `node` is a file: not a `<virtual>` node, nor a folder (`…/`, whose signature
    /// changes with anything inside it).
    static func isFile(_ node: String) -> Bool { !node.hasPrefix("<") && !node.hasSuffix("/") }

    private static func list(_ value: String, _ index: Int) throws(Malformed) -> [String] {
        guard let list = decodeList(value) else { throw Malformed(line: index + 1) }
        return list
    }

    fileprivate static func decodeList(_ value: String) -> [String]? {
        try? JSONDecoder().decode([String].self, from: Data(value.utf8))
    }

    fileprivate static func decodeString(_ value: String) -> String? {
        try? JSONDecoder().decode(String.self, from: Data(value.utf8))
    }
}
