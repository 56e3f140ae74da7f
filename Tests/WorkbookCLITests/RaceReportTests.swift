import Testing

@testable import WorkbookCLI

@Suite("The race check reads Thread Sanitizer's reports")
struct RaceReportTests {
    /// A report Thread Sanitizer printed for a resume-once flag without a lock (Swift 6.3.1, Linux).
    static let flagWithoutLock = #"""
        ==================
        WARNING: ThreadSanitizer: data race (pid=23902)
          Read of size 1 at 0x720c00003b99 by thread T2 (mutexes: write M0):
            #0 $s22Ch02ContinuationMisuse12LoginAttempt33_22786C9D8BA29950DB04B71F6D16255FLLC6finishyys6ResultOy14SimulatedWorld0D5TokenVs5Error_pGF /home/learner/workbook/Chapters/02-ContinuationMisuse/LoginService.swift:70:145 (ConcurrencyWorkbookPackageTests.xctest+0x14ed0e) (BuildId: 92327e0073d34c7c8e7b0277dcded8a9e5933a1b)
            #1 $s22Ch02ContinuationMisuse12LoginServiceC5login9isolation14SimulatedWorld0D5TokenVScA_pSgYi_tYaKFyyYbXEfU0_ /home/learner/workbook/Chapters/02-ContinuationMisuse/LoginService.swift:50:21 (ConcurrencyWorkbookPackageTests.xctest+0x14c7c9) (BuildId: 92327e0073d34c7c8e7b0277dcded8a9e5933a1b)
            #2 $s22Ch02ContinuationMisuse12LoginServiceC5login9isolation14SimulatedWorld0D5TokenVScA_pSgYi_tYaKFyyYbXEfU0_TA /<compiler-generated> (ConcurrencyWorkbookPackageTests.xctest+0x14c81d) (BuildId: 92327e0073d34c7c8e7b0277dcded8a9e5933a1b)
            #3 void __swift::__runtime::llvm::function_ref<void (swift::ActiveTaskStatus)>::callback_fn<swift_task_cancelImpl(swift::AsyncTask*)::$_0>(long, swift::ActiveTaskStatus) TaskStatus.cpp (libswift_Concurrency.so+0x78467) (BuildId: b9f34903c95524076576e2a19e29e879676b9e24)
            #4 swift::runJobInEstablishedExecutorContext(swift::Job*) crtstuff.c (libswift_Concurrency.so+0x71e5f) (BuildId: b9f34903c95524076576e2a19e29e879676b9e24)
            #5 _dispatch_continuation_pop crtstuff.c (libdispatch.so+0x2c087) (BuildId: cb8d2d3cfa8e51d96b2da370bac3f34f88b57c92)

