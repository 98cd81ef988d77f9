import IndoorServer
import Synchronization
import Testing

/// ``SerialJobs`` runs one job at a time, to its end across the points where it waits, in the order given.
@Suite struct SerialJobsTests {
    /// What the jobs saw: how many ran at once at most, and the order they ended in.
    final class Log: Sendable {
        let state = Mutex<(running: Int, most: Int, ended: [Int])>((0, 0, []))

        func start() {
            state.withLock {
                $0.running += 1
                $0.most = max($0.most, $0.running)
            }
        }
        func end(_ job: Int) {
            state.withLock {
                $0.running -= 1
                $0.ended.append(job)
            }
        }
    }

    @Test func jobsGivenAtOnceNeverOverlapThoughTheyWait() async throws {
        let jobs = SerialJobs()
        let log = Log()
        try await withThrowingTaskGroup(of: Int.self) { group in
            for job in 0..<64 {
                group.addTask {
                    try await jobs.run {
                        log.start()
                        for _ in 0..<(job % 4) { await Task.yield() }
                        log.end(job)
                        return job
                    }
                }
            }
            var answered: [Int] = []
            for try await job in group { answered.append(job) }
            #expect(answered.sorted() == Array(0..<64))
        }
        let state = log.state.withLock { $0 }
        #expect(state.most == 1)
        #expect(state.ended.sorted() == Array(0..<64))
    }

    @Test func aJobGivenWhileAnotherRunsStartsAfterItEnds() async throws {
        let jobs = SerialJobs()
        let log = Log()
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let (release, releaseContinuation) = AsyncStream<Void>.makeStream()
        let first = Task {
            try await jobs.run {
                log.start()
                startedContinuation.yield()
                for await _ in release { break }
                log.end(1)
            }
        }
        for await _ in started { break }
        let second = Task {
            try await jobs.run {
                log.start()
                log.end(2)
            }
        }
        // The second waits for the first, which waits to be released.
        for _ in 0..<100 { await Task.yield() }
        #expect(log.state.withLock { $0.ended } == [])
        releaseContinuation.yield()
        try await first.value
        try await second.value
        #expect(log.state.withLock { $0.ended } == [1, 2])
        #expect(log.state.withLock { $0.most } == 1)
    }

    @Test func aJobThatThrowsLetsTheNextRun() async throws {
        struct Failure: Error {}
        let jobs = SerialJobs()
        await #expect(throws: Failure.self) { try await jobs.run { () throws -> Int in throw Failure() } }
        #expect(try await jobs.run { 7 } == 7)
    }
}
