import Foundation

/// How many rounds a scenario that races two threads on purpose should play.
///
/// Such a scenario (two endings of one attempt at the same moment, say) proves little in one
/// round: most interleavings are harmless, and the harmful one is rare. Ordinary runs play
/// `ordinary` rounds. `workbook check NN --race` sets `WORKBOOK_RACE_ROUNDS` higher, so that
/// Thread Sanitizer sees enough interleavings to catch a flag without a lock.
public func raceRounds(ordinary: Int = 200) -> Int {
    let requested = ProcessInfo.processInfo.environment["WORKBOOK_RACE_ROUNDS"].flatMap { Int($0) }
    return max(1, requested ?? ordinary)
}