          Previous write of size 1 at 0x720c00003b99 by thread T1:
            #0 $s22Ch02ContinuationMisuse12LoginAttempt33_22786C9D8BA29950DB04B71F6D16255FLLC6finishyys6ResultOy14SimulatedWorld0D5TokenVs5Error_pGF /home/learner/workbook/Chapters/02-ContinuationMisuse/LoginService.swift:72:18 (ConcurrencyWorkbookPackageTests.xctest+0x14f136) (BuildId: 92327e0073d34c7c8e7b0277dcded8a9e5933a1b)
            #1 $s22Ch02ContinuationMisuse12LoginServiceC5login9isolation14SimulatedWorld0D5TokenVScA_pSgYi_tYaKFAHyYaKXEfU_yScCyAHs5Error_pGXEfU_ys6ResultOyAhF06SocialdK0OGYbcfU0_ /home/learner/workbook/Chapters/02-ContinuationMisuse/LoginService.swift:43:29 (ConcurrencyWorkbookPackageTests.xctest+0x14c0d2) (BuildId: 92327e0073d34c7c8e7b0277dcded8a9e5933a1b)
            #2 $s22Ch02ContinuationMisuse12LoginServiceC5login9isolation14SimulatedWorld0D5TokenVScA_pSgYi_tYaKFAHyYaKXEfU_yScCyAHs5Error_pGXEfU_ys6ResultOyAhF06SocialdK0OGYbcfU0_TA /<compiler-generated> (ConcurrencyWorkbookPackageTests.xctest+0x14d983) (BuildId: 92327e0073d34c7c8e7b0277dcded8a9e5933a1b)
            #3 $ss6ResultOy14SimulatedWorld10LoginTokenVAC06SocialD5ErrorOGIeghg_AHytIeghnr_TR /<compiler-generated> (ConcurrencyWorkbookPackageTests.xctest+0x44aae4) (BuildId: 92327e0073d34c7c8e7b0277dcded8a9e5933a1b)
            #4 $ss6ResultOy14SimulatedWorld10LoginTokenVAC06SocialD5ErrorOGIeghg_AHytIeghnr_TRTA.14 /<compiler-generated> (ConcurrencyWorkbookPackageTests.xctest+0x44dd4d) (BuildId: 92327e0073d34c7c8e7b0277dcded8a9e5933a1b)
            #5 $ss6ResultOy14SimulatedWorld10LoginTokenVAC06SocialD5ErrorOGytIeghnr_AHIeghg_TR /<compiler-generated> (ConcurrencyWorkbookPackageTests.xctest+0x44b026) (BuildId: 92327e0073d34c7c8e7b0277dcded8a9e5933a1b)
            #6 $ss6ResultOy14SimulatedWorld10LoginTokenVAC06SocialD5ErrorOGytIeghnr_AHIeghg_TRTA /<compiler-generated> (ConcurrencyWorkbookPackageTests.xctest+0x44b868) (BuildId: 92327e0073d34c7c8e7b0277dcded8a9e5933a1b)
            #7 $s14SimulatedWorld14SocialLoginSDKC7deliver33_C82C6756527084B4E664F7B99C193C03LL_2toys6ResultOyAA0D5TokenVAA0cD5ErrorOG_yAMYbctFyyYbcfU_ /home/learner/workbook/Sources/SimulatedWorld/SocialLoginSDK.swift:107:13 (ConcurrencyWorkbookPackageTests.xctest+0x44bb2a) (BuildId: 92327e0073d34c7c8e7b0277dcded8a9e5933a1b)
            #8 $s14SimulatedWorld14SocialLoginSDKC7deliver33_C82C6756527084B4E664F7B99C193C03LL_2toys6ResultOyAA0D5TokenVAA0cD5ErrorOG_yAMYbctFyyYbcfU_TA /<compiler-generated> (ConcurrencyWorkbookPackageTests.xctest+0x44bc5d) (BuildId: 92327e0073d34c7c8e7b0277dcded8a9e5933a1b)
            #9 $sIegh_IeyBh_TR /<compiler-generated> (ConcurrencyWorkbookPackageTests.xctest+0x1778c2) (BuildId: 92327e0073d34c7c8e7b0277dcded8a9e5933a1b)
            #10 __tsan::invoke_and_release_block(void*) /home/build-user/llvm-project/compiler-rt/lib/tsan/rtl/tsan_interceptors_libdispatch.cpp:155:3 (ConcurrencyWorkbookPackageTests.xctest+0x12baf6) (BuildId: 92327e0073d34c7c8e7b0277dcded8a9e5933a1b)
            #11 _dispatch_lane_serial_drain crtstuff.c (libdispatch.so+0x2f112) (BuildId: cb8d2d3cfa8e51d96b2da370bac3f34f88b57c92)

          Location is heap block of size 42 at 0x720c00003b70 allocated by thread T4:
            #0 malloc /home/build-user/llvm-project/compiler-rt/lib/tsan/rtl/tsan_interceptors_posix.cpp:686:5 (ConcurrencyWorkbookPackageTests.xctest+0xadfa0) (BuildId: 92327e0073d34c7c8e7b0277dcded8a9e5933a1b)
            #1 swift_slowAlloc <null> (libswiftCore.so+0x46fa6e) (BuildId: b521f25fdeacf504eca83d97c7308e8fc11be729)
            #2 $s22Ch02ContinuationMisuse12LoginServiceC5login9isolation14SimulatedWorld0D5TokenVScA_pSgYi_tYaKFTY0_ /home/learner/workbook/Chapters/02-ContinuationMisuse/LoginService.swift:32:23 (ConcurrencyWorkbookPackageTests.xctest+0x14a778) (BuildId: 92327e0073d34c7c8e7b0277dcded8a9e5933a1b)
            #3 swift::runJobInEstablishedExecutorContext(swift::Job*) crtstuff.c (libswift_Concurrency.so+0x71e5f) (BuildId: b9f34903c95524076576e2a19e29e879676b9e24)
            #4 _dispatch_continuation_pop crtstuff.c (libdispatch.so+0x2c087) (BuildId: cb8d2d3cfa8e51d96b2da370bac3f34f88b57c92)

          Mutex M0 (0x72440000a328) created at:
            #0 pthread_mutex_init /home/build-user/llvm-project/compiler-rt/lib/tsan/rtl/tsan_interceptors_posix.cpp:1398:3 (ConcurrencyWorkbookPackageTests.xctest+0xb15ec) (BuildId: 92327e0073d34c7c8e7b0277dcded8a9e5933a1b)
            #1 swift::RecursiveMutex::RecursiveMutex(bool) crtstuff.c (libswift_Concurrency.so+0x764a3) (BuildId: b9f34903c95524076576e2a19e29e879676b9e24)
            #2 $s27Ch02ContinuationMisuseTests018SimultaneousEndingD0V29answerAndCancellationTogetheryyYaFyycfU1_04$s27abc9Tests0034eF48Testsswift_oeBCkfMX23_24_6expectfMf_7__localfMu_L_yy15WorkbookTesting8CrashLogVYaYbKFyyYacfU_yyYaXEfU_TY6_ /tmp/swift-generated-sources/@__swiftmacro_27Ch02ContinuationMisuseTests0034SimultaneousEndingTestsswift_oeBCkfMX23_24_6expectfMf_.swift:8:33 (ConcurrencyWorkbookPackageTests.xctest+0x176734) (BuildId: 92327e0073d34c7c8e7b0277dcded8a9e5933a1b)
            #3 swift::runJobInEstablishedExecutorContext(swift::Job*) crtstuff.c (libswift_Concurrency.so+0x71e5f) (BuildId: b9f34903c95524076576e2a19e29e879676b9e24)
            #4 _dispatch_continuation_pop crtstuff.c (libdispatch.so+0x2c087) (BuildId: cb8d2d3cfa8e51d96b2da370bac3f34f88b57c92)

          Thread T2 'oot.default-qos' (tid=23917, running) created by thread T1 at:
            #0 pthread_create /home/build-user/llvm-project/compiler-rt/lib/tsan/rtl/tsan_interceptors_posix.cpp:1094:3 (ConcurrencyWorkbookPackageTests.xctest+0xafb8a) (BuildId: 92327e0073d34c7c8e7b0277dcded8a9e5933a1b)
            #1 _dispatch_root_queue_poke_slow queue.c (libdispatch.so+0x32195) (BuildId: cb8d2d3cfa8e51d96b2da370bac3f34f88b57c92)
            #2 _dispatch_lane_serial_drain crtstuff.c (libdispatch.so+0x2f112) (BuildId: cb8d2d3cfa8e51d96b2da370bac3f34f88b57c92)

          Thread T1 '-qos.overcommit' (tid=23912, running) created by main thread at:
            #0 pthread_create /home/build-user/llvm-project/compiler-rt/lib/tsan/rtl/tsan_interceptors_posix.cpp:1094:3 (ConcurrencyWorkbookPackageTests.xctest+0xafb8a) (BuildId: 92327e0073d34c7c8e7b0277dcded8a9e5933a1b)
            #1 _dispatch_root_queue_poke_slow queue.c (libdispatch.so+0x32195) (BuildId: cb8d2d3cfa8e51d96b2da370bac3f34f88b57c92)

          Thread T4 'oot.default-qos' (tid=23919, running) created by thread T3 at:
            #0 pthread_create /home/build-user/llvm-project/compiler-rt/lib/tsan/rtl/tsan_interceptors_posix.cpp:1094:3 (ConcurrencyWorkbookPackageTests.xctest+0xafb8a) (BuildId: 92327e0073d34c7c8e7b0277dcded8a9e5933a1b)
            #1 _dispatch_root_queue_poke_slow queue.c (libdispatch.so+0x32195) (BuildId: cb8d2d3cfa8e51d96b2da370bac3f34f88b57c92)
            #2 _dispatch_continuation_pop crtstuff.c (libdispatch.so+0x2c087) (BuildId: cb8d2d3cfa8e51d96b2da370bac3f34f88b57c92)

        SUMMARY: ThreadSanitizer: data race /home/learner/workbook/Chapters/02-ContinuationMisuse/LoginService.swift:70:145 in $s22Ch02ContinuationMisuse12LoginAttempt33_22786C9D8BA29950DB04B71F6D16255FLLC6finishyys6ResultOy14SimulatedWorld0D5TokenVs5Error_pGF
        ==================
        ==================
        """#

    @Test("A race between two of the learner's lines names both lines and which one writes")
    func namesTheLearnersLines() {
        let report = RaceReport.parse(Self.flagWithoutLock, chapterFolder: "02-ContinuationMisuse")
        #expect(report.races.count == 1)
        guard let race = report.races.first else { return }
        #expect(
            race.current == .init(isWrite: false, learnerLine: "LoginService.swift:70", function: race.current.function)
        )
        #expect(race.previous.isWrite)
        #expect(race.previous.learnerLine == "LoginService.swift:72")
        let readable = report.demangled(by: [race.current.function ?? "": "LoginAttempt.finish(_:)"])
        let text = readable.explanation(readingPointer: "'Resume once' in Chapters/02-ContinuationMisuse/README.md")
        #expect(text.count == 1)
        #expect(text[0].contains("LoginService.swift:70 (in LoginAttempt.finish(_:)) reads"))
        #expect(text[0].contains("LoginService.swift:72"))
        #expect(text[0].contains("one writes while the other reads"))
    }

    @Test("Frames outside the chapter's files are not the learner's lines")
    func otherChaptersAreNotLearnerLines() {
        let report = RaceReport.parse(Self.flagWithoutLock, chapterFolder: "10-TaskGroups")
        #expect(report.races.first?.current.learnerLine == nil)
        #expect(
            report.races.first.map { RaceReport.describe($0.current) }?.hasPrefix("code outside your exercise files")
                == true)
    }

    @Test("No report, no race")
    func nothingToReport() {
        #expect(RaceReport.parse("Test run with 6 tests passed", chapterFolder: "02-ContinuationMisuse").races.isEmpty)
    }

    @Test("A Mutex in the learner's files is noticed, outside comments, and Locked is not a Mutex")
    func mutexUseIsNoticed() {
        #expect(RaceReport.usesMutex("import Synchronization\nprivate let state = Mutex<[String]>([])"))
        #expect(RaceReport.usesMutex("let lock = Mutex(0)"))
        #expect(!RaceReport.usesMutex("private let state = Locked<[String]>([])"))
        #expect(!RaceReport.usesMutex("    // a Mutex<[String]> would do as well"))
        #expect(!RaceReport.usesMutex("let mutexes = 2  // MutexLike"))
        #expect(RaceReport.mutexCaveat.contains("'Data races the tests can't see' in README.md"))
    }
}
